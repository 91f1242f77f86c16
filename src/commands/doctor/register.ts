/** `geo doctor`: what works and what does not, each with a hint. */
import type { Register } from '../types.js';
import { declareJson } from '../../output/json-fields.js';

export const register: Register = (program, act) => {
  declareJson('doctor', { names: ['name', 'status', 'detail', 'hint'] });
  program
    .command('doctor')
    .description('check what geo needs: Node, folders, key, store, ffmpeg')
    .option('--online', 'also check the service answers (GET /api/v1/docs: no key is sent)')
    .option('--auth', 'also send the key to GET /api/v1/credits to check it works (free; implies --online)')
    .addHelpText(
      'after',
      `
Each line is ok, warn or FAIL, with a hint for what to do. Checks: the Node version; the config,
state, data and cache folders (yours, mode 0700: geo never changes a folder's mode itself, the
hint says how); the config file (JSON, 0600); where the key comes from (masked) and where keys
are stored; whether an OS keyring answers; the store (opens, integrity, results, size); a team
store, named but not contacted (geo store status checks its connection; --online checks it too); the
optional parts installed beside geo (sharp, jq, leaflet, country borders); ffmpeg for videos; the
configured service. Offline by default: nothing is sent unless --online or --auth.
Exit 0 when nothing failed (warnings included), 1 when something is missing or wrong.
--json prints the checks as an array of {name, status, detail, hint}.

Examples:
  $ geo doctor                              # offline: nothing is sent
  $ geo --sandbox doctor --auth             # the sandbox's key, checked with a free credits call
  $ geo doctor --json --jq '.[] | select(.status != "ok") | .name'   # what needs attention

With your own key:
  geo doctor --auth                         # checks your key against the service (free)`,
    )
    .action(act(async () => (await import('./handler.js')).doctor));
};
