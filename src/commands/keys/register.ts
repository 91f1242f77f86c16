/** `geo keys …`: local key profiles and signing keys. Flags only; the work is in add.ts, manage.ts, migrate.ts, check.ts and signing.ts. */
import type { Register } from '../types.js';
import { declareJson } from '../../output/json-fields.js';
import { registerSigning } from './signing-register.js';

/**
 * The examples run as written from an empty folder: a sandbox key stored without the
 * network check stands in for yours. Where no OS keyring answers (the packed-install test has no
 * D-Bus), `keys add` keeps it in the 0600 file and says so.
 */
const EXAMPLES = '\nExamples (a sandbox key stands in for yours):';
const ADD_DEMO = 'printf %s orca_sandbox_pro | geo keys add demo --stdin --no-verify --base-url http://127.0.0.1:4010';

const STORAGE = `
Where keys are kept: the OS keyring (macOS Keychain, Windows Credential Manager, the Secret
Service on Linux, e.g. gnome-keyring), service "geo-cli". Where no keyring answers within 3 s,
geo keeps the key in its 0600 config file and says so once. --insecure-storage chooses the file
on purpose; GEO_KEYRING=required refuses it (exit 3, nothing stored, nothing sent); with CI set,
geo never touches the keyring. \`geo keys list\` shows where each key is (STORED).

Each key is bound to its profile's service: it is sent only to the origin saved with it. A
--base-url or GEO_BASE_URL of another origin is refused (exit 2, nothing sent); GEO_API_KEY goes
with --base-url, GEO_BASE_URL or the default service, never with a profile's host.`;

export const register: Register = (program, act) => {
  for (const path of ['keys add', 'keys list', 'keys show', 'keys test']) declareJson(path, { names: [], open: true });
  const keys = program
    .command('keys')
    .description('API key profiles (in the OS keyring) and the signing key')
    .addHelpText('after', `${STORAGE}\n${EXAMPLES}\n  $ ${ADD_DEMO}\n  $ geo keys list\n  $ geo keys use demo\n  $ geo --sandbox keys test\n\nOn a terminal, geo keys add work asks for the key (hidden).\n\nSigning keys (Ed25519, SSH signatures over case heads that ssh-keygen -Y verify checks): geo keys signing --help`);

  keys
    .command('add [name]')
    .description('store a key as profile NAME (default "default"), read from a hidden prompt or --stdin')
    .option('--stdin', 'read the key from standard input (for scripts)')
    .option('--no-verify', 'save without checking the key against the service')
    .option('--insecure-storage', 'keep the key in the 0600 config file, not the OS keyring')
    .addHelpText(
      'after',
      `
The base URL comes from --base-url, GEO_BASE_URL or a prompt (default https://oceanir.ai); the key
will be sent to that origin only. The key goes into the OS keyring, or the 0600 config file where
none answers (said once) or with --insecure-storage; GEO_KEYRING=required refuses the file (exit 3).

${EXAMPLES}
  $ ${ADD_DEMO}
  $ printf %s orca_sandbox_pro | geo keys add filed --stdin --no-verify --insecure-storage --base-url http://127.0.0.1:4010
  $ printf %s orca_sandbox_pro | CI=true GEO_KEYRING=required geo keys add strict --stdin --no-verify   # exit 3: refused, CI never uses a keyring

With your own key:
  geo keys add work                                   # prompts for the key (hidden)
  printf %s "$KEY" | geo keys add ci --stdin --base-url https://oceanir.ai`,
    )
    .action(act(async () => (await import('./handlers.js')).add));

  keys
    .command('list')
    .alias('ls')
    .description('list profiles with masked keys, base URLs, where each key is stored (keyring or file) and the active one (*)')
    .addHelpText('after', `${EXAMPLES}\n  $ ${ADD_DEMO}\n  $ geo keys list\n  $ geo keys ls --json | jq -r ".[] | [.name, .storage] | @tsv"`)
    .action(act(async () => (await import('./handlers.js')).list));

  keys
    .command('use <name>')
    .description('make NAME the active profile')
    .addHelpText('after', `${EXAMPLES}\n  $ ${ADD_DEMO}\n  $ geo keys use demo`)
    .action(act(async () => (await import('./handlers.js')).use));

  keys
    .command('remove <name>')
    .alias('rm')
    .description('delete profile NAME and its key, from the OS keyring too (asks first on a terminal; --yes in scripts)')
    .addHelpText('after', `${EXAMPLES}\n  $ ${ADD_DEMO}\n  $ geo keys remove demo --yes      # no question (scripts)`)
    .action(act(async () => (await import('./handlers.js')).remove));

  keys
    .command('migrate [names...]')
    .description('move keys kept in the config file into the OS keyring (each read back before it leaves the file)')
    .addHelpText(
      'after',
      `
Keys stored before geo used the OS keyring, or where none answered, stay in the 0600 config file
and keep working. This moves them (all, or the profiles named) into the keyring: each is stored,
read back and compared, and only then removed from the file. Where no keyring answers, nothing
moves (exit 3). With CI set it refuses (geo never touches the keyring under CI).

Examples:
  $ geo keys migrate           # nothing to move in a fresh config: exit 0

With your own keys:
  geo keys migrate
  geo keys migrate work`,
    )
    .action(act(async () => (await import('./handlers.js')).migrate));

  keys
    .command('show')
    .description('which key, base URL and profile a command would use now, where each comes from and where the key is stored')
    .addHelpText('after', '\nExamples:\n  $ geo keys show\n  $ GEO_API_KEY=orca_sandbox_pro geo keys show --json')
    .action(act(async () => (await import('./handlers.js')).show));

  keys
    .command('test')
    .description('check the key in use with a free credits call')
    .addHelpText('after', `\nExamples (--sandbox: the sandbox's key; drop it to test yours):\n  $ geo --sandbox keys test\n\nWith your own key:\n  geo keys test\n  geo keys test --profile work`)
    .action(act(async () => (await import('./handlers.js')).test));

  registerSigning(keys, act);
};
