/**
 * The signatures, timestamps and reviews sections of `geo cases verify`, the same for a local
 * case and a bundle: one summary row each, then one row per signature or token saying who or
 * which authority, which key or CA, and how far it is trusted. Principals, URLs and subjects come
 * from the log or a bundle (anyone's bytes): renderKv sanitizes them.
 */
import type { SignatureCheck, SignaturesSection } from '../../evidence/custody-sign.js';
import type { TimestampCheck, TimestampsSection } from '../../evidence/custody-stamps.js';
import type { ReviewCheck, ReviewsSection } from '../../evidence/review-sign.js';
import type { KvInput } from '../kv.js';
import type { ViewOpts } from '../render.js';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const TRUST: Record<SignatureCheck['trust'], string> = {
  allowed: 'in your allowed_signers',
  bundle: "listed in the bundle's allowed_signers (the signer's own word: check the key)",
  unlisted: 'valid signature by an unlisted key',
};

function signatureLine(s: SignatureCheck, view: ViewOpts): string | { drawn: string } {
  if (!s.ok) return { drawn: view.style.red(`✗ entry ${s.entry}: ${s.problem ?? 'does not hold'}`) };
  const who = s.principal ? `${s.principal}, ` : '';
  if (s.trust === 'unlisted') return `✓ entry ${s.entry} signs entry ${s.seq}: ${TRUST.unlisted} ${s.fingerprint}${s.principal ? ` (says ${s.principal})` : ''}`;
  return `✓ entry ${s.entry} signs entry ${s.seq}: ${who}key ${s.fingerprint}, ${TRUST[s.trust]}`;
}

export function signatureRows(sig: SignaturesSection, view: ViewOpts): KvInput[] {
  if (!sig.checked) return [['signatures', 'not checked (the custody log could not be read)']];
  if (!sig.signed) return [['signatures', sig.required ? { drawn: view.style.red('none: the custody log is not signed (--require-signature)') } : 'none: the custody log is not signed (geo cases sign)']];
  const valid = sig.signatures.filter((s) => s.ok).length;
  const counting = sig.counting === 'allowed-signers' ? 'keys of your allowed_signers count' : 'any valid key counts: --allowed-signers FILE to count only yours';
  const head = `${valid} of ${plural(sig.signatures.length, 'signature')} valid; ${sig.covered ? `entries 1 to ${sig.covered} covered` : 'no entry covered'} (${counting})`;
  return [['signatures', sig.ok ? head : { drawn: view.style.red(head) }], ...sig.signatures.map((s): KvInput => ['', signatureLine(s, view)])];
}

/** What a token of `geo sandbox`'s test authority is worth, said wherever one is shown. */
export const SANDBOX_TIME = "sandbox time: geo sandbox's test authority, not evidence";

function stampLine(t: TimestampCheck, view: ViewOpts): string | { drawn: string } {
  if (!t.ok) return { drawn: view.style.red(`✗ entry ${t.entry}: ${t.problem ?? 'does not hold'}`) };
  const under = t.trust === 'tsa-ca' ? 'under your --tsa-ca' : 'under the CA pinned at stamp time (--tsa-ca FILE to use yours)';
  return `✓ entry ${t.entry}: the head of entry ${t.seq} existed by ${t.gen_time}, says ${t.authority} (${t.tsa}), ${under}${t.sandbox ? `; ${SANDBOX_TIME}` : ''}`;
}

export function timestampRows(ts: TimestampsSection, view: ViewOpts): KvInput[] {
  const pending = ts.pending ? `; ${plural(ts.pending, 'request')} pending (geo cases stamp --pending)` : '';
  if (!ts.checked) return [['timestamps', 'not checked (the custody log could not be read)']];
  if (!ts.stamped) return [['timestamps', ts.required ? { drawn: view.style.red(`none (--require-timestamp)${pending}`) } : `none (geo cases stamp)${pending}`]];
  const good = ts.stamps.filter((t) => t.ok).length;
  const sandbox = ts.stamps.filter((t) => t.ok && t.sandbox).length;
  const head = `${good} of ${plural(ts.stamps.length, 'trusted timestamp')} valid${sandbox ? ` (${sandbox === good ? (good === 1 ? 'it is' : 'all are') : `${sandbox} are`} sandbox time)` : ''}${pending}`;
  return [['timestamps', ts.ok ? head : { drawn: view.style.red(head) }], ...ts.stamps.map((t): KvInput => ['', stampLine(t, view)])];
}

function reviewLine(r: ReviewCheck, view: ViewOpts): string | { drawn: string } {
  if (!r.ok) return { drawn: view.style.red(`✗ entry ${r.entry}: ${r.problem ?? 'does not hold'}`) };
  const trust = r.trust === 'unlisted' ? 'in no allowed_signers' : TRUST[r.trust];
  const verdict = r.verdict === 'approve' ? 'approves' : 'requests changes';
  const state = r.stale_by ? `stale: entry ${r.stale_by.entry} (${r.stale_by.event}) came after it` : `current (over entry ${r.seq})`;
  const line = `${r.counts ? '✓' : '-'} entry ${r.entry} ${verdict}: ${r.principal ? `${r.principal}, ` : ''}key ${r.fingerprint}, ${trust}; ${state}`;
  return r.counts ? line : { drawn: view.style.dim(line) };
}

export function reviewRows(rv: ReviewsSection, view: ViewOpts): KvInput[] {
  if (!rv.checked) return [['reviews', 'not checked (the custody log could not be read)']];
  const required = rv.required ? `, ${rv.required} required` : '';
  // A case with nothing to review yet (no conclusion, no review, none required) says nothing of reviews.
  if (rv.reviews.length === 0 && !rv.conclusion && rv.ok) return [];
  if (rv.reviews.length === 0) return [['reviews', rv.ok ? 'none (geo cases review)' : { drawn: view.style.red(`none${required}`) }]];
  const current = rv.reviews.filter((r) => r.ok && !r.stale_by).length;
  const keys = rv.counting === 'allowed-signers' ? 'a key of your allowed_signers' : 'any valid key';
  const of = rv.conclusion ? `approving the conclusion of entry ${rv.conclusion.entry} with ${keys} but its author's` : 'no conclusion to approve';
  const head = `${plural(rv.reviews.length, 'review')}, ${current} current; ${plural(rv.approvals, 'approval')} counted (current, ${of})${required}`;
  return [['reviews', rv.ok ? head : { drawn: view.style.red(head) }], ...rv.reviews.map((r): KvInput => ['', reviewLine(r, view)])];
}
