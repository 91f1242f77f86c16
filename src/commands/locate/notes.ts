/** Lines on stderr shared by the one-image and the many-image output: banner, labels, retries, stops. */
import { basename } from 'node:path';
import type { CopyOf, ReusedFrom } from '../../batch/types.js';
import { reusedSimilarLine } from '../../evidence/copy-events.js';
import type { Ctx } from '../../context.js';
import { stderrText } from '../../output/fit.js';
import { deviationLines } from '../../output/deviations.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { waitEnds } from '../../output/wait-line.js';
import { isUrlInput } from '../../batch/inputs.js';
import { shellQuote } from '../../files/shell.js';

export function note(ctx: Pick<Ctx, 'globals' | 'io'>, line: string): void {
  if (!ctx.globals.quiet) ctx.io.stderr.write(stderrLines(ctx, sanitizeInline(line)) + '\n');
}

/** Text for stderr, wrapped to the terminal when stderr is one (nothing wider than the screen). */
export function stderrLines(ctx: Pick<Ctx, 'io'>, text: string): string {
  return stderrText(ctx.io, text);
}

export const SANDBOX_BANNER = 'sandbox: simulated results, sandbox credits, no real money';

/**
 * The banner, once, as soon as an answer came from the sandbox (its header, not a loopback base
 * URL: that may be a tunnel to the paid service). An answer from the journal sends nothing and
 * shows no banner. Call it on every event; it prints at most once.
 */
export function sandboxBanner(seen: () => boolean, print: (line: string) => void, saidAlready = false): () => void {
  // --sandbox said so already, in context.ts's one line per run.
  let shown = saidAlready;
  return () => {
    if (shown || !seen()) return;
    shown = true;
    print(SANDBOX_BANNER);
  };
}

export function label(input: string): string {
  if (input === '-') return 'stdin';
  if (isUrlInput(input)) return input.length > 48 ? input.slice(0, 47) + '…' : input;
  return basename(input);
}

/** A resend's wait: its reason and its end ("in 3 s", or the clock time for one over 5 s). */
export function retryLine(i: { reason: string; delayMs: number; status?: number }, nowMs: number): string {
  const wait = waitEnds(nowMs + i.delayMs, nowMs);
  switch (i.reason) {
    case 'rate_limited':
      return `rate limited (429); retrying ${wait}`;
    case 'in_progress':
      return `the same request is still running on the server (409); checking again ${wait}`;
    case 'timeout':
      return `no answer in time; retrying ${wait} with the same Idempotency-Key, so it is never charged twice`;
    default:
      return `${i.status ? `the service answered ${i.status}` : `connection problem (${i.reason})`}; retrying ${wait} with the same Idempotency-Key`;
  }
}

/** A batch's start held by the rate limit for more than 5 s (batch/pacer.ts says why, short enough for 80 columns). */
export function waitingLine(e: { untilMs: number; why: string }, nowMs: number): string {
  return `rate limit: waiting ${waitEnds(e.untilMs, nowMs)}: ${e.why}`;
}


/**
 * The exact command that finishes a stopped or interrupted run. The store holds the batch (inputs,
 * request fields; after --fresh, since when) and the claims of the keys already sent, so
 * `--resume ID` replays in-flight requests free. What picks the account and the bytes is not in
 * it, so those flags ride along, and so do the consent already given and --reuse-similar (the
 * copies it chose not to pay for stay unpaid).
 */
export function resumeCommand(ctx: Pick<Ctx, 'globals'>, journal: string, flags: { downscale?: boolean; maxCredits?: number; reuseSimilar?: boolean }, extra: readonly string[] = []): string {
  const g = ctx.globals;
  const words = [
    'geo', ...(g.sandbox ? ['--sandbox'] : []), ...(g.profile !== undefined ? ['--profile', g.profile] : []), ...(g.baseUrl !== undefined ? ['--base-url', g.baseUrl] : []),
    'locate', '--resume', journal, ...extra, ...(flags.downscale ? ['--downscale'] : []), ...(flags.reuseSimilar ? ['--reuse-similar'] : []), ...(flags.maxCredits !== undefined ? ['--max-credits', String(flags.maxCredits)] : []),
    ...(g.yes ? ['--yes'] : []),
  ];
  return words.map(shellQuote).join(' ');
}

export function fromJournalNote(): string {
  return 'from the store, not charged: this exact request was answered before; --fresh to analyse again';
}

/** Answered while another geo process sent the same request (claims). */
export function fromOthersNote(input?: string): string {
  return `${input !== undefined ? `${label(input)}: ` : ''}answered by another geo process that was sending the same request: not charged here`;
}

/**
 * A paid answer the store could not take: it was shown; say so, what it cost, and the
 * key that replays it free (the service keeps a finished key's answer).
 */
export function unstoredLine(input: string, err: { message: string }, credits: number | undefined, key: string | undefined): string {
  const cost = credits === undefined ? '' : credits === 0 ? ' It cost nothing (a replay).' : ` It cost ${credits} credit${credits === 1 ? '' : 's'}.`;
  const again = key ? ` Its idempotency key replays it free: geo locate ${shellQuote(input)} --idempotency-key ${key}` : '';
  return `${label(input)}: the answer above was shown but NOT stored (${err.message}).${cost}${again}`;
}

/** One input answered by a stored result of an earlier command; note() sanitizes the id. */
export function fromResultsNote(r: ReusedFrom, input?: string): string {
  const id = r.analysisId ?? 'no analysis id';
  // Reuse ignores how the file was sent (the same image is never paid twice), so say when that
  // answer saw the photo's metadata: its EXIF check is then no independent witness.
  const how = r.withMetadata ? ', made with the photo\'s metadata sent; --fresh for an independent answer' : '; --fresh to pay again';
  // A colleague's answer on a team store is theirs: said with the role that paid for it.
  const whose = r.paidBy !== undefined ? `from the team's results, paid for by ${r.paidBy}` : 'from your results';
  return `${input !== undefined ? `${label(input)}: ` : ''}located at depth ${r.depth} on ${r.storedAt.slice(0, 10)} (${id}): ${whose}, not charged${how}`;
}

/**
 * A copy of a photo located before: its answer taken from that result (never the service's answer
 * for these bytes), or paid for and linked to it.
 */
export function copyNote(c: CopyOf, input?: string): string {
  const who = input !== undefined ? `${label(input)}: ` : '';
  if (c.reused) return `${who}${reusedSimilarLine(c, label(c.input))}`;
  return `${who}a copy of ${label(c.input)} located before (${c.distance} bit${c.distance === 1 ? '' : 's'} apart): paid for, and linked to it (--reuse-similar takes such answers instead)`;
}

/** The deviation warnings of one answer (output/deviations.ts), through `warn`. */
export function warnDeviations(warn: (line: string) => void, deviations: readonly string[] | undefined, input?: string): void {
  for (const l of deviationLines(deviations, input === undefined ? undefined : label(input))) warn(l);
}

/** Where a paid answer geo could not use is kept, and how to get it again without paying. */
export function keptHint(): string {
  return 'the raw body is kept in the store (geo history); a rerun shows it from there and sends nothing (--fresh sends a new, charged request)';
}

/** A 409 that outlived the deadline: the analysis may still finish, and the same key replays it. */
export function stillRunningHint(resume: string | undefined): string {
  return `the analysis may still finish on the server; ${resume ? `\`${resume}\`` : 'the same command'} replays it free with the same key`;
}

/**
 * A 409 for a different payload: resending the same key cannot help, and the store
 * records it as final. The way out depends on whose key it was: geo's own (an earlier run's claim
 * for this image, or an imported journal's) is replaced by --fresh; one the user gave needs another.
 */
export function keyConflictHint(userKey: boolean): string {
  return userKey
    ? 'an Idempotency-Key names one request: give a new --idempotency-key for this one, or resend exactly the request it was first used for'
    : 'the key is geo\'s own for this image, first sent with other bytes or fields; add --fresh to send this image under a new key (whatever the old key was charged stays charged)';
}
