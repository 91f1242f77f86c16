/**
 * A model of known skill: `geo sandbox --truth FILE` answers the images of a truth file
 * from their true position moved by a seeded error, with a confidence that tracks that error, so
 * `geo eval`'s figures can be checked by hand. Images are recognised by their pixels (the sha256 of
 * their bytes without metadata, strip.ts), which is what geo sends by default and what
 * --keep-metadata sends too: the match never depends on the EXIF the sandbox would otherwise read.
 *
 * The draw, for an image with pixel key K (hex) and seed S: u1, u2 = the first two 32-bit words of
 * sha256("S:K") divided by 2^32. Then, at depth d with scale E (--truth-error, default 25 km):
 *   error_km   = E * DEPTH_SCALE[d] * -ln(1 - u1)   (exponential: median E * scale * ln 2)
 *   bearing    = 360 * u2 degrees
 *   confidence = round2(clamp(0.05, 0.95, exp(-error_km / (2 * E))))
 * The same u1, u2 at every depth, so depth 3 is the same guess, closer.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Depth } from '../api/schemas.js';
import { destination } from '../places/distance.js';
import { sniffKind } from '../image/sniff.js';
import { bufferSource, joinPlan, planStrip } from '../image/strip.js';

/** How much worse the shallower depths guess: depth 1 four times the error of depth 3. */
export const DEPTH_SCALE: Readonly<Record<Depth, number>> = { 1: 4, 2: 2, 3: 1 };
export const DEFAULT_TRUTH_ERROR_KM = 25;

export interface KnownImage {
  /** The name in the truth file, for the reasoning. */
  name: string;
  lat: number;
  lng: number;
}

export interface KnownModel {
  images: Map<string, KnownImage>;
  errorKm: number;
  seed: number;
}

export interface KnownGuess {
  lat: number;
  lng: number;
  errorKm: number;
  confidence: number;
  truth: KnownImage;
}

/** sha256 of an image's bytes without metadata: the same for the file and for what geo sends. */
export async function pixelKey(bytes: Buffer): Promise<string> {
  const kind = sniffKind(bytes.subarray(0, 64));
  // The minimal EXIF geo writes (orientation) is part of the stripped bytes on both sides.
  return createHash('sha256').update(joinPlan(bytes, await planStrip(bufferSource(bytes), kind))).digest('hex');
}

/** Reads every image of the truth rows and keys it by its pixels. A missing file is an error. */
export async function loadKnownModel(rows: ReadonlyArray<{ path: string; name: string; lat: number; lng: number }>, opts: { errorKm?: number; seed?: number } = {}): Promise<KnownModel> {
  const images = new Map<string, KnownImage>();
  for (const r of rows) images.set(await pixelKey(await readFile(r.path)), { name: r.name, lat: r.lat, lng: r.lng });
  return { images, errorKm: opts.errorKm ?? DEFAULT_TRUTH_ERROR_KM, seed: opts.seed ?? 1 };
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** The guess for these bytes at this depth, or undefined when the pixels are not in the truth file. */
export async function knownGuess(model: KnownModel, bytes: Buffer, depth: Depth): Promise<KnownGuess | undefined> {
  const key = await pixelKey(bytes);
  const truth = model.images.get(key);
  if (!truth) return undefined;
  const h = createHash('sha256').update(`${model.seed}:${key}`).digest();
  const u1 = h.readUInt32BE(0) / 2 ** 32;
  const u2 = h.readUInt32BE(4) / 2 ** 32;
  const errorKm = model.errorKm * DEPTH_SCALE[depth] * -Math.log(1 - u1);
  const { lat, lng } = destination(truth.lat, truth.lng, errorKm, 360 * u2);
  const confidence = round2(Math.min(0.95, Math.max(0.05, Math.exp(-errorKm / (2 * model.errorKm)))));
  return { lat, lng, errorKm, confidence, truth };
}
