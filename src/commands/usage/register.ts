/** `geo usage`: meter status, overage mode and access lifecycle (api-spec.md "Usage snapshot"). */
import type { Register } from '../types.js';
import { declareJson } from '../../output/json-fields.js';

export const register: Register = (program, act) => {
  // api-spec.md: the fields of usage's data are "not shown": those the answer carries.
  declareJson('usage', { names: [], at: 'data', open: true });
  program
    .command('usage')
    .description('show the usage snapshot: meter, overage mode, access')
    .addHelpText(
      'after',
      `
The service does not document the fields, so every field it sends is shown, nested keys joined
with dots (for example meter.status).

Examples (--sandbox: the sandbox's pro key, no account needed):
  $ geo --sandbox usage
  $ geo --sandbox usage --json | jq .data

With your own key:
  geo usage`,
    )
    .action(act(async () => (await import('./handler.js')).usage));
};
