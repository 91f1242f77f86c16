/** `geo cases review`: a second analyst's review of a case's conclusion, signed with their own key. */
import type { Command } from 'commander';
import { type Act, OFFLINE } from '../types.js';
import { declareJson } from '../../output/json-fields.js';

export function registerReview(cases: Command, act: Act): void {
  declareJson('cases review', { names: ['case', 'review', 'conclusion', 'signed'] });

  cases
    .command('review')
    .summary('a second analyst\'s review of a conclusion')
    .description('review a local case\'s conclusion as a second analyst: approve or request changes, signed with your own SSH key')
    .argument('<case>', 'the case: its id (geo\'s or the service\'s) or its name')
    .option('--approve', 'approve the conclusion in force, as the case stands now')
    .option('--request-changes', 'ask for changes before it is relied on')
    .option('--because <text>', 'your grounds, in your words (required)')
    .option('--key <ref>', 'review with this key instead of the chosen one: a name from geo keys signing list, a key file, or agent:SHA256:…')
    .addHelpText(
      'after',
      `
A review covers the case as it stands: its verdict and grounds are signed with your key over one
line of their own, "geo-custody-review/1 case=<id> seq=<n> head=<hash of entry n>
verdict=<approve|request_changes> because=<sha256 of the text>\\n" (namespace geo-custody, so
ssh-keygen -Y verify checks it), appended as a review_made entry, and the head after it signed
by the same key. Any later entry but a signature, a stamp, a file written, a bundle or another
review makes the review stale: geo cases verify shows it so, and --require-reviews does not count it.

A review by the key that made the conclusion in force (its entry's key, or the key that signed
its head) is refused: a review is another analyst's. The case must verify first, and have a
conclusion (geo cases conclude).

Exit 0: reviewed. Exit 1: the case does not verify. Exit 2: no such case, no conclusion, no
verdict or grounds, your key made the conclusion, or no key chosen and no --key (nothing is
appended). Exit 3: the key cannot sign.

Examples:
  geo cases review "Harbour fire" --approve --because "shadows and skyline match the 12 May street view"
  geo cases review "Harbour fire" --request-changes --because "no church tower in r2; rule out the old town"
  geo cases review "Harbour fire" --approve --because "checked" --key ~/.ssh/id_ed25519
  geo cases verify "Harbour fire" --require-reviews 1 --allowed-signers allowed_signers`,
    )
    .action(act(async () => (await import('./review.js')).review, OFFLINE));
}
