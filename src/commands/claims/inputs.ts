/**
 * What `geo claims check` was given, as claims: images (files, folders, globs the
 * shell expanded, sample:NAME) each claimed at --at, and claims files (CSV or NDJSON, told from an
 * image by their first bytes) whose rows name an image and a place each. A row or argument that
 * cannot be checked becomes a problem (one line naming it; nothing is sent for it); the rest are
 * checked. Paths in a claims file are relative to the file's own folder, as in a truth file.
 */
import { readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { expandInputs, isUrlInput } from '../../batch/inputs.js';
import { parseClaimsText } from '../../claims/file.js';
import { type ClaimDefaults, resolveClaim } from '../../claims/resolve.js';
import type { Claim, ClaimProblem } from '../../claims/types.js';
import { UsageError } from '../../errors.js';
import { readFileHead } from '../../files/read.js';
import { expandSamples } from '../../files/samples.js';
import { SNIFF_BYTES, sniffKind } from '../../image/sniff.js';

export interface Gathered {
  /** In the order given: each argument's claims, a claims file's in row order. */
  items: Array<Claim | ClaimProblem>;
  /** Files a folder walk passed over (HEIC…), with why. */
  skipped: Array<{ path: string; reason: string }>;
  /** One image named on the command line (a file, not a folder): one object in --json, the rich view on a terminal. */
  single: boolean;
}

/** A file is a claims file when it does not start like an image (CSV and NDJSON are text). */
async function isClaimsFile(path: string): Promise<boolean> {
  const head = await readFileHead(path, SNIFF_BYTES).catch(() => undefined);
  return head !== undefined && head.length > 0 && sniffKind(head) === 'unknown';
}

async function claimsFromFile(arg: string, path: string, d: ClaimDefaults & { capturedAt?: string }, confine: Confine): Promise<Array<Claim | ClaimProblem>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new UsageError(`${arg}: cannot read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const folder = dirname(path);
  const out: Array<Claim | ClaimProblem> = [];
  for (const r of parseClaimsText(text, arg)) {
    const src = { row: r.row, file: arg, line: r.line };
    if (r.problem !== undefined) {
      out.push({ ...src, input: r.image ?? '', message: r.problem });
      continue;
    }
    if (r.image === undefined) {
      out.push({ ...src, input: '', message: 'no image: the row\'s image cell is empty' });
      continue;
    }
    // sample:NAME names a photo shipped with geo (the README's examples run as written).
    const image = await confine(r.image.startsWith('sample:') ? expandSamples([r.image])[0]! : resolve(folder, r.image));
    // --captured-at stands for rows without their own, as --at does.
    const capturedAt = r.capturedAt ?? d.capturedAt;
    out.push(await resolveClaim({ ...src, input: r.image, path: image, ...(r.at !== undefined ? { at: r.at } : {}), ...(r.within !== undefined ? { within: r.within } : {}), ...(capturedAt !== undefined ? { capturedAt } : {}) }, d));
  }
  if (out.length === 0) throw new UsageError(`${arg}: no claims in it`, 'a header naming image,at and one row per claim');
  return out;
}

/**
 * What may be read (geo mcp --allow-dir): each image path is passed through it before anything
 * reads it, and a refusal (it throws) refuses the whole call. The CLI reads what it is given.
 */
export type Confine = (path: string) => Promise<string>;
const anywhere: Confine = async (p) => p;

export async function gatherClaims(args: readonly string[], d: ClaimDefaults & { capturedAt?: string }, cwd: string, confine: Confine = anywhere): Promise<Gathered> {
  const items: Gathered['items'] = [];
  const skipped: Gathered['skipped'] = [];
  let named = 0;
  const imageClaim = async (input: string, path: string) => {
    if (d.at === undefined) throw new UsageError(`${input}: an image named on the command line needs --at (where it is said to have been taken)`, 'geo claims check photo.jpg --at "Kharkiv, UA", or give a claims file (CSV: image,at)');
    items.push(await resolveClaim({ row: null, input, path: await confine(path), ...(d.capturedAt !== undefined ? { capturedAt: d.capturedAt } : {}) }, d));
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
      skipped.push(...found.skipped);
      for (const e of found.entries) if (e.kind === 'path') await imageClaim(e.input, e.path);
      continue;
    }
    if (await isClaimsFile(path)) items.push(...(await claimsFromFile(arg, path, d, confine)));
    else {
      named++;
      await imageClaim(arg, path);
    }
  }
  if (items.length === 0) throw new UsageError('no claims to check', 'geo claims check photo.jpg --at PLACE, or geo claims check claims.csv');
  return { items, skipped, single: named === 1 && args.length === 1 && items.length === 1 };
}
