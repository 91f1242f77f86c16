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
A review covers the case as it stands: your verdict and the hash of your grounds are signed with
your key over one line of their own (namespace geo-custody: ssh-keygen -Y verify checks it),
appended as a review_made entry, and the head after it signed by the same key. Any later entry
but a signature, a stamp, a file written, a bundle or another review makes it stale: geo cases
verify shows it so, and --require-reviews does not count it. The case must verify first, and
have a conclusion made with a signing key chosen; a review by that key is refused. More:
docs/cases.md "Reviews".

Exit 0: reviewed. Exit 1: the case does not verify. Exit 2: no such case, no conclusion, no
verdict or grounds, your key made the conclusion, or no key chosen and no --key (nothing is
appended). Exit 3: the key cannot sign.

Examples (two keys stand for two analysts; the sandbox's answers are simulated):
  $ geo keys signing create --insecure-storage --principal analyst@example.org
  $ geo keys signing create --name colleague --insecure-storage
  $ geo cases create --name Demo --local
  $ geo --sandbox locate sample:paris --case Demo > /dev/null
  $ geo cases conclude Demo --at "Paris, FR" --within 5000 --confidence possible --because "the facades"
  $ geo cases review Demo --approve --because "mine"   # exit 2: your key made the conclusion
  $ geo cases review Demo --approve --because "the skyline matches too" --key colleague
  $ geo cases verify Demo --require-reviews 1 --allow-sandbox
  $ geo cases review Demo --request-changes --because "rule out Lyon first" --key colleague

With a colleague's key and your allowed_signers:
  geo cases verify "Harbour fire" --require-reviews 1 --allowed-signers allowed_signers`,
    )
    .action(act(async () => (await import('./review.js')).review, OFFLINE));
}
