/** `geo credits`: the account's credit snapshot (api-spec.md "Credits snapshot"). */
import type { Register } from '../../cli.js';

export const register: Register = (program, act) => {
  program
    .command('credits')
    .description('show credits: balance, api_balance, total available, purchased, used')
    .addHelpText(
      'after',
      `
Depth costs: 1 credit (depth 1), 2 (depth 2), 10 (depth 3). Failed analyses are not charged.

Examples:
  $ geo credits
  $ geo credits --json | jq .data.total_available
  $ geo --sandbox credits                 the sandbox's pro key, no account needed`,
    )
    .action(act(async () => (await import('./handler.js')).credits));
};
