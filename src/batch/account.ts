/**
 * Whose journal is it (issue 11)? A journal's answers were paid by the account whose fingerprint its
 * head carries; they are re-emitted only for that account. The default journal path already hashes
 * the account in (plan.ts), so this matters for files named with --journal or --resume.
 *
 * - Same account (or neither side knows one, as for callers of runBatch without a key): as it is.
 * - Another account: refused. Its answers must not reach this key, and appending this key's lines
 *   to it would mix two accounts in one file; --fresh starts the file anew for this key.
 * - A journal from before geo recorded accounts: its answers are not re-emitted, but its idempotency
 *   keys are kept, so resending costs nothing if it was this account (the service replays a
 *   finished key; keys are per API key, api-spec.md "States and transitions") and is an ordinary
 *   request, charged to this key, if it was not.
 */
import { UsageError } from '../errors.js';
import type { JournalState } from './journal.js';

export interface AccountCheck {
  state?: JournalState;
  notice?: string;
}

export function journalForAccount(state: JournalState | undefined, account: string | undefined, path: string): AccountCheck {
  const head = state?.head;
  if (!state || !head || head.account === account) return state ? { state } : {};
  if (head.account !== undefined) {
    throw new UsageError(
      `the journal ${path} was written with another API key (account ${head.account}; this key is ${account ?? 'not configured'}): its answers are never re-emitted for another account`,
      'use the key that wrote it, give another --journal file, or add --fresh to start this file anew with this key',
    );
  }
  const n = state.done.size;
  const notice = n > 0 ? `the journal ${path} predates account fingerprints: its ${n} answer${n === 1 ? ' is' : 's are'} not re-emitted but resent with their keys (the service replays them free for the account that paid)` : undefined;
  return { state: { ...state, done: new Map() }, ...(notice ? { notice } : {}) };
}
