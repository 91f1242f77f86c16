/**
 * A colleague's review of a case (review_made, investigation-events.ts): what its signature says,
 * whose conclusion it may not be by, and how the reviews of a log are judged.
 *
 * A review is signed over one ASCII line of its own, never the log:
 *   geo-custody-review/1 case=<id> seq=<n> head=<hash of entry n> verdict=<approve|request_changes> because=<sha256 of the text>\n
 * as an SSH signature in the geo-custody namespace (sshsig.ts), so `ssh-keygen -Y verify` checks it
 * with the line in a file; the tag makes a review's signature useless as a head signature and the
 * other way round, and the verdict and the words' hash are in it, so neither can be swapped.
 *
 * A review covers the head it was made on; any later entry but an attestation (ATTESTATIONS: a
 * signature, a stamp, a file written, a bundle, another review) makes it stale. `--require-reviews
 * N` counts current approvals, the latest review of each key, by keys other than the current
 * conclusion's author: the key its entry names and the keys that signed its head right after it.
 */
import type { CustodyEntry } from './custody.js';
import { type SignatureCheck, type SignedHead, type SignerTrust, checkSigner, countsUnder } from './custody-sign.js';
import { sha256Hex } from './custody.js';
import { ATTESTATIONS, type InvestigationEvents } from './investigation-events.js';

export type ReviewData = InvestigationEvents['review_made']['review'];
export type Verdict = ReviewData['verdict'];
export const VERDICTS: readonly Verdict[] = ['approve', 'request_changes'];

/** The exact bytes a review of entry `seq` of case `caseId` signs. */
export function reviewMessage(caseId: string, seq: number, head: string, verdict: string, because: string): Buffer {
  return Buffer.from(`geo-custody-review/1 case=${caseId} seq=${seq} head=${head} verdict=${verdict} because=${sha256Hex(because)}\n`, 'utf8');
}

/** The conclusion in force and the keys that authored it: its entry's key, and the signatures over its head. */
export interface ConclusionAuthor {
  entry: number;
  keys: string[];
}

export function conclusionAuthor(entries: readonly CustodyEntry[]): ConclusionAuthor | null {
  const at = entries.findLastIndex((e) => e.event === 'conclusion_made');
  if (at < 0) return null;
  const keys = new Set<string>(entries[at]!.key ? [entries[at]!.key] : []);
  // The signatures made right after it over its own head (the concluding command's, or its author's geo cases sign).
  for (let i = at + 1; i < entries.length && entries[i]!.event === 'head_signed'; i++) {
    const s = entries[i]!.data.signature as Partial<SignedHead> | undefined;
    if (s?.seq === at + 1 && typeof s.fingerprint === 'string') keys.add(s.fingerprint);
  }
  return { entry: at + 1, keys: [...keys] };
}

export interface ReviewCheck {
  /** The review_made entry's position, and the head it covers: entry `seq`'s. */
  entry: number;
  seq: number;
  head: string;
  verdict: string;
  because: string;
  fingerprint: string;
  principal: string | null;
  trust: SignatureCheck['trust'];
  ok: boolean;
  problem?: string;
  /** The first entry that changed the case after the head it covers. */
  stale_by?: { entry: number; event: string };
  /** Counted as an approval for --require-reviews; else `why` says why not. */
  counts: boolean;
  why?: string;
}

export interface ReviewsSection {
  checked: boolean;
  ok: boolean;
  /** The conclusion in force (its entry) and its author's keys; null: none yet. */
  conclusion: ConclusionAuthor | null;
  reviews: ReviewCheck[];
  /** Current approvals that count: valid, the latest of their key, not the author's, by a key that counts. */
  approvals: number;
  /** --require-reviews N (0: not required). */
  required: number;
  counting: 'allowed-signers' | 'any-valid';
  failures: string[];
}

const HEX64 = /^[0-9a-f]{64}$/;
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function check(entries: readonly CustodyEntry[], n: number, trust: SignerTrust): ReviewCheck {
  const e = entries[n - 1]!;
  const d = (e.data.review ?? {}) as Partial<ReviewData>;
  const base = {
    entry: n, seq: Number(d.seq), head: String(d.head ?? ''), verdict: String(d.verdict ?? ''), because: String(d.because ?? ''),
    fingerprint: String(d.fingerprint ?? ''), principal: typeof d.principal === 'string' ? d.principal : null, trust: 'unlisted' as const, counts: false,
  };
  const bad = (problem: string): ReviewCheck => ({ ...base, ok: false, problem });
  if (!Number.isInteger(d.seq) || d.seq! < 1 || d.seq! >= n || typeof d.head !== 'string' || !HEX64.test(d.head) || typeof d.because !== 'string' || !VERDICTS.includes(d.verdict as Verdict)) {
    return bad('it does not name an earlier entry, a head, a verdict (approve or request_changes) and its grounds');
  }
  if (entries[d.seq! - 1]!.hash !== d.head) return bad(`it reviews head ${d.head.slice(0, 16)}… as entry ${d.seq}'s, which is not that entry's hash: the log was rewritten after the review`);
  const v = checkSigner(reviewMessage(e.case, d.seq!, d.head, d.verdict!, d.because), d, n, trust);
  if (!v.ok) return { ...base, fingerprint: v.fingerprint, ok: false, problem: v.problem };
  // A review covers the case as it stood at its head: the first entry after that head which changed
  // the case (the review itself is an attestation) makes it stale, whether it came after the review
  // (investigation.ts's rule) or, in a forged log, between that head and the review.
  const after = entries.findIndex((x, i) => i + 1 > d.seq! && !ATTESTATIONS.includes(x.event));
  return { ...base, ok: true, fingerprint: v.fingerprint, trust: v.trust, principal: v.principal, ...(after >= 0 ? { stale_by: { entry: after + 1, event: entries[after]!.event } } : {}) };
}

/** Every review_made entry checked, and the approvals counted against `required`. */
export function checkReviews(entries: readonly CustodyEntry[], trust: SignerTrust, required = 0): ReviewsSection {
  const reviews: ReviewCheck[] = [];
  entries.forEach((e, i) => {
    if (e.event === 'review_made') reviews.push(check(entries, i + 1, trust));
  });
  const conclusion = conclusionAuthor(entries);
  const latest = new Map<string, number>();
  for (const r of reviews) if (r.ok) latest.set(r.fingerprint, r.entry);
  for (const r of reviews) {
    const by = r.principal ? `${r.principal}'s key` : 'key';
    r.why = !r.ok ? `review at entry ${r.entry} does not hold: ${r.problem}`
      : r.stale_by ? `review at entry ${r.entry} is stale: entry ${r.stale_by.entry} (${r.stale_by.event}) came after it`
      : !conclusion || conclusion.entry > r.entry ? `review at entry ${r.entry} has no conclusion to approve`
      : conclusion.keys.length === 0 ? `review at entry ${r.entry} cannot be shown to be another's: the conclusion (entry ${conclusion.entry}) names no signing key`
      : conclusion.keys.includes(r.fingerprint) ? `review at entry ${r.entry} is by the conclusion's own key (${r.fingerprint})`
      : latest.get(r.fingerprint) !== r.entry ? `review at entry ${r.entry} is replaced by the same key's review at entry ${latest.get(r.fingerprint)}`
      : r.verdict !== 'approve' ? `review at entry ${r.entry} requests changes`
      : !countsUnder(trust, r) ? `review at entry ${r.entry} is by ${by} ${r.fingerprint}, not in your allowed_signers`
      : undefined;
    r.counts = r.why === undefined;
    if (r.counts) delete r.why;
  }
  const approvals = reviews.filter((r) => r.counts).length;
  const failures = reviews.filter((r) => !r.ok).map((r) => r.why!);
  if (required > 0 && approvals < required) {
    if (!conclusion) failures.push('the case has no conclusion to review (geo cases conclude)');
    failures.push(...reviews.filter((r) => r.ok && !r.counts).map((r) => r.why!));
    failures.push(`${plural(approvals, 'current approval')}, ${required} required`);
  }
  return { checked: true, ok: failures.length === 0, conclusion, reviews, approvals, required, counting: trust.allowed ? 'allowed-signers' : 'any-valid', failures };
}

/** The section when the log could not be read (integrity says why). */
export function uncheckedReviews(required = 0): ReviewsSection {
  return { checked: false, ok: required === 0, conclusion: null, reviews: [], approvals: 0, required, counting: 'any-valid', failures: required ? ['the reviews could not be checked (--require-reviews)'] : [] };
}
