/**
 * Whose batch is it? A journal's or batch's answers were paid by the account whose
 * fingerprint its head carries. Claims and results are per account already (their fingerprint
 * holds it, ledger.ts), so this only guards `--resume` and `--journal FILE`:
 *
 * - Same account (or neither side knows one, as for callers of runBatch without a key): as it is.
 * - Another account: refused. Its answers must not reach this key, and appending this key's lines
 *   to it would mix two accounts in one file; --fresh starts the file anew for this key.
 * - A journal from before geo recorded accounts: allowed, with a notice. Its keys were imported
 *   without an account, so they are not this key's claims: resending costs nothing if it was this
 *   account (the service replays a finished key) and is an ordinary request if it was not.
 */
import { UsageError } from '../errors.js';
import type { HeadLine } from './journal.js';

export function journalForAccount(head: Pick<HeadLine, 'account'>, account: string | undefined, path: string, fresh: boolean): { notice?: string } {
  if (head.account === account || fresh) return {};
  if (head.account !== undefined) {
    throw new UsageError(
      `${path} was written with another API key (account ${head.account}; this key is ${account ?? 'not configured'}): its answers are never re-emitted for another account`,
      'use the key that wrote it, give another --journal file, or add --fresh to start anew with this key',
    );
  }
  return { notice: `${path} predates account fingerprints: its answers are not re-emitted for this key, and its images are sent again (a finished key replays free for the account that paid)` };
}
