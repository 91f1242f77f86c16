/**
 * Where a claim says a photo was taken: "LAT,LNG" in decimal degrees, or a place name the offline
 * GeoNames index settles ("Kharkiv, UA", "Paris, Texas": places/search.ts, as `--scope NAME`).
 * Its default tolerance: a point 1 km; a place its extent (places/extent.ts).
 * A name the index cannot settle, or coordinates out of range, is a problem naming why.
 */
import { placeExtent } from '../places/extent.js';
import { type FoundPlace, placeLabel, searchPlace } from '../places/search.js';
import type { ClaimPlace } from './types.js';

/** The tolerance of a claim given as coordinates: a point, to about a kilometre. */
export const POINT_TOLERANCE_KM = 1;

export interface SettledAt {
  at: ClaimPlace;
  toleranceKm: number;
  toleranceBasis: string;
}

export class AtProblem extends Error {
  constructor(message: string, readonly hint?: string) {
    super(message);
  }
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const listed = (ps: FoundPlace[]) => ps.map((p) => `"${placeLabel(p)}" (${p.lat}, ${p.lng})`).join('; ');

/** Searching the index scans 171,000 names: a file naming one city 200 times searches once. */
const settled = new Map<string, SettledAt | AtProblem>();

function settle(text: string): SettledAt {
  const m = /^\s*([^,\s]+)\s*,\s*([^,\s]+)\s*$/.exec(text);
  if (m && NUMBER.test(m[1]!) && NUMBER.test(m[2]!)) {
    const lat = Number(m[1]);
    const lng = Number(m[2]);
    if (Math.abs(lat) > 90 || Math.abs(lng) > 180) throw new AtProblem(`"${text}": coordinates out of range (latitude -90 to 90, longitude -180 to 180)`, 'LAT,LNG in decimal degrees, latitude first: 49.99,36.23');
    return { at: { text, lat, lng, place: null }, toleranceKm: POINT_TOLERANCE_KM, toleranceBasis: `a point (${POINT_TOLERANCE_KM} km)` };
  }
  if (text.trim() === '') throw new AtProblem('no place: the claim needs at (a place name or LAT,LNG)');
  const r = searchPlace(text);
  if (r.kind === 'none') {
    throw new AtProblem(`"${text}": no such place in the offline index (GeoNames places of 1,000+ people)`, r.similar.length ? `did you mean ${listed(r.similar)}? Or give LAT,LNG` : 'check the spelling, or give LAT,LNG');
  }
  if (r.kind === 'ambiguous') {
    throw new AtProblem(`"${text}" is ambiguous: ${r.total} places of that name`, `add a country code or region, e.g. "${placeLabel(r.top[0]!)}"; top matches: ${listed(r.top)}; or give LAT,LNG`);
  }
  const p = r.place;
  const extent = placeExtent(p.lat, p.lng);
  return { at: { text, lat: p.lat, lng: p.lng, place: placeLabel(p) }, toleranceKm: extent.km, toleranceBasis: `the place's extent, ${extent.basis}` };
}

/** The claim's place and its default tolerance; throws AtProblem with why not. */
export function settleAt(text: string): SettledAt {
  const key = text.trim();
  let hit = settled.get(key);
  if (!hit) {
    try {
      hit = settle(key);
    } catch (err) {
      if (!(err instanceof AtProblem)) throw err;
      hit = err;
    }
    settled.set(key, hit);
  }
  if (hit instanceof AtProblem) throw hit;
  return hit;
}
