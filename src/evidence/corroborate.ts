/**
 * Corroboration: the image's own EXIF GPS set beside the API's estimate, and the sun at
 * the estimate when the photo was taken (sun-witness.ts). Purely local and
 * informational: it is never sent to the API as evidence and never changes the confidence
 * shown. In locate's NDJSON it is the record's `exif` block; provenance records store it as is.
 */
import { haversineKm } from '../places/distance.js';
import { type ExifSummary, readExif } from '../image/exif.js';
import { type SunCheck, sunWitness } from './sun-witness.js';

export type Verdict = 'agrees' | 'contradicts' | 'stripped' | 'unreadable' | 'none';

export interface Corroboration {
  /**
   * agrees: EXIF GPS within toleranceKm of the estimate; contradicts: beyond it;
   * stripped: the file has EXIF (camera, date, software) but no GPS; unreadable: it has a GPS
   * block that cannot be read (damaged: the location may be there, geo cannot tell); none: no EXIF.
   */
  verdict: Verdict;
  exifPoint?: { lat: number; lng: number };
  distanceKm?: number;
  toleranceKm: number;
  /** Where toleranceKm came from: a precision tier, a depth default, or an explicit option. */
  toleranceBasis: string;
  /** Why a GPS block was not used (0,0 is what cameras write without a fix). */
  note?: string;
  /**
   * True when the service never received the file's metadata (geo removed it before upload), so
   * agreement is evidence; false when it did (--keep-metadata), so agreement may only mean it read
   * the same EXIF. Absent when unknown (a result from before geo removed metadata).
   */
  independent?: boolean;
  /**
   * The sun at the estimate at the EXIF capture time (azimuth, elevation, phase, shadow), or why it
   * was not computed. Absent when the file has no EXIF at all.
   */
  sun?: SunCheck;
}

export interface Estimate {
  lat: number;
  lng: number;
  /** forensic.precision_tier (depth 3 only). */
  precisionTier?: string;
  depth?: number;
  /** Its place as the answer names it ("Mexico City, Mexico"): where the sun line says it was worked out. */
  name?: string;
}

export interface CorroborateOptions {
  /** Overrides the tier table (e.g. a user's own threshold). */
  toleranceKm?: number;
  /** Whether the service received the file's metadata with the image (sets `independent`). */
  metadataSent?: boolean;
}

/**
 * How far apart two points may be and still "agree", per forensic.precision_tier
 * (api-spec.md "Forensic object"; `block` appears only in a sample, so it sits between site and
 * neighbourhood). Depth 1 and 2 carry no tier: depth 1 is "region level" and depth 2 "block
 * level" in the spec's depth list, but without a tier the answer's resolution is unstated, so a
 * city-sized 25 km is used rather than pretending to street accuracy.
 */
export const TIER_TOLERANCE_KM: Readonly<Record<string, number>> = {
  exact: 0.1,
  site_level: 0.5,
  block: 1,
  block_level: 1,
  neighborhood_level: 2,
  city_level: 25,
  region_level: 200,
};
export const DEFAULT_TOLERANCE_KM = 25;

export function toleranceFor(est: Estimate, opts: CorroborateOptions = {}): { km: number; basis: string } {
  if (opts.toleranceKm !== undefined && opts.toleranceKm > 0) return { km: opts.toleranceKm, basis: 'option' };
  const tier = est.precisionTier;
  if (tier && Object.hasOwn(TIER_TOLERANCE_KM, tier)) return { km: TIER_TOLERANCE_KM[tier]!, basis: tier };
  // An unknown tier (the spec lists its values as incomplete) falls back like "no tier".
  return { km: DEFAULT_TOLERANCE_KM, basis: tier ? `unknown tier ${tier}` : `depth ${est.depth ?? 1} default` };
}

/** True when the EXIF block says anything at all (GPS, camera, time or editing software). */
function hasAnyExif(exif: ExifSummary): boolean {
  return Boolean(exif.gps || exif.gpsUnreadable || exif.make || exif.model || exif.dateTimeOriginal || exif.software || exif.lens || exif.offsetTime);
}

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

export function corroborate(estimate: Estimate, exif: ExifSummary | undefined, opts: CorroborateOptions = {}): Corroboration {
  const tol = toleranceFor(estimate, opts);
  const base = { toleranceKm: tol.km, toleranceBasis: tol.basis };
  if (!exif || !hasAnyExif(exif)) return { verdict: 'none', ...base };
  return { ...gpsCheck(estimate, exif, opts, base), sun: sunWitness(exif, estimate, 'estimate', estimate.name) };
}

function gpsCheck(estimate: Estimate, exif: ExifSummary, opts: CorroborateOptions, base: { toleranceKm: number; toleranceBasis: string }): Corroboration {
  const gps = exif.gps;
  if (!gps && exif.gpsUnreadable) return { verdict: 'unreadable', ...base, ...(exif.errors[0] ? { note: exif.errors[0] } : {}) };
  if (!gps || !Number.isFinite(gps.lat) || !Number.isFinite(gps.lng)) return { verdict: 'stripped', ...base };
  // 0,0 is a camera without a fix, not a place: comparing it would "contradict" every estimate.
  if (gps.suspect === 'zero') return { verdict: 'stripped', ...base, note: 'EXIF GPS is 0,0 (no fix); not compared' };
  const distanceKm = haversineKm(estimate.lat, estimate.lng, gps.lat, gps.lng);
  return {
    verdict: distanceKm <= base.toleranceKm ? 'agrees' : 'contradicts',
    exifPoint: { lat: gps.lat, lng: gps.lng },
    distanceKm: round(distanceKm, 3),
    ...base,
    ...(opts.metadataSent !== undefined ? { independent: !opts.metadataSent } : {}),
  };
}

/** The estimate as corroborate() wants it, from a geolocate response body. */
export function estimateOf(body: { location: { latitude: number; longitude: number; neighborhood?: unknown; city?: unknown; country?: unknown }; depth?: number; forensic?: { precision_tier?: string } }): Estimate {
  const loc = body.location;
  // A paid answer that deviates is kept: a name part that is not text is left out, not trusted.
  const parts = [loc.neighborhood, loc.city, loc.country].filter((p): p is string => typeof p === 'string' && p.trim() !== '').map((p) => p.trim());
  return {
    lat: loc.latitude,
    lng: loc.longitude,
    precisionTier: body.forensic?.precision_tier,
    depth: body.depth,
    ...(parts.length ? { name: [...new Set(parts)].join(', ') } : {}),
  };
}

/**
 * The NDJSON `exif` block for one answered input: reads the image's EXIF from its bytes and
 * compares it with the answer. Never throws: an unreadable file is simply 'none'.
 */
export async function corroborateImage(bytes: Uint8Array, body: Parameters<typeof estimateOf>[0], opts: CorroborateOptions = {}): Promise<Corroboration> {
  const exif = await readExif(bytes).catch(() => undefined);
  return corroborate(estimateOf(body), exif, opts);
}

function km(n: number): string {
  return n < 1 ? `${Math.round(n * 1000)} m` : `${n < 10 ? n.toFixed(2) : n.toFixed(1)} km`;
}

/** Whether agreement means anything: the service either never saw the GPS, or was sent it. */
function witness(independent: boolean | undefined): string {
  if (independent === true) return 'an independent check: the GPS was removed before upload, the service never saw it';
  if (independent === false) return 'NOT independent: the service was sent this GPS (--keep-metadata) and may have read it';
  return 'independence unknown: a result from before geo removed metadata, the service may have read this GPS';
}

/** One plain line for human views (callers sanitize/colour it; it holds no server text but the tier). */
export function describeCorroboration(c: Corroboration): string {
  switch (c.verdict) {
    case 'none':
      return 'EXIF: none in the file (nothing to compare)';
    case 'unreadable':
      return `EXIF: a GPS block is present but cannot be read${c.note ? ` (${c.note})` : ''}: not compared (damaged, not stripped)`;
    case 'stripped':
      return `EXIF: present but without GPS${c.note ? ` (${c.note})` : ''}: location stripped or never recorded`;
    default: {
      const p = c.exifPoint!;
      const where = `${p.lat.toFixed(6)}, ${p.lng.toFixed(6)}`;
      const word = c.verdict === 'agrees' ? 'agrees' : 'CONTRADICTS';
      return `EXIF GPS ${where}: ${km(c.distanceKm ?? 0)} from the estimate, ${word} (tolerance ${km(c.toleranceKm)}, ${c.toleranceBasis}); ${witness(c.independent)}`;
    }
  }
}
