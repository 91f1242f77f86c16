/**
 * A model of known skill for the eval tests, served by the independent fake API
 * (test/tolerant/fake-server.ts): each fixture photo is answered, per depth, with an estimate a
 * chosen distance due north of its EXIF position and a chosen confidence (and, at depth 3, a
 * chosen abstain advice), so every error is known before geo computes it.
 *
 * The fake recognises a photo by its pixels, not its file: sha256 of the JPEG from the first SOS
 * marker (0xFFDA) to the end, i.e. the entropy-coded scan, which metadata stripping before upload
 * leaves byte-identical. The whole file's hash would change once geo strips EXIF.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Answer, Received } from '../tolerant/fake-server.js';

export const FIXTURES = new URL('../../fixtures/images/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(FIXTURES, 'manifest.json'), 'utf8')) as { images: Array<{ file: string; lat?: number; lng?: number }> };

/** km per degree of latitude on the sphere geo uses (distance.ts: R = 6371.0088 km): a meridian arc is R·Δφ. */
export const KM_PER_DEG = (6371.0088 * Math.PI) / 180;

/** Offset of the first SOS segment, found by walking the segments (a 0xFFDA inside EXIF is not one). */
function sosOffset(jpeg: Buffer): number {
  let i = 2;
  while (i + 4 <= jpeg.length && jpeg[i] === 0xff) {
    const marker = jpeg[i + 1]!;
    if (marker === 0xda) return i;
    i += 2 + jpeg.readUInt16BE(i + 2);
  }
  throw new Error('no SOS segment: not a baseline JPEG');
}

/** The image's identity that survives metadata stripping: sha256 of its scan data. */
export function pixelKey(jpeg: Buffer): string {
  return createHash('sha256').update(jpeg.subarray(sosOffset(jpeg))).digest('hex');
}

export interface Said {
  errorKm: number;
  confidence: number;
  /** Depth 3 only: calibration.abstain. */
  abstain?: boolean;
}

/** What the model says for each photo at each depth (the tests compute every figure from these). */
export const MODEL: Record<string, Record<number, Said>> = {
  'paris.jpg': { 1: { errorKm: 0.5, confidence: 0.95 }, 3: { errorKm: 0.2, confidence: 0.92, abstain: false } },
  'tokyo.jpg': { 1: { errorKm: 10, confidence: 0.85 }, 3: { errorKm: 40, confidence: 0.72, abstain: false } },
  'sydney.jpg': { 1: { errorKm: 150, confidence: 0.55 }, 3: { errorKm: 5, confidence: 0.35, abstain: true } },
  'newyork.jpg': { 1: { errorKm: 3000, confidence: 0.15 }, 3: { errorKm: 900, confidence: 0.25, abstain: true } },
};

export const truthOf = (file: string): { lat: number; lng: number } => {
  const m = manifest.images.find((i) => i.file === file)!;
  return { lat: m.lat!, lng: m.lng! };
};

const byPixels = new Map(Object.keys(MODEL).map((file) => [pixelKey(readFileSync(join(FIXTURES, file))), file]));

/** The estimate the model gives: `errorKm` due north of the truth. */
export function estimateOf(file: string, depth: number): { lat: number; lng: number } {
  const t = truthOf(file);
  return { lat: t.lat + MODEL[file]![depth]!.errorKm / KM_PER_DEG, lng: t.lng };
}

/** A contract-valid body for this photo and depth (thinking and clues from 2, forensic and calibration at 3). */
export function bodyFor(file: string, depth: number): Record<string, unknown> {
  const said = MODEL[file]![depth]!;
  const e = estimateOf(file, depth);
  return {
    success: true, analysis_id: `an_${file.replace('.jpg', '')}_${depth}`,
    location: { latitude: e.lat, longitude: e.lng, country: 'Somewhere', city: 'Somewhere', neighborhood: 'Somewhere', address: 'Somewhere' },
    confidence: said.confidence, reasoning: 'fake model of known skill', model: 'orca-1.5', depth, timing_ms: 5,
    ...(depth >= 2 ? { thinking: 'steps', visual_clues: [] } : {}),
    ...(depth === 3
      ? { forensic: { precision_tier: 'city_level', verification_status: 'unverified', supports: [], contradictions: [], candidates: [] }, calibration: { abstain: said.abstain } }
      : {}),
  };
}

/** Which fixture this request carries, by its pixels; what was sent, for assertions. */
export function identify(req: Received): { file: string | undefined; depth: number } {
  const body = JSON.parse(req.body.toString('utf8')) as { image_b64?: string; depth?: number };
  const file = body.image_b64 ? byPixels.get(pixelKey(Buffer.from(body.image_b64, 'base64'))) : undefined;
  return { file, depth: body.depth ?? 1 };
}

/** The fake's geolocate route: the model's answer, or 422 for a photo it does not know. */
export function modelAnswer(_n: number, req: Received): Answer {
  const { file, depth } = identify(req);
  if (!file || !MODEL[file]?.[depth]) return { status: 422, body: JSON.stringify({ success: false, code: 'invalid_image', message: 'unknown image' }) };
  return { status: 200, body: JSON.stringify(bodyFor(file, depth)) };
}
