/**
 * `geo cases review <case> --approve|--request-changes --because TEXT [--key REF]`: a second
 * analyst's review of the case as it stands, signed with the reviewer's own key over its own line
 * (evidence/review-sign.ts), appended as review_made right after the head it covers, then that head
 * signed by the same key (head_signed), so a signed log stays covered. The case must verify first;
 * a review by the key that authored the conclusion in force is refused, and nothing is appended.
 */
import { type HeadSignature, signHead } from '../../batch/case-sign.js';
import { caseLog } from '../../batch/case-custody.js';
import { vouchedOrRefuse } from '../../batch/case-results.js';
import { openSigningKey } from '../../config/signing-keys.js';
import type { Ctx } from '../../context.js';
import { NotVerifiedError, StoreError, UsageError } from '../../errors.js';
import { checkSignatures } from '../../evidence/custody-sign.js';
import { CustodyMovedError, currentActor } from '../../evidence/custody-log.js';
import { type Verdict, checkReviews, reviewMessage } from '../../evidence/review-sign.js';
import { signSshsig } from '../../evidence/sshsig.js';
import { publicKeyLine } from '../../evidence/ssh-key.js';
import { shellQuote } from '../../files/shell.js';
import { render, resolveFormat } from '../../output/render.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { findCase } from '../../store/find.js';
import type { Handler } from '../types.js';
import { words } from './investigation-append.js';

export interface Reviewed {
  case: { id: string; name: string };
  /** The review_made entry, and the head it covers: entry `seq`'s. */
  review: { entry: number; seq: number; head: string; verdict: Verdict; because: string; fingerprint: string; principal: string };
  /** The conclusion in force that was reviewed: its entry, and its author's keys. */
  conclusion: { entry: number; keys: string[] };
  /** The head signed after the review, by the same key (absent: it could not be, said on stderr). */
  signed?: HeadSignature;
}

type ReviewCtx = Pick<Ctx, 'storeApi' | 'now' | 'version' | 'config' | 'vault'>;

const CONCLUDE = (id: string) => `geo cases conclude ${shellQuote(id)} --at PLACE|LAT,LNG --within METRES --confidence confirmed|probable|possible --because TEXT`;

export async function runReview(ctx: ReviewCtx, ref: string, o: { verdict: Verdict; because: string; key?: string }, say: (line: string) => void): Promise<Reviewed> {
  const store = await ctx.storeApi();
  const c = await findCase(store, ref);
  const ev = await vouchedOrRefuse(store, c, 'nothing is reviewed');
  const entries = ev.entries.map((x) => x.e);
  // A review vouches for the log it covers: one whose signatures or reviews do not hold is not reviewed.
  const reviews = checkReviews(entries, {});
  const broken = [...checkSignatures(entries).signatures.filter((s) => !s.ok).map((s) => `entry ${s.entry} (head_signed): ${s.problem}`), ...reviews.failures];
  if (broken.length) throw new NotVerifiedError(`case ${c.id} does not verify, so nothing is reviewed: ${broken[0]}`, `geo cases verify ${c.id} lists what fails`);
  const author = reviews.conclusion;
  if (!author) throw new UsageError(`nothing to review: case ${c.id} has no conclusion yet`, CONCLUDE(c.id));
  const key = await openSigningKey({ config: ctx.config, vault: ctx.vault }, o.key);
  if (author.keys.includes(key.fingerprint)) {
    throw new UsageError(`case ${c.id}: the conclusion at entry ${author.entry} was made with key ${key.fingerprint}, the one you review with: a review is another analyst's, with their own key`, 'ask a colleague to review: geo cases review with their key (geo keys signing use, or --key)');
  }
  if (author.keys.length === 0) say(`warning: the conclusion at entry ${author.entry} names no signing key, so geo cases verify --require-reviews cannot count this review as another's`);
  const last = entries.at(-1)!;
  const sshsig = await signSshsig(reviewMessage(c.id, last.seq, last.hash, o.verdict, o.because), key.signer);
  const review = { verdict: o.verdict, because: o.because, seq: last.seq, head: last.hash, sshsig, fingerprint: key.fingerprint, public_key: publicKeyLine({ key: key.publicKey.key }), principal: key.principal };
  const log = caseLog(store, currentActor(ctx.version, key.fingerprint), ctx.now);
  let entry;
  try {
    // Right after the head it covers, or not at all: what came in meanwhile was not reviewed.
    entry = await log.append(c.id, { event: 'review_made', data: { review } }, { after: last.hash });
  } catch (err) {
    if (!(err instanceof CustodyMovedError)) throw err;
    throw new StoreError(`case ${c.id} changed while it was being reviewed: nothing appended`, 'busy', `geo cases show ${c.id} shows what came in; review again`);
  }
  const out: Reviewed = {
    case: { id: c.id, name: ev.vouch.case.name || c.id },
    review: { entry: entry.seq, seq: last.seq, head: last.hash, verdict: o.verdict, because: o.because, fingerprint: key.fingerprint, principal: key.principal },
    conclusion: author,
  };
  try {
    out.signed = await signHead({ store, version: ctx.version, now: ctx.now, signing: { config: ctx.config, vault: ctx.vault } }, c.id, key);
  } catch (err) {
    say(`custody: the review is appended, but the head after it is not signed: ${err instanceof Error ? err.message : String(err)}; geo cases sign ${c.id}${o.key ? ` --key ${shellQuote(o.key)}` : ''} signs it`);
  }
  return out;
}

/** --approve or --request-changes (one), and --because: words, not nothing. */
function verdictOf(opts: Record<string, unknown>): { verdict: Verdict; because: string } {
  const hint = 'geo cases review CASE --approve --because "checked the shadows and the skyline" (or --request-changes --because …)';
  if (Boolean(opts.approve) === Boolean(opts.requestChanges)) throw new UsageError(opts.approve ? 'give --approve or --request-changes, not both' : 'a review needs a verdict: --approve or --request-changes', hint);
  const because = words('--because', typeof opts.because === 'string' ? opts.because : undefined, 'the shadows and the skyline match the street view of 12 May');
  // Hashed into the signed line as UTF-8: a lone surrogate has no UTF-8 form that every tool agrees on.
  if (Buffer.from(because, 'utf8').toString('utf8') !== because) throw new UsageError('--because holds text that is not valid Unicode (a lone surrogate)', hint);
  return { verdict: opts.approve ? 'approve' : 'request_changes', because };
}

export const review: Handler = async (ctx, args, opts) => {
  resolveFormat(ctx, ['table', 'json']);
  const v = verdictOf(opts);
  const say = (line: string) => ctx.io.stderr.write(`${sanitizeInline(line)}\n`);
  const res = await runReview(ctx, args[0] as string, { ...v, ...(typeof opts.key === 'string' ? { key: opts.key } : {}) }, say);
  const r = res.review;
  const id = shellQuote(sanitizeInline(res.case.id));
  const human = () => [
    `reviewed case ${sanitizeInline(res.case.id)} (${sanitizeInline(res.case.name)}): entry ${r.entry} ${r.verdict === 'approve' ? 'approves' : 'requests changes to'} the conclusion of entry ${res.conclusion.entry}, as the case stood at entry ${r.seq}`,
    `  because   ${sanitizeInline(r.because)}`,
    `  reviewer  ${sanitizeInline(r.principal)}, key ${r.fingerprint}`,
    `  head      ${r.head}`,
    ...(res.signed ? [`  signed    entry ${res.signed.entry} signs the head of entry ${res.signed.seq}`] : []),
    '  stale     once anything but a signature, a stamp, a file or another review is appended',
    `  check     geo cases verify ${id} --require-reviews 1 --allowed-signers allowed_signers`,
  ].join('\n');
  await render(ctx, { data: res, human }, ['table', 'json']);
};
