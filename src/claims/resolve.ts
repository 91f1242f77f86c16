/**
 * From what a claim says (an image, a place, a tolerance, a time) to a Claim ready to check, or the
 * one problem that keeps it from being checked ("Must show": bad input is one line
 * naming the row, nothing is sent for it, the rest are checked). Everything here is local: the
 * image is looked at (exists, is a regular file, starts like an image geo can send), never read
 * whole; the place is settled in the offline index.
 */
import { stat } from 'node:fs/promises';
import { beginsWithCalendarDate } from '../api/validators.js';
import { MAX_IMAGE_BYTES } from '../api/schemas.js';
import { readFileHead } from '../files/read.js';
import { specialKind } from '../files/safe.js';
import { SNIFF_BYTES, describeNonImage, sniffKind } from '../image/sniff.js';
import { AtProblem, settleAt } from './at.js';
import type { Claim, ClaimProblem, ClaimSource } from './types.js';

export interface ClaimFields extends ClaimSource {
  /** The image as named, and its absolute path. */
  input: string;
  path: string;
  /** The row's own, or undefined to take the default. */
  at?: string;
  within?: string;
  capturedAt?: string;
}

export interface ClaimDefaults {
  /** --at: for rows without one, and for images named on the command line. */
  at?: string;
  /** --within KM. */
  withinKm?: number;
}

/** The largest tolerance: half the Earth's circumference. */
export const MAX_WITHIN_KM = 20_040;

/** "5", "2.5": a tolerance in km (or in the unit `max` is in), or undefined when it is not one. */
export function parseWithin(v: string, max = MAX_WITHIN_KM): number | undefined {
  const s = v.trim();
  const n = /^(\d+(\.\d*)?|\.\d+)$/.test(s) ? Number(s) : Number.NaN;
  return n > 0 && n <= max ? n : undefined;
}

/** Why this file cannot be sent as an image, or undefined when it can. */
export async function imageProblem(path: string): Promise<{ message: string; hint?: string } | undefined> {
  let st;
  try {
    st = await stat(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { message: code === 'ENOENT' ? 'no such file' : `cannot read it (${code ?? 'error'})`, hint: 'paths in a claims file are relative to the file\'s own folder' };
  }
  const kind = specialKind(st);
  if (kind !== undefined) return { message: `${kind}, not an image file`, hint: 'a claim names one image file; folders go on the command line with --at' };
  if (st.size === 0) return { message: 'empty (0 bytes)' };
  if (st.size > MAX_IMAGE_BYTES) return { message: `${st.size.toLocaleString('en-US')} bytes is over the API's 20 MB image limit`, hint: 'geo locate --downscale sends it reduced; check that photo with geo locate' };
  const head = await readFileHead(path, SNIFF_BYTES);
  const image = sniffKind(head);
  if (image === 'unknown') return { message: `not an image (${describeNonImage(head)})` };
  if (image === 'heic') return { message: 'HEIC is not accepted by the API', hint: 'convert it to JPEG first, e.g. heif-convert photo.heic photo.jpg' };
  return undefined;
}

export type ImageCheck = (path: string) => Promise<{ message: string; hint?: string } | undefined>;

/** The claim, or its problem. `checkImage`: imageProblem, or one that remembers (many rows, one image). */
export async function resolveClaim(f: ClaimFields, d: ClaimDefaults, checkImage: ImageCheck = imageProblem): Promise<Claim | ClaimProblem> {
  const src: ClaimSource = { row: f.row, ...(f.file !== undefined ? { file: f.file } : {}), ...(f.line !== undefined ? { line: f.line } : {}) };
  const problem = (message: string, hint?: string): ClaimProblem => ({ ...src, input: f.input, message, ...(hint ? { hint } : {}) });
  const atText = f.at ?? d.at;
  if (atText === undefined) return problem('no place: the row has no at, and no --at was given', 'add an at column (a place name or LAT,LNG), or --at for every row');
  let settled;
  try {
    settled = settleAt(atText);
  } catch (err) {
    if (err instanceof AtProblem) return problem(err.message, err.hint);
    throw err;
  }
  let toleranceKm = settled.toleranceKm;
  let toleranceBasis = settled.toleranceBasis;
  if (f.within !== undefined) {
    const w = parseWithin(f.within);
    if (w === undefined) return problem(`within "${f.within}" is not a distance in km above 0 (at most ${MAX_WITHIN_KM})`, 'for example 25');
    [toleranceKm, toleranceBasis] = [w, 'the row\'s within'];
  } else if (d.withinKm !== undefined) [toleranceKm, toleranceBasis] = [d.withinKm, '--within'];
  if (f.capturedAt !== undefined && !beginsWithCalendarDate(f.capturedAt)) return problem(`captured_at "${f.capturedAt}" does not begin with a real calendar date`, 'YYYY-MM-DD, e.g. 2024-03-05 or 2024-03-05T14:20:00Z');
  const image = await checkImage(f.path);
  if (image) return problem(`${f.input}: ${image.message}`, image.hint);
  // One literal, then the optional members: objects built by spreading got a hidden class each
  // (two V8 maps per claim, 400 bytes; a million rows passed 1 GB).
  const claim: Claim = { row: f.row, input: f.input, path: f.path, at: settled.at, toleranceKm, toleranceBasis };
  if (f.file !== undefined) claim.file = f.file;
  if (f.line !== undefined) claim.line = f.line;
  if (f.capturedAt !== undefined) claim.capturedAt = f.capturedAt;
  return claim;
}

export const isProblem = (c: Claim | ClaimProblem): c is ClaimProblem => 'message' in c;
