/**
 * The city and neighbourhood around a point, for the sandbox's `location.city`: the
 * nearest GeoNames place is often a section ("Paris 16 Passy", "Shibakōen"), and the region
 * ("Île-de-France") is not a city, so `geo analyses --city paris` found nothing.
 *
 * Among the places within 10 km, the city is the one its surroundings name: each place within
 * 10 km whose name contains it ("Paris 16 Passy", "North Sydney") counts one, being named after
 * its region ("Tokyo, Tokyo") counts three, and the score falls with distance (halved at 3 km) so
 * a district a few km away does not outrank the city centre. Without any such signal the nearest
 * place is the city. The neighbourhood is the nearest place when it is not the city itself.
 * A heuristic, documented in the README; the index holds no population or feature class.
 */
import { hasWords, namesItsRegion, normName } from './rank.js';
import { haversineKm } from './distance.js';
import { type PlaceIndex, placeIndex } from './place-index.js';

const RADIUS_KM = 10;

export function cityAt(lat: number, lng: number, countryCode?: string, index: PlaceIndex = placeIndex()): { city: string; neighborhood: string } | undefined {
  const near: Array<{ i: number; km: number; name: string }> = [];
  const dLat = RADIUS_KM / 110.57;
  for (let i = 0; i < index.count; i++) {
    if (Math.abs(index.lat[i]! - lat) > dLat) continue;
    if (countryCode && index.countries[index.country[i]!] !== countryCode) continue;
    const km = haversineKm(lat, lng, index.lat[i]!, index.lng[i]!);
    if (km <= RADIUS_KM) near.push({ i, km, name: normName(index.nameOf(i)) });
  }
  if (near.length === 0) return undefined;
  near.sort((a, b) => a.km - b.km);
  let best = { at: near[0]!, score: 0 };
  for (const p of near) {
    const named = near.filter((o) => o !== p && o.name !== p.name && hasWords(o.name, p.name)).length;
    const score = ((namesItsRegion(index, p.i) ? 3 : 0) + named) / (1 + p.km / 3);
    if (score > best.score) best = { at: p, score };
  }
  const city = index.nameOf(best.at.i);
  const nearest = index.nameOf(near[0]!.i);
  return { city, neighborhood: nearest !== city ? nearest : '' };
}
