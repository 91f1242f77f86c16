/**
 * `geo claims check` flags, checked before a byte is read or sent (a bad flag costs nothing, exit 2).
 * --at is settled here too when given (an unknown or ambiguous place, or coordinates out of range,
 * stops the run before anything is read), so a typo in the one place of a folder's claims is one
 * line, not one per image.
 */
import type { Depth } from '../../api/schemas.js';
import { beginsWithCalendarDate } from '../../api/validators.js';
import { configuredThreshold } from '../../batch/consent.js';
import { AtProblem, settleAt } from '../../claims/at.js';
import { MAX_WITHIN_KM, parseWithin } from '../../claims/resolve.js';
import type { Ctx } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { FileMode } from '../../files/own-file.js';
import { checkWritableFile } from '../../files/safe.js';
import { fileMode, wholeNumber } from '../../flags.js';

export interface ClaimsSettings {
  args: string[];
  at?: string;
  withinKm?: number;
  capturedAt?: string;
  depth: Depth;
  scoped: boolean;
  dryRun: boolean;
  fresh: boolean;
  /** false (--no-store): new answers are kept for their claims only, not listed in history. */
  store: boolean;
  concurrency?: number;
  maxCredits?: number;
  confirmThreshold?: number;
  /** --fail-on contradicts: exit 9 when any claim is contradicted. */
  failOn?: 'contradicts';
  report?: string;
  /** --file-mode: the report's mode (0600 unless asked). */
  fileMode?: FileMode;
  /** --case: each answer linked to this local case, and each check logged as claim_checked. */
  caseRef?: string;
}

const FAIL_ON = ['contradicts'] as const;

function parseDepth(v: unknown, configured: string | undefined): Depth {
  const text = v !== undefined ? String(v) : (configured ?? '1');
  const from = v === undefined && configured !== undefined ? ' (from `geo config set depth`)' : '';
  if (!/^[123]$/.test(text.trim())) throw new UsageError(`--depth must be 1, 2 or 3, got "${text}"${from}`, 'depth 3 (10 credits) lists the candidates a contradiction must rule out');
  return Number(text.trim()) as Depth;
}

export function parseClaims(ctx: Pick<Ctx, 'config'>, args: string[], opts: Record<string, unknown>): ClaimsSettings {
  if (args.length === 0) throw new UsageError('no claims given', 'geo claims check photo.jpg --at "Kharkiv, UA", or geo claims check claims.csv');
  const at = opts.at === undefined ? undefined : String(opts.at);
  if (at !== undefined) {
    try {
      settleAt(at);
    } catch (err) {
      if (err instanceof AtProblem) throw new UsageError(`--at ${err.message}`, err.hint);
      throw err;
    }
  }
  let withinKm: number | undefined;
  if (opts.within !== undefined) {
    withinKm = parseWithin(String(opts.within));
    if (withinKm === undefined) throw new UsageError(`--within must be a distance in km above 0 (at most ${MAX_WITHIN_KM}), got "${String(opts.within)}"`, 'by default a place\'s extent from the offline index, a point 1 km');
  }
  const capturedAt = opts.capturedAt === undefined ? undefined : String(opts.capturedAt);
  if (capturedAt !== undefined && !beginsWithCalendarDate(capturedAt)) throw new UsageError(`--captured-at must begin with a real calendar date, got "${capturedAt}"`, 'YYYY-MM-DD, e.g. 2024-03-05');
  const failOn = opts.failOn === undefined ? undefined : String(opts.failOn);
  if (failOn !== undefined && !(FAIL_ON as readonly string[]).includes(failOn)) throw new UsageError(`--fail-on takes ${FAIL_ON.join(', ')}, got "${failOn}"`, '--fail-on contradicts exits 9 when any claim is contradicted');
  if (opts.case !== undefined && opts.store === false) throw new UsageError('--case keeps its results in the store, which --no-store keeps them out of', 'drop --no-store, or --case');
  const maxCredits = wholeNumber(opts.maxCredits, '--max-credits', 0, Number.MAX_SAFE_INTEGER, 'depth costs: 1, 2 or 10 credits per image (and per claimed place with --scoped)');
  const concurrency = wholeNumber(opts.concurrency, '--concurrency', 1, 256, 'by default it follows the rate limit and the observed latency');
  const report = opts.report === undefined ? undefined : String(opts.report);
  // Refused before anything is read or sent: a link, a FIFO, a second name, an argument (the
  // images a claims file names are checked once it is read: handler.ts).
  if (report !== undefined) checkWritableFile(report, 'the report', { inputs: () => args });
  const mode = fileMode(opts.fileMode);
  const threshold = configuredThreshold(ctx.config.getDefault('confirm_threshold'));
  return {
    args,
    ...(at !== undefined ? { at } : {}),
    ...(withinKm !== undefined ? { withinKm } : {}),
    ...(capturedAt !== undefined ? { capturedAt } : {}),
    depth: parseDepth(opts.depth, ctx.config.getDefault('depth')),
    scoped: Boolean(opts.scoped),
    dryRun: Boolean(opts.dryRun),
    fresh: Boolean(opts.fresh),
    store: opts.store !== false,
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(maxCredits !== undefined ? { maxCredits } : {}),
    ...(threshold !== undefined ? { confirmThreshold: threshold } : {}),
    ...(failOn !== undefined ? { failOn: failOn as 'contradicts' } : {}),
    ...(report !== undefined ? { report } : {}),
    ...(mode !== undefined ? { fileMode: mode } : {}),
    ...(opts.case !== undefined ? { caseRef: String(opts.case) } : {}),
  };
}
