/**
 * Place names as analysts say them (issue 13, part 6), against the real offline index: the forward
 * look-up behind `--scope NAME`, and the city/neighbourhood the sandbox reports for a point.
 */
import { describe, expect, it } from 'vitest';
import { cityAt } from '../../src/places/city-at.js';
import { placeLabel, searchPlace } from '../../src/places/search.js';

const found = (q: string) => {
  const r = searchPlace(q);
  if (r.kind !== 'found') throw new Error(`${q}: ${r.kind}`);
  return r;
};

describe('searchPlace (--scope NAME)', () => {
  it('takes the most prominent match: Paris is Paris, France, and says how many others share the name', () => {
    const r = found('Paris');
    expect(placeLabel(r.place)).toBe('Paris, Île-de-France, FR');
    expect(r.place).toMatchObject({ lat: 48.85341, lng: 2.3488 });
    expect(r.others).toBeGreaterThanOrEqual(8);
    expect(r.runnerUp?.name).toMatch(/^Par[ií]s$/);
    expect(placeLabel(found('London').place)).toBe('London, England, GB');
    // Named after its region: Moscow, Russia over Moscow, Idaho.
    expect(found('Moscow').place.countryCode).toBe('RU');
  });

  it('ignores case and accents; a region name or a country code chooses', () => {
    expect(found('sao paulo').place).toMatchObject({ name: 'São Paulo', countryCode: 'BR' });
    expect(found('Paris, Texas').place).toMatchObject({ region: 'Texas', countryCode: 'US', lat: 33.66094, lng: -95.55551 });
    expect(found('paris, fr').place.region).toBe('Île-de-France');
    expect(found('Paris, Tennessee, US').place.region).toBe('Tennessee');
  });

  it('several of similar rank, with or without a qualifier, are ambiguous: the top matches are listed', () => {
    expect(searchPlace('Springfield').kind).toBe('ambiguous');
    const r = searchPlace('Paris, US');
    expect(r.kind).toBe('ambiguous');
    if (r.kind !== 'ambiguous') return;
    expect(r.total).toBeGreaterThanOrEqual(8);
    expect(r.top.length).toBe(5);
    expect(r.top.every((p) => p.countryCode === 'US')).toBe(true);
  });

  it('no exact match: none, with the names that start with it', () => {
    const r = searchPlace('Frankfurt');
    expect(r.kind).toBe('none');
    if (r.kind === 'none') expect(r.similar.map((p) => p.name)).toContain('Frankfurt am Main');
    expect(searchPlace('Xyzzyville')).toEqual({ kind: 'none', similar: [] });
  });
});

describe('cityAt (the sandbox\'s city and neighbourhood)', () => {
  it('the city is the populated place, not the region; the neighbourhood the nearest section', () => {
    expect(cityAt(48.85837, 2.294481, 'FR')).toEqual({ city: 'Paris', neighborhood: 'Paris 16 Passy' }); // Eiffel Tower
    expect(cityAt(35.658581, 139.745433, 'JP')).toEqual({ city: 'Tokyo', neighborhood: 'Shibakōen' }); // Tokyo Tower
    expect(cityAt(-33.856784, 151.215297, 'AU')).toEqual({ city: 'Sydney', neighborhood: 'The Rocks' }); // Opera House
    expect(cityAt(40.689247, -74.044502, 'US')?.city).toBe('New York City'); // Liberty Island
    expect(cityAt(43.7731, 11.256, 'IT')).toEqual({ city: 'Florence', neighborhood: '' }); // the nearest place is the city
  });

  it('nothing within 10 km: undefined', () => {
    expect(cityAt(19.5, 10.5, 'NE')).toBeUndefined();
  });
});
