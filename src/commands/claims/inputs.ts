/**
 * What `geo claims check` was given, as claims: images (files, folders, globs the
 * shell expanded, sample:NAME) each claimed at --at, and claims files (CSV or NDJSON, told from an
 * image by their first bytes) whose rows name an image and a place each. A row or argument that
 * cannot be checked becomes a problem (one line naming it; nothing is sent for it); the rest are
 * checked. Paths in a claims file are relative to the file's own folder, as in a truth file.
 */
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { expandInputs, isUrlInput } from '../../batch/inputs.js';
import { LARGE_BATCH } from '../../batch/prepare.js';
import { readClaimRows } from '../../claims/file.js';
import { type ClaimDefaults, type ImageCheck, imageProblem, resolveClaim } from '../../claims/resolve.js';
import type { Claim, ClaimProblem } from '../../claims/types.js';
import { UsageError } from '../../errors.js';
import { readFileHead } from '../../files/read.js';
import { expandSamples } from '../../files/samples.js';
import { SNIFF_BYTES, sniffKind } from '../../image/sniff.js';

export interface Gathered {
  /** In the order given: each argument's claims, a claims file's in row order. */
  items: Array<Claim | ClaimProblem>;
  /** Files a folder walk passed over (empty, not an image…), with why. */
  skipped: Array<{ path: string; reason: string }>;
  /** One image named on the command line (a file, not a folder): one object in --json, the rich view on a terminal. */
  single: boolean;
}

/** A file is a claims file when it does not start like an image (CSV and NDJSON are text). */
async function isClaimsFile(path: string): Promise<boolean> {
  const head = await readFileHead(path, SNIFF_BYTES).catch(() => undefined);
  return head !== undefined && head.length > 0 && sniffKind(head) === 'unknown';
}

/**
 * A claims file's rows, read as a stream and appended to `items` as they come: a file of a million
 * rows is never held whole, and never spread into a call's arguments (that overflowed the stack).
 * Each image is looked at once however many rows name it, and its name and path are kept once.
 */
async function claimsFromFile(arg: string, path: string, d: ClaimDefaults & { capturedAt?: string }, o: Required<Pick<GatherOptions, 'confine'>> & GatherOptions, checkImage: ImageCheck, items: Array<Claim | ClaimProblem>): Promise<void> {
  const folder = dirname(path);
  const images = new Map<string, { input: string; path: string }>();
  let rows = 0;
  try {
    for await (const r of readClaimRows(path, arg)) {
      // A large file: V8 keeps its heap small from here on (a million rows --dry-run: 455 MB
      // peak RSS without, 260 MB with, in 12 s instead of 6: bench/claims-memory.mjs).
      if (++rows === LARGE_BATCH) o.frugalMemory?.();
      const src = { row: r.row, file: arg, line: r.line };
      if (r.problem !== undefined) {
        items.push({ ...src, input: r.image ?? '', message: r.problem });
        continue;
      }
      if (r.image === undefined) {
        items.push({ ...src, input: '', message: 'no image: the row\'s image cell is empty' });
        continue;
      }
      let image = images.get(r.image);
      if (image === undefined) {
        // sample:NAME names a photo shipped with geo (the README's examples run as written).
        image = { input: r.image, path: await o.confine(r.image.startsWith('sample:') ? expandSamples([r.image])[0]! : resolve(folder, r.image)) };
        images.set(r.image, image);
      }
      // --captured-at stands for rows without their own, as --at does.
      const capturedAt = r.capturedAt ?? d.capturedAt;
      items.push(await resolveClaim({ ...src, ...image, ...(r.at !== undefined ? { at: r.at } : {}), ...(r.within !== undefined ? { within: r.within } : {}), ...(capturedAt !== undefined ? { capturedAt } : {}) }, d, checkImage));
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (err instanceof UsageError || code === undefined) throw err;
    throw new UsageError(`${arg}: cannot read (${code})`);
  }
  if (rows === 0) throw new UsageError(`${arg}: no claims in it`, 'a header naming image,at and one row per claim');
  // The rows' garbage is left behind before the batch starts.
  if (rows >= LARGE_BATCH) o.frugalMemory?.();
}

/**
 * What may be read (geo mcp --allow-dir): each image path is passed through it before anything
 * reads it, and a refusal (it throws) refuses the whole call. The CLI reads what it is given.
 */
export type Confine = (path: string) => Promise<string>;
const anywhere: Confine = async (p) => p;

export interface GatherOptions {
  /** geo mcp --allow-dir: every image path is vetted before it is read. */
  confine?: Confine;
  /** Runtime.frugalMemory: called once a claims file passes LARGE_BATCH rows, as batches do, and after it is read. */
  frugalMemory?: () => void;
}

export async function gatherClaims(args: readonly string[], d: ClaimDefaults & { capturedAt?: string }, cwd: string, opts: GatherOptions = {}): Promise<Gathered> {
  const confine = opts.confine ?? anywhere;
  const items: Gathered['items'] = [];
  const skipped: Gathered['skipped'] = [];
  let named = 0;
  // Each image is looked at once, however many claims name it.
  const looked = new Map<string, ReturnType<ImageCheck>>();
  const checkImage: ImageCheck = (p) => {
    let r = looked.get(p);
    if (r === undefined) looked.set(p, (r = imageProblem(p)));
    return r;
  };
  const imageClaim = async (input: string, path: string) => {
    if (d.at === undefined) throw new UsageError(`${input}: an image named on the command line needs --at (where it is said to have been taken)`, 'geo claims check photo.jpg --at "Kharkiv, UA", or give a claims file (CSV: image,at)');
    items.push(await resolveClaim({ row: null, input, path: await confine(path), ...(d.capturedAt !== undefined ? { capturedAt: d.capturedAt } : {}) }, d, checkImage));
  };
  for (const arg of args) {
    if (isUrlInput(arg) || arg === '-') throw new UsageError(`${arg}: a claim check reads a local image (its own EXIF GPS is a witness)`, 'download the image first, then geo claims check photo.jpg --at PLACE');
    if (arg.startsWith('sample:')) {
      const ps = expandSamples([arg]);
      if (ps.length === 1) named++;
      for (const p of ps) await imageClaim(ps.length > 1 ? p : arg, p);
      continue;
    }
    const path = resolve(cwd, arg);
    const st = await stat(path).catch(() => undefined);
    if (!st) {
      items.push({ row: null, input: arg, message: `${arg}: no such file or folder` });
      continue;
    }
    if (st.isDirectory()) {
      const found = await expandInputs([arg], { cwd });
      for (const k of found.skipped) skipped.push(k);
      for (const e of found.entries) if (e.kind === 'path') await imageClaim(e.input, e.path);
      continue;
    }
    if (await isClaimsFile(path)) await claimsFromFile(arg, path, d, { ...opts, confine }, checkImage, items);
    else {
      named++;
      await imageClaim(arg, path);
    }
  }
  if (items.length === 0) throw new UsageError('no claims to check', 'geo claims check photo.jpg --at PLACE, or geo claims check claims.csv');
  return { items, skipped, single: named === 1 && args.length === 1 && items.length === 1 };
}
