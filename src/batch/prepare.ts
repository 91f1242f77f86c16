/**
 * Everything before the plan: which command this is (fresh, rerun, or --resume FILE), its inputs
 * loaded and deduplicated, its request fields checked, and which journal it writes to.
 */
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { RequestValidationError } from '../api/errors.js';
import { type Depth, checkGeolocateRequest } from '../api/schemas.js';
import { UsageError } from '../errors.js';
import { expandInputs } from './inputs.js';
import { type HeadLine, type JournalState, readJournalState } from './journal.js';
import { defaultJournalPath, requestParams } from './plan.js';
import { type FrameInput, type Job, frameJobs, loadJobs, markSet } from './sources.js';
import type { BatchParams } from './types.js';

export interface PrepareInput {
  args: string[];
  fromFile?: string;
  cwd: string;
  stdin: Readable;
  env: Record<string, string | undefined>;
  baseUrl: string;
  /** accountFingerprint of the key (journal head and default journal path); see account.ts. */
  account?: string;
  params: Omit<BatchParams, 'depth'> & { depth?: Depth };
  journal?: string | false;
  resume?: string;
  downscale?: boolean;
  /** --keep-metadata; undefined when not given (a resumed journal then decides). */
  keepMetadata?: boolean;
  /** Images made in memory (a video's frames) instead of files; `args` then names the videos. */
  frames?: FrameInput[];
  /** --together: the inputs are one set (their jobs carry its id). */
  together?: boolean;
}

export interface Prepared {
  jobs: Job[];
  order: Array<{ input: string; id: string }>;
  params: BatchParams;
  skipped: Array<{ path: string; reason: string }>;
  journalPath?: string;
  state?: JournalState;
  /** Where `state` was read when not from journalPath: this command's journal from before account fingerprints. */
  stateFrom?: string;
  head: Omit<HeadLine, 'created'>;
  /** Send the files as they are (--keep-metadata, or a journal written that way). */
  keepMetadata: boolean;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export async function prepareBatch(p: PrepareInput): Promise<Prepared> {
  let args = p.args;
  let fromFile = p.fromFile;
  let cwd = p.cwd;
  let params: BatchParams = { ...p.params, depth: p.params.depth ?? 1 };
  let resumed: JournalState | undefined;
  if (p.resume !== undefined) {
    resumed = await readJournalState(resolve(p.cwd, p.resume));
    if (!resumed?.head) throw new UsageError(`--resume ${p.resume}: not a geo batch journal (or it does not exist)`);
    const h = resumed.head;
    // --resume alone re-runs the journal's own command; inputs given with it must be the same run.
    if (args.length === 0 && fromFile === undefined) ({ args, fromFile, cwd } = h);
    if (p.params.depth === undefined) params = { ...(h.params as unknown as BatchParams) };
    if (!same(requestParams(params), h.params)) {
      throw new UsageError(`--resume ${p.resume}: the journal was written for ${JSON.stringify(h.params)}, not ${JSON.stringify(requestParams(params))}`, 'resume with the same --depth, --effort, --scope and --batch-id, or start a new journal');
    }
  }
  let keepMetadata = p.keepMetadata ?? false;
  // --resume alone follows its journal; old journals (no `metadata`) sent the files as they were.
  if (resumed?.head && p.keepMetadata === undefined) keepMetadata = resumed.head.metadata !== 'removed';
  if (args.length === 0 && fromFile === undefined) throw new UsageError('no inputs given', 'name image files, folders, https URLs, `-`, or --from-file LIST');

  // Every request shares these fields: check them once, so a bad --effort fails before anything is sent.
  const check = checkGeolocateRequest({ image_url: 'https://example.com/placeholder.jpg', ...requestParams(params) });
  if (!check.ok) throw new RequestValidationError(check.problem.code, check.problem.message, check.problem.max_effort, check.problem.field);

  // A video's frames are made in memory (src/media); `args` names the videos, for the journal.
  const expanded = p.frames ? { entries: [], skipped: [] } : await expandInputs(args, { cwd, ...(fromFile !== undefined ? { fromFile } : {}) });
  const loaded = p.frames ? frameJobs(p.frames) : await loadJobs(expanded.entries, { stdin: p.stdin, ...(p.downscale ? { downscale: true } : {}) });
  if (p.together) markSet(loaded.jobs);
  const { jobs, order } = loaded;
  const skipped = [...expanded.skipped, ...loaded.skipped];
  if (order.length === 0) {
    const why = skipped.slice(0, 3).map((s) => `${s.path} ${s.reason}`).join('; ');
    throw new UsageError(`no usable image among the inputs (${skipped.length} skipped: ${why}${skipped.length > 3 ? '; …' : ''})`, 'images are JPEG or PNG (WebP, AVIF, TIFF and GIF are converted)');
  }

  let journalPath: string | undefined;
  let legacyPath: string | undefined;
  if (p.resume !== undefined) journalPath = resolve(p.cwd, p.resume);
  else if (typeof p.journal === 'string') journalPath = resolve(p.cwd, p.journal);
  else if (p.journal !== false) {
    const abs = (a: string) => (a === '-' || /^[a-z][a-z0-9+.-]*:\/\//i.test(a) ? a : resolve(cwd, a));
    const named = { args: args.map(abs), ...(fromFile !== undefined ? { fromFile: abs(fromFile) } : {}) };
    // Removing metadata sends other bytes than before, so it starts its own journal; a journal from
    // before removal existed (and --keep-metadata runs) keep the old path, as they send the same bytes.
    const metadata = keepMetadata ? {} : { metadata: 'removed' };
    journalPath = defaultJournalPath(p.env, { ...named, ...metadata }, params, p.baseUrl, p.account);
    // Before fingerprints the path hashed no account: that journal's keys still replay free (account.ts).
    if (p.account !== undefined && keepMetadata) legacyPath = defaultJournalPath(p.env, named, params, p.baseUrl);
  }
  let state = resumed ?? (journalPath ? await readJournalState(journalPath) : undefined);
  let stateFrom: string | undefined;
  if (!state && legacyPath) {
    state = await readJournalState(legacyPath);
    if (state) stateFrom = legacyPath;
  }
  if (state?.head && p.resume === undefined && !same(state.head.params, requestParams(params))) {
    throw new UsageError(`--journal ${journalPath}: it was written for ${JSON.stringify(state.head.params)}; this run sends ${JSON.stringify(requestParams(params))}`, 'give another --journal file');
  }
  if (state?.head && (state.head.metadata === 'removed') === keepMetadata) {
    const was = keepMetadata ? 'without their metadata' : 'with their metadata (--keep-metadata, or before geo removed it)';
    throw new UsageError(`${journalPath ?? 'the journal'}: its images were sent ${was}; its idempotency keys can only be resent with the same bytes`, keepMetadata ? 'drop --keep-metadata, or give another --journal file' : 'add --keep-metadata to continue it, or give another --journal file');
  }
  return {
    jobs, order, params, skipped,
    ...(journalPath ? { journalPath } : {}),
    ...(state ? { state } : {}),
    ...(stateFrom ? { stateFrom } : {}),
    head: { t: 'head', v: 1, params: requestParams(params), args, ...(fromFile !== undefined ? { fromFile } : {}), cwd, baseUrl: p.baseUrl, ...(p.account !== undefined ? { account: p.account } : {}), ...(keepMetadata ? {} : { metadata: 'removed' as const }) },
    keepMetadata,
  };
}
