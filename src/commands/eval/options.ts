/**
 * `geo eval` flags, checked before a byte is read or sent (a bad flag costs nothing, exit 2).
 * The request fields every depth shares (effort) are checked again by the batch engine with the
 * same rules the server applies (checkGeolocateRequest).
 */
import type { Depth, Effort } from '../../api/schemas.js';
import { configuredThreshold } from '../../batch/consent.js';
import type { Ctx } from '../../context.js';
import { UsageError } from '../../errors.js';
import { DEFAULT_CORRECT_WITHIN_KM } from '../../eval/metrics.js';
import { fileMode, wholeNumber } from '../../flags.js';
import type { FileMode } from '../../files/own-file.js';
import { checkWritableFile } from '../../files/safe.js';
import type { FrameOptions } from '../../media/frames.js';
import { agreeKmOf, videoOptions } from '../../media/options.js';

export interface EvalSettings {
  inputs: string[];
  /** Ascending, each once. */
  depths: Depth[];
  /** Whether --depth was given (with --from the file's depths are used instead). */
  depthGiven: boolean;
  effort?: Effort;
  truth?: string;
  correctWithinKm: number;
  from?: string;
  fromFile?: string;
  concurrency?: number;
  fresh: boolean;
  downscale: boolean;
  /** --keep-metadata: send the files as they are, EXIF GPS included (the truth the answers are scored against). */
  keepMetadata: boolean;
  dryRun: boolean;
  maxCredits?: number;
  confirmThreshold?: number;
  report?: string;
  /** --file-mode: the report's mode (0600 unless asked). */
  fileMode?: FileMode;
  store: boolean;
  /** --case: the local case each answered image is linked to, with its custody entries. */
  caseRef?: string;
  /** Videos: how frames are chosen, the longest clip, and how close answers agree. */
  video: { frames: FrameOptions; maxDurationMs: number };
  agreeKm: number;
  /** --together: each folder named is one set of photos of one scene. */
  together: boolean;
}

const DEPTH_HINT = 'depths are 1, 2 or 3; several side by side: --depth 1,3';

/** "1,3" or "3" -> [1, 3]; the configured default depth (`geo config set depth`) when absent. */
export function parseDepths(v: string | undefined, configured: string | undefined): Depth[] {
  const text = v ?? configured ?? '1';
  const from = v === undefined && configured !== undefined ? ' (from `geo config set depth`)' : '';
  const parts = text.split(',').map((p) => p.trim());
  const depths = parts.map((p) => {
    if (!/^[123]$/.test(p)) throw new UsageError(`--depth must be 1, 2 or 3 or a list of them, got "${text}"${from}`, DEPTH_HINT);
    return Number(p) as Depth;
  });
  if (new Set(depths).size !== depths.length) throw new UsageError(`--depth names a depth twice: "${text}"`, DEPTH_HINT);
  return depths.sort((a, b) => a - b);
}

function positiveKm(v: unknown): number {
  if (v === undefined) return DEFAULT_CORRECT_WITHIN_KM;
  const s = String(v).trim();
  const n = /^(\d+(\.\d*)?|\.\d+)$/.test(s) ? Number(s) : Number.NaN;
  if (!(n > 0 && n <= 20_040)) throw new UsageError(`--correct-within must be a distance in km above 0 (at most 20040, half the Earth), got "${String(v)}"`, `the default is ${DEFAULT_CORRECT_WITHIN_KM} (city level)`);
  return n;
}


/** The files eval reads that it names: images (or folders), --from, --from-file and --truth. */
export function evalReads(inputs: readonly string[], opts: { from?: unknown; fromFile?: unknown; truth?: unknown }): string[] {
  return [...inputs, ...[opts.from, opts.fromFile, opts.truth].filter((f) => f !== undefined).map(String)];
}

export function parseEval(ctx: Ctx, inputs: string[], opts: Record<string, unknown>): EvalSettings {
  const from = opts.from as string | undefined;
  if (from !== undefined && (inputs.length > 0 || opts.fromFile !== undefined)) {
    throw new UsageError('--from computes from results already received: give no images with it', 'geo eval --from results.ndjson, or geo eval IMAGES to locate them');
  }
  if (from === undefined && inputs.length === 0 && opts.fromFile === undefined) {
    throw new UsageError('no images given', 'name images with a known position (EXIF GPS or --truth FILE), folders, --from-file LIST, or --from results.ndjson');
  }
  if (from !== undefined && (opts.dryRun || opts.maxCredits !== undefined || opts.fresh)) {
    throw new UsageError('--from sends nothing, so --dry-run, --max-credits and --fresh do not apply', 'drop them, or locate the images again with geo eval IMAGES');
  }
  if (opts.together && (from !== undefined || opts.fromFile !== undefined)) {
    throw new UsageError(`--together takes folders, one set of photos each: not ${from !== undefined ? '--from' : '--from-file'}`, 'geo eval scene1/ scene2/ --together --truth truth.csv');
  }
  if (opts.case !== undefined && (from !== undefined || opts.store === false)) {
    throw new UsageError(`--case links the results geo eval stores, which ${from !== undefined ? '--from (nothing is located)' : '--no-store'} leaves none of`, 'drop --case, or link stored results with geo cases link');
  }
  const depthGiven = opts.depth !== undefined;
  const depths = parseDepths(opts.depth as string | undefined, from === undefined ? ctx.config.getDefault('depth') : undefined);
  const maxCredits = wholeNumber(opts.maxCredits, '--max-credits', 0, Number.MAX_SAFE_INTEGER, 'depth costs: 1, 2 or 10 credits per image');
  const concurrency = wholeNumber(opts.concurrency, '--concurrency', 1, 256, 'by default it follows the rate limit and the observed latency');
  const threshold = configuredThreshold(ctx.config.getDefault('confirm_threshold'));
  const mode = fileMode(opts.fileMode);
  // Refused before anything is read or sent: a link, a FIFO, a second name, an input (files/safe.ts).
  if (opts.report !== undefined) checkWritableFile(String(opts.report), 'the report', { inputs: () => evalReads(inputs, opts) });
  return {
    inputs,
    depths,
    depthGiven,
    ...(opts.effort !== undefined ? { effort: String(opts.effort) as Effort } : {}),
    ...(opts.truth !== undefined ? { truth: String(opts.truth) } : {}),
    correctWithinKm: positiveKm(opts.correctWithin),
    ...(from !== undefined ? { from } : {}),
    ...(opts.fromFile !== undefined ? { fromFile: String(opts.fromFile) } : {}),
    ...(concurrency !== undefined ? { concurrency } : {}),
    fresh: Boolean(opts.fresh),
    downscale: Boolean(opts.downscale),
    keepMetadata: Boolean(opts.keepMetadata),
    dryRun: Boolean(opts.dryRun),
    ...(maxCredits !== undefined ? { maxCredits } : {}),
    ...(threshold !== undefined ? { confirmThreshold: threshold } : {}),
    ...(opts.report !== undefined ? { report: String(opts.report) } : {}),
    ...(mode !== undefined ? { fileMode: mode } : {}),
    store: opts.store !== false,
    ...(opts.case !== undefined ? { caseRef: String(opts.case) } : {}),
    video: videoOptions(opts),
    agreeKm: agreeKmOf(opts),
    together: Boolean(opts.together),
  };
}
