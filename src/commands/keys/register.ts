/** `geo keys …`: local key profiles. Flags only; the work is in add.ts, manage.ts and check.ts. */
import type { Register } from '../types.js';
import { declareJson } from '../../output/json-fields.js';

/**
 * The examples run as written from an empty folder (issue 13): a sandbox key stored without the
 * network check stands in for yours.
 */
const EXAMPLES = '\nExamples (a sandbox key stands in for yours):';
const ADD_DEMO = 'printf %s orca_sandbox_pro | geo keys add demo --stdin --no-verify --base-url http://127.0.0.1:4010';

export const register: Register = (program, act) => {
  for (const path of ['keys add', 'keys list', 'keys show', 'keys test']) declareJson(path, { names: [], open: true });
  const keys = program
    .command('keys')
    .description('manage API key profiles (each key with its base URL); keys are never read from argv')
    .addHelpText('after', `${EXAMPLES}\n  $ ${ADD_DEMO}\n  $ geo keys list\n  $ geo keys use demo\n  $ geo --sandbox keys test\n\nOn a terminal, geo keys add work asks for the key (hidden).`);

  keys
    .command('add [name]')
    .description('store a key as profile NAME (default "default"), read from a hidden prompt or --stdin')
    .option('--stdin', 'read the key from standard input (for scripts)')
    .option('--no-verify', 'save without checking the key against the service')
    .addHelpText(
      'after',
      `
The base URL comes from --base-url, GEO_BASE_URL or a prompt (default https://oceanir.ai).

${EXAMPLES}
  $ ${ADD_DEMO}

With your own key:
  geo keys add work                                   # prompts for the key (hidden)
  printf %s "$KEY" | geo keys add ci --stdin --base-url https://oceanir.ai`,
    )
    .action(act(async () => (await import('./handlers.js')).add));

  keys
    .command('list')
    .alias('ls')
    .description('list profiles with masked keys, base URLs and the active one (*)')
    .addHelpText('after', `${EXAMPLES}\n  $ ${ADD_DEMO}\n  $ geo keys list\n  $ geo keys ls --json | jq -r ".[].name"`)
    .action(act(async () => (await import('./handlers.js')).list));

  keys
    .command('use <name>')
    .description('make NAME the active profile')
    .addHelpText('after', `${EXAMPLES}\n  $ ${ADD_DEMO}\n  $ geo keys use demo`)
    .action(act(async () => (await import('./handlers.js')).use));

  keys
    .command('remove <name>')
    .alias('rm')
    .description('delete profile NAME (asks first on a terminal; --yes in scripts)')
    .addHelpText('after', `${EXAMPLES}\n  $ ${ADD_DEMO}\n  $ geo keys remove demo --yes      # no question (scripts)`)
    .action(act(async () => (await import('./handlers.js')).remove));

  keys
    .command('show')
    .description('which key, base URL and profile a command would use now, and where each comes from')
    .addHelpText('after', '\nExamples:\n  $ geo keys show\n  $ GEO_API_KEY=orca_sandbox_pro geo keys show --json')
    .action(act(async () => (await import('./handlers.js')).show));

  keys
    .command('test')
    .description('check the key in use with a free credits call')
    .addHelpText('after', `\nExamples (--sandbox: the sandbox's key; drop it to test yours):\n  $ geo --sandbox keys test\n\nWith your own key: geo keys test, or geo keys test --profile work`)
    .action(act(async () => (await import('./handlers.js')).test));
};
