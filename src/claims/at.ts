/**
 * Where a claim says a photo was taken: "LAT,LNG" in decimal degrees, or a place name the offline
 * GeoNames index settles ("Kharkiv, UA", "Paris, Texas": places/search.ts, as `--scope NAME`).
 * Its default tolerance: a point 1 km; a place its extent (places/extent.ts).
 * A name the index cannot settle, or coordinates out of range, is a problem naming why.
 */
import { CoordinatesProblem, readCoordinates } from '../places/coordinates.js';
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

const listed = (ps: FoundPlace[]) => ps.map((p) => `"${placeLabel(p)}" (${p.lat}, ${p.lng})`).join('; ');

/** Searching the index scans 171,000 names: a file naming one city 200 times searches once. */
const settled = new Map<string, SettledAt | AtProblem>();

function settle(text: string): SettledAt {
  let point;
  try {
    point = readCoordinates(text);
  } catch (err) {
    if (err instanceof CoordinatesProblem) throw new AtProblem(err.message, err.hint);
    throw err;
  }
  if (point) return { at: { text, ...point, place: null }, toleranceKm: POINT_TOLERANCE_KM, toleranceBasis: `a point (${POINT_TOLERANCE_KM} km)` };
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
