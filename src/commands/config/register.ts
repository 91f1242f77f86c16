/** `geo config get | set | list`: defaults used when a flag is not given. */
import { type Register, OFFLINE } from '../types.js';
import { declareJson } from '../../output/json-fields.js';

const KEYS_HELP = `
Keys:
  depth              default --depth for locate: 1, 2 or 3 (default 1)
  format             default output format: table, json or ndjson (default table)
  confirm_threshold  ask before runs estimated above this many credits (default 20)
  accessible         true: no spinners or redrawn lines, progress as plain percentage lines,
                     questions that do not redraw (screen readers, braille); also GEO_ACCESSIBLE=1
  tsa                RFC 3161 time-stamp authorities for trusted timestamps of case heads
                     (geo cases stamp): URL[,URL...], each https (plain http only to loopback),
                     no credentials in the URL. None is contacted unless listed here or named
                     with --tsa (default: none; \`geo config unset tsa\` contacts none again)
  tsa_ca             a PEM file of the CA certificates TSAs are trusted under (also tsa-ca):
                     a token must chain to one when stamped and when verified; unset, the
                     root the TSA sends is pinned at stamp time (geo cases stamp --help)
  store              local (default), or a team's PostgreSQL store: postgres://USER:PASSWORD@HOST/DB
                     ?sslmode=verify-full&sslrootcert=CA.pem; the password goes to the OS keyring,
                     never shown (geo store status; GEO_STORE_URL and --store URL come first)`;

export const register: Register = (program, act) => {
  for (const path of ['config get', 'config list']) declareJson(path, { names: [], open: true });
  const config = program
    .command('config')
    .description('read and change defaults: depth, format, thresholds, tsa')
    .addHelpText('after', `${KEYS_HELP}\n\nExamples:\n  $ geo config list\n  $ geo config set depth 2\n  $ geo config get format`);

  config
    .command('get <key>')
    .description('print the value of KEY (the built-in default when unset)')
    .addHelpText('after', `${KEYS_HELP}\n\nExamples:\n  $ geo config get depth\n  $ geo config get confirm_threshold --json`)
    .action(act(async () => (await import('./handlers.js')).get, OFFLINE));

  config
    .command('set <key> <value>')
    .description('set KEY to VALUE (checked before it is stored)')
    .addHelpText('after', `${KEYS_HELP}\n\nExamples:\n  $ geo config set depth 3\n  $ geo config set format json\n  $ geo config set confirm_threshold 50\n  $ geo config set tsa https://freetsa.org/tsr,https://timestamp.digicert.com`)
    .action(act(async () => (await import('./handlers.js')).set, OFFLINE));

  config
    .command('unset <key>')
    .description('forget KEY so the built-in default applies again')
    .addHelpText('after', '\nExamples:\n  $ geo config unset depth')
    .action(act(async () => (await import('./handlers.js')).unset, OFFLINE));

  config
    .command('list')
    .alias('ls')
    .description('every key with its value and whether it was set or is the default')
    .addHelpText('after', '\nExamples:\n  $ geo config list\n  $ geo config list --json')
    .action(act(async () => (await import('./handlers.js')).list, OFFLINE));
};
