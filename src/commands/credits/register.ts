/** `geo credits`: the account's credit snapshot (api-spec.md "Credits snapshot"). */
import type { Register } from '../types.js';
import { declareJson } from '../../output/json-fields.js';

export const register: Register = (program, act) => {
  declareJson('credits', { names: ['balance', 'api_balance', 'total_available', 'total_purchased', 'total_used'], at: 'data', open: true });
  program
    .command('credits')
    .description('show credits: balance, purchased, used, available')
    .addHelpText(
      'after',
      `
Depth costs: 1 credit (depth 1), 2 (depth 2), 10 (depth 3). Failed analyses are not charged.

Examples (--sandbox: the sandbox's pro key, no account needed):
  $ geo --sandbox credits
  $ geo --sandbox credits --json | jq .data.total_available

With your own key:
  geo credits`,
    )
    .action(act(async () => (await import('./handler.js')).credits));
};
