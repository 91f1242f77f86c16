/**
 * Claims with a known answer, for `geo eval --claims`: from each image of known
 * position, one true claim (its real place) and one false claim per chosen distance (25, 200, 750
 * and 2,500 km by default), each placed on land where the offline index has a place. Deterministic
 * and seeded, so a run can be repeated and checked by hand:
 *
 *   for distance d, attempt a = 0, 1, … (at most FALSE_CLAIM_TRIES):
 *     u = first 32-bit word of sha256("SEED:LAT,LNG:d:a") / 2^32   (LAT,LNG: the truth, 6 decimals)
 *     p = the point d km from the truth along bearing 360·u (places/distance.ts destination)
 *     the claim is the index's nearest place to p within max(5 km, d/10), if there is one
 *
 * so a false claim lies d ± d/10 (± 5 km) from the truth, at a real place. Every claim carries the
 * same tolerance (--within, default 25 km: a city, the way a claim "taken in Kharkiv" is read).
 */
import { createHash } from 'node:crypto';
import type { Claim } from '../claims/types.js';
import { destination, haversineKm } from '../places/distance.js';
import { placeIndex } from '../places/place-index.js';

export const DEFAULT_CLAIM_DISTANCES_KM = [25, 200, 750, 2500] as const;
export const DEFAULT_CLAIM_WITHIN_KM = 25;
export const FALSE_CLAIM_TRIES = 64;

export interface KnownImage {
  input: string;
  path: string;
  truth: { lat: number; lng: number };
}

export interface CalibrationClaim extends Claim {
  /** true: the real place; false: a place `offsetKm` away. */
  kind: 'true' | 'false';
  /** The chosen distance (null for a true claim) and the claim's actual distance from the truth. */
  offsetKm: number | null;
  actualKm: number;
}

const round5 = (n: number) => Math.round(n * 1e5) / 1e5;

/** The false claim `km` from the truth, or undefined when no attempt finds a place (open ocean all round). */
export function falseClaimPoint(truth: { lat: number; lng: number }, km: number, seed: number): { lat: number; lng: number; place: string } | undefined {
  const index = placeIndex();
  for (let a = 0; a < FALSE_CLAIM_TRIES; a++) {
    const h = createHash('sha256').update(`${seed}:${truth.lat.toFixed(6)},${truth.lng.toFixed(6)}:${km}:${a}`).digest();
    const p = destination(truth.lat, truth.lng, km, 360 * (h.readUInt32BE(0) / 2 ** 32));
    const near = index.nearest(p.lat, p.lng, Math.max(5, km / 10));
    if (!near) continue;
    const i = near.index;
    return { lat: round5(index.lat[i]!), lng: round5(index.lng[i]!), place: `${index.nameOf(i)}, ${index.countries[index.country[i]!]}` };
  }
  return undefined;
}

/** The true claim and the false ones of each image, in image then distance order; `missing` says which could not be placed. */
export function calibrationClaims(images: readonly KnownImage[], o: { distancesKm: readonly number[]; withinKm: number; seed: number }): { claims: CalibrationClaim[]; missing: string[] } {
  const claims: CalibrationClaim[] = [];
  const missing: string[] = [];
  const basis = `--within ${o.withinKm} (geo eval --claims)`;
  for (const img of images) {
    const t = img.truth;
    const base = { row: null, input: img.input, path: img.path, toleranceKm: o.withinKm, toleranceBasis: basis };
    claims.push({ ...base, at: { text: `${t.lat},${t.lng}`, lat: t.lat, lng: t.lng, place: null }, kind: 'true', offsetKm: null, actualKm: 0 });
    for (const d of o.distancesKm) {
      const p = falseClaimPoint(t, d, o.seed);
      if (!p) {
        missing.push(`${img.input}: no place of the offline index about ${d} km away`);
        continue;
      }
      claims.push({ ...base, at: { text: `${p.lat},${p.lng}`, lat: p.lat, lng: p.lng, place: p.place }, kind: 'false', offsetKm: d, actualKm: haversineKm(t.lat, t.lng, p.lat, p.lng) });
    }
  }
  return { claims, missing };
}
