/** `geo keys …`: local key profiles. Flags only; the work is in add.ts, manage.ts and check.ts. */
import type { Register } from '../../cli.js';

export const register: Register = (program, act) => {
  const keys = program
    .command('keys')
    .description('manage API key profiles (each key with its base URL); keys are never read from argv')
    .addHelpText('after', '\nExamples:\n  $ geo keys add work          store a key (hidden prompt)\n  $ geo keys list\n  $ geo keys use work\n  $ geo keys test');

  keys
    .command('add [name]')
    .description('store a key as profile NAME (default "default"), read from a hidden prompt or --stdin')
    .option('--stdin', 'read the key from standard input (for scripts)')
    .option('--no-verify', 'save without checking the key against the service')
    .addHelpText(
      'after',
      `
The base URL comes from --base-url, GEO_BASE_URL or a prompt (default https://oceanir.ai).

Examples:
  $ geo keys add work                                   prompts for the key (hidden)
  $ printf %s "$KEY" | geo keys add ci --stdin --base-url https://oceanir.ai
  $ printf %s orca_sandbox_pro | geo keys add sb --stdin --base-url http://127.0.0.1:4010`,
    )
    .action(act(async () => (await import('./handlers.js')).add));

  keys
    .command('list')
    .alias('ls')
    .description('list profiles with masked keys, base URLs and the active one (*)')
    .addHelpText('after', '\nExamples:\n  $ geo keys list\n  $ geo keys list --json | jq -r ".[].name"')
    .action(act(async () => (await import('./handlers.js')).list));

  keys
    .command('use <name>')
    .description('make NAME the active profile')
    .addHelpText('after', '\nExamples:\n  $ geo keys use work')
    .action(act(async () => (await import('./handlers.js')).use));

  keys
    .command('remove <name>')
    .alias('rm')
    .description('delete profile NAME (asks first on a terminal; --yes in scripts)')
    .addHelpText('after', '\nExamples:\n  $ geo keys remove old\n  $ geo keys remove old --yes      no question (scripts)')
    .action(act(async () => (await import('./handlers.js')).remove));

  keys
    .command('show')
    .description('which key, base URL and profile a command would use now, and where each comes from')
    .addHelpText('after', '\nExamples:\n  $ geo keys show\n  $ GEO_API_KEY=… geo keys show --json')
    .action(act(async () => (await import('./handlers.js')).show));

  keys
    .command('test')
    .description('check the key in use with a free credits call')
    .addHelpText('after', '\nExamples:\n  $ geo keys test\n  $ geo keys test --profile work')
    .action(act(async () => (await import('./handlers.js')).test));
};
