/**
 * Everything before the plan: which command this is (new, rerun, or --resume of a batch or a
 * journal file), its inputs loaded and deduplicated, its request fields checked, and its batch id
 * (the store keeps its head, so `--resume ID` can run it again).
 */
import { lstatSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { RequestValidationError } from '../api/errors.js';
import { type Depth, checkGeolocateRequest } from '../api/schemas.js';
import { UsageError } from '../errors.js';
import { checkReadableInput, checkWritableFile } from '../files/safe.js';
import type { StoreApi } from '../store/index.js';
import { journalForAccount } from './account.js';
import { expandInputs, isUrlInput } from './inputs.js';
import { type HeadLine, parseJournal } from './journal.js';
import { batchId, requestParams } from './plan.js';
import { type FrameInput, type Job, frameJobs, loadJobs, markSet } from './sources.js';
import type { BatchParams } from './types.js';
import { FetchedFiles } from './url-inputs.js';

export interface PrepareInput {
  args: string[];
  fromFile?: string;
  cwd: string;
  stdin: Readable;
  env: Record<string, string | undefined>;
  baseUrl: string;
  /** accountFingerprint of the key (batch head and id); see account.ts. */
  account?: string;
  params: Omit<BatchParams, 'depth'> & { depth?: Depth };
  /** --journal FILE: the batch is written there too (and continues what it holds). */
  journal?: string | false;
  /** --resume FILE or ID. */
  resume?: string;
  downscale?: boolean;
  /** --keep-metadata; undefined when not given (a resumed batch then decides). */
  keepMetadata?: boolean;
  /** --service-fetch: URLs go as image_url; undefined when not given (geo fetches them, or a resumed batch decides). */
  serviceFetch?: boolean;
  /** The clock a fetch's retrieval time is read from (default Date.now), and the run's cancel. */
  now?: () => number;
  signal?: AbortSignal;
  fresh?: boolean;
  store: StoreApi;
  /** Images made in memory (a video's frames) instead of files; `args` then names the videos. */
  frames?: FrameInput[];
  /** --together: the inputs are one set (their jobs carry its id). */
  together?: boolean;
  /** Called when the inputs number LARGE_BATCH or more: once they are listed, and once they are loaded (Runtime.frugalMemory). */
  frugalMemory?: () => void;
  /** Files the command writes after the run (--report): refused before anything is sent if one is an input. */
  writes?: ReadonlyArray<{ path: string; what: string }>;
}

/**
 * From this many inputs on, V8 is asked to keep its heap small and to collect it between phases
 * (Runtime.frugalMemory, api/v8-tuning.ts): without that, 100,000 inputs --dry-run peaked at 300
 * MB on Node 20 (the memory budget is 200 MB). The cost is a few collections of tens of milliseconds.
 */
export const LARGE_BATCH = 10_000;

export interface Prepared {
  jobs: Job[];
  /** Each input's job id, in input order (a duplicate names its job again): the order records come out in. */
  order: string[];
  params: BatchParams;
  skipped: Array<{ path: string; reason: string }>;
  /** The batch's id in the store. */
  batch: string;
  /** --journal FILE (or the --resume FILE): the NDJSON copy of the batch. */
  journalPath?: string;
  head: Omit<HeadLine, 'created'>;
  /** Send the files as they are (--keep-metadata, or a batch written that way). */
  keepMetadata: boolean;
  /** A resumed --fresh batch: only answers since this time (ms) are its own. */
  since?: number;
  notice?: string;
  /** The photos this run fetched, as files of its own: removed when the run ends (url-inputs.ts). */
  fetchedFiles: FetchedFiles;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

const HEX_ID = /^[0-9a-f]{6,64}$/i;

/** A journal file's text, refusing what is not a regular file (a FIFO would block forever). */
function readJournalFile(path: string, shown: string): string | undefined {
  let st;
  try {
    st = statSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(`${shown}: cannot read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (st.isDirectory()) throw new UsageError(`${shown} is a folder, not a journal file`, 'give a file name, e.g. --journal case42.ndjson');
  checkReadableInput(path, shown, st);
  return readFileSync(path, 'utf8');
}

/** The head of `--resume X`: a journal file (its keys and answers imported into the store), or a batch id. */
async function resumedHead(p: PrepareInput): Promise<{ head: HeadLine; batch?: string; file?: string }> {
  const x = p.resume!;
  const file = resolve(p.cwd, x);
  const text = readJournalFile(file, `--resume ${x}`);
  if (text !== undefined) {
    const head = parseJournal(text).head;
    if (!head) throw new UsageError(`--resume ${x}: not a geo batch journal`, 'give a file that --journal wrote, or a batch id from the resume hint');
    return { head, file };
  }
  if (HEX_ID.test(x)) {
    const found = await p.store.findBatches(x);
    if (found.length > 1 && !found.some((b) => b.id === x.toLowerCase())) throw new UsageError(`--resume ${x}: ${found.length} batches start with it`, `use more characters: ${found.map((b) => b.id.slice(0, 12)).join(', ')}`);
    const b = found.find((f) => f.id === x.toLowerCase()) ?? found[0];
    if (b) return { head: b.head as unknown as HeadLine, batch: b.id };
  }
  throw new UsageError(`--resume ${x}: no such journal file or batch`, 'the resume hint names the batch (`geo locate --resume ID`); a --journal FILE works too');
}

/** The head `--resume X` names (a journal file or a batch id), or undefined when it names none. */
export async function resumedHeadOf(store: StoreApi, cwd: string, resume: string): Promise<HeadLine | undefined> {
  try {
    return (await resumedHead({ store, cwd, resume } as PrepareInput)).head;
  } catch {
    return undefined;
  }
}

/**
 * How URL inputs are read: as --service-fetch says, else as the batch being continued read them
 * (a journal from before geo fetched URLs sent them as image_url). A continued batch's keys can only
 * be resent with the same request, so the flag may not go against it.
 */
function serviceFetches(flag: boolean | undefined, h: HeadLine | undefined, fresh: boolean, where: string): boolean {
  const was = h?.fetch ?? (h?.args.some(isUrlInput) ? 'service' : undefined);
  if (flag === undefined) return was === 'service';
  if (was !== undefined && !fresh && (was === 'service') !== flag) {
    throw new UsageError(`${where}: its URLs were ${was === 'service' ? 'sent for the service to fetch' : 'fetched by geo'}; its idempotency keys can only be resent the same way`, was === 'service' ? 'add --service-fetch to continue it' : 'drop --service-fetch to continue it');
  }
  return flag;
}

export async function prepareBatch(p: PrepareInput): Promise<Prepared> {
  // Nothing is made until a URL is fetched; whatever was, goes if the batch is refused.
  const files = new FetchedFiles({ now: p.now ?? (() => Date.now()), ...(p.signal ? { signal: p.signal } : {}), ...(p.downscale ? { downscale: true } : {}) });
  try {
    return await prepareWith(p, files);
  } catch (err) {
    await files.remove();
    throw err;
  }
}

async function prepareWith(p: PrepareInput, files: FetchedFiles): Promise<Prepared> {
  let args = p.args;
  let fromFile = p.fromFile;
  let cwd = p.cwd;
  let params: BatchParams = { ...p.params, depth: p.params.depth ?? 1 };
  let keepMetadata = p.keepMetadata ?? false;
  let resumed: Awaited<ReturnType<typeof resumedHead>> | undefined;
  let notice: string | undefined;
  if (p.resume !== undefined) {
    resumed = await resumedHead(p);
    const h = resumed.head;
    ({ notice } = journalForAccount(h, p.account, p.resume, Boolean(p.fresh)));
    // --resume alone re-runs the batch's own command; inputs given with it must be the same run.
    if (args.length === 0 && fromFile === undefined) ({ args, fromFile, cwd } = h);
    if (p.params.depth === undefined) params = { ...(h.params as unknown as BatchParams) };
    if (!same(requestParams(params), h.params)) {
      throw new UsageError(`--resume ${p.resume}: it was written for ${JSON.stringify(h.params)}, not ${JSON.stringify(requestParams(params))}`, 'resume with the same --depth, --effort, --scope and --batch-id, or start a new batch');
    }
    // --resume alone follows its batch; old journals (no `metadata`) sent the files as they were.
    if (p.keepMetadata === undefined) keepMetadata = h.metadata !== 'removed';
  }
  if (args.length === 0 && fromFile === undefined) throw new UsageError('no inputs given', 'name image files, folders, https URLs, `-`, or --from-file LIST');

  // Every request shares these fields: check them once, so a bad --effort fails before anything is sent.
  const check = checkGeolocateRequest({ image_url: 'https://example.com/placeholder.jpg', ...requestParams(params) });
  if (!check.ok) throw new RequestValidationError(check.problem.code, check.problem.message, check.problem.max_effort, check.problem.field);

  // --journal FILE: checked before a single input is read (a folder, a link, a FIFO, a file with a
  // second name or one of the inputs named is refused: files/safe.ts).
  const namedPaths = () => [...args, ...(fromFile !== undefined ? [fromFile] : [])].filter((a) => a !== '-' && !isUrlInput(a)).map((a) => resolve(cwd, a));
  let journalPath = resumed?.file;
  let journalText: string | undefined;
  if (typeof p.journal === 'string') {
    journalPath = resolve(p.cwd, p.journal);
    if (lstatSync(journalPath, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--journal ${p.journal} is a folder, not a journal file`, 'give a file name, e.g. --journal case42.ndjson');
    checkWritableFile(journalPath, 'the journal', { inputs: namedPaths });
    journalText = readJournalFile(journalPath, `--journal ${p.journal}`);
  }
  const fileHead = journalText !== undefined ? parseJournal(journalText).head : undefined;
  const serviceFetch = serviceFetches(p.serviceFetch, resumed?.head ?? fileHead, Boolean(p.fresh), journalPath ?? `--resume ${p.resume}`);

  // A video's frames are made in memory (src/media); `args` names the videos, for the batch's head.
  const expanded = p.frames ? { entries: [], skipped: [] } : await expandInputs(args, { cwd, ...(fromFile !== undefined ? { fromFile } : {}) });
  // What the run writes is none of what it reads, the files found in folders included.
  const read = () => [...namedPaths(), ...expanded.entries.flatMap((e) => (e.kind === 'path' ? [resolve(cwd, e.path)] : []))];
  for (const w of [...(p.writes ?? []), ...(journalPath ? [{ path: journalPath, what: 'the journal' }] : [])]) checkWritableFile(w.path, w.what, { inputs: read });
  const urls = expanded.entries.some((e) => e.kind === 'url');
  const large = expanded.entries.length >= LARGE_BATCH;
  if (large) p.frugalMemory?.();
  // Files hashed before (same path, inode, size, mtime and ctime) are not read again.
  const hashes = await p.store.fileHashCache(expanded.entries.flatMap((e) => (e.kind === 'path' ? [e.path] : [])));
  const loaded = p.frames ? frameJobs(p.frames) : await loadJobs(expanded.entries, { stdin: p.stdin, hashes, ...(p.downscale ? { downscale: true } : {}), ...(serviceFetch ? {} : { fetch: files }) });
  await hashes.flush();
  if (large) p.frugalMemory?.();
  if (p.together) markSet(loaded.jobs);
  const { jobs, order } = loaded;
  const skipped = [...expanded.skipped, ...loaded.skipped];
  if (order.length === 0) {
    const why = skipped.slice(0, 3).map((s) => `${s.path} ${s.reason}`).join('; ');
    throw new UsageError(`no usable image among the inputs (${skipped.length} skipped: ${why}${skipped.length > 3 ? '; …' : ''})`, 'images are JPEG or PNG (WebP, AVIF, TIFF and GIF are converted)');
  }

  const abs = (a: string) => (a === '-' || /^[a-z][a-z0-9+.-]*:\/\//i.test(a) ? a : resolve(cwd, a));
  const named = { args: args.map(abs), ...(fromFile !== undefined ? { fromFile: abs(fromFile) } : {}) };
  // Removing metadata sends other bytes than before, so it is another batch.
  const batch = resumed?.batch ?? batchId({ ...named, ...(keepMetadata ? {} : { metadata: 'removed' }) }, params, p.baseUrl, p.account);

  if (journalText !== undefined && !fileHead && journalText.trim() !== '') throw new UsageError(`--journal ${p.journal}: not a geo batch journal`, 'give a new file name, or a file --journal wrote');
  if (fileHead && !p.fresh) {
    journalForAccount(fileHead, p.account, journalPath!, false);
    if (!same(fileHead.params, requestParams(params))) throw new UsageError(`--journal ${journalPath}: it was written for ${JSON.stringify(fileHead.params)}; this run sends ${JSON.stringify(requestParams(params))}`, 'give another --journal file');
  }
  const h = resumed?.head ?? fileHead;
  if (h && !p.fresh && (h.metadata === 'removed') === keepMetadata) {
    const was = keepMetadata ? 'without their metadata' : 'with their metadata (--keep-metadata, or before geo removed it)';
    throw new UsageError(`${journalPath ?? `batch ${batch}`}: its images were sent ${was}; its idempotency keys can only be resent with the same bytes`, keepMetadata ? 'drop --keep-metadata to continue it' : 'add --keep-metadata to continue it');
  }
  // A journal file's keys and answers join the store, so its in-flight keys are resent, not replaced.
  const fileText = journalText ?? (resumed?.file ? readFileSync(resumed.file, 'utf8') : undefined);
  if (fileText !== undefined && journalPath && !p.fresh && parseJournal(fileText).head) await p.store.importJournal(journalPath, fileText, batch);

  const freshSince = resumed && !p.fresh ? Date.parse(resumed.head.fresh_since ?? '') : Number.NaN;
  return {
    jobs, order, params, skipped, batch,
    ...(journalPath ? { journalPath } : {}),
    head: {
      t: 'head', v: 1, params: requestParams(params), args, ...(fromFile !== undefined ? { fromFile } : {}), cwd, baseUrl: p.baseUrl,
      ...(p.account !== undefined ? { account: p.account } : {}), ...(keepMetadata ? {} : { metadata: 'removed' as const }),
      ...(urls ? { fetch: serviceFetch ? ('service' as const) : ('geo' as const) } : {}),
      ...(resumed?.head.fresh_since && !p.fresh ? { fresh_since: resumed.head.fresh_since } : {}),
    },
    keepMetadata,
    ...(Number.isFinite(freshSince) ? { since: freshSince } : {}),
    ...(notice ? { notice } : {}),
    fetchedFiles: files,
  };
}
