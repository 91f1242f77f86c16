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
    const r = searchPlace('Buenos');
    expect(r.kind).toBe('none');
    if (r.kind === 'none') expect(r.similar.map((p) => p.name)).toContain('Buenos Aires');
    expect(searchPlace('Xyzzyville')).toEqual({ kind: 'none', similar: [] });
  });
});

describe('searchPlace: names the index does not hold as written', () => {
  const label = (q: string) => placeLabel(found(q).place);

  it.each([
    ['Kiev', 'Kyiv, Kyiv City, UA'],
    ['Kharkov', 'Kharkiv, UA'],
    ['Bombay', 'Mumbai, Maharashtra, IN'],
    ['Peking', 'Beijing, CN'],
    ['Saigon', 'Ho Chi Minh City, Ho Chi Minh City (HCMC), VN'],
    ['Leningrad', 'Saint Petersburg, St.-Petersburg, RU'],
    ['Constantinople', 'Istanbul, TR'],
    ['München', 'Munich, Bavaria, DE'],
    ['Cologne', 'Köln, North Rhine-Westphalia, DE'],
  ])('a former name, an exonym or a local name: %s is %s', (q, place) => {
    expect(label(q)).toBe(place);
  });

  it.each([
    ['New York', 'New York City, New York, US'],
    ['NYC', 'New York City, New York, US'],
    ['N.Y.C.', 'New York City, New York, US'],
    ['New York, NY', 'New York City, New York, US'],
    ['LA', 'Los Angeles, California, US'],
    ['SF', 'San Francisco, California, US'],
    ['Washington, D.C.', 'Washington, District of Columbia, US'],
    ['Rio', 'Rio de Janeiro, BR'],
    ['Frankfurt', 'Frankfurt am Main, Hesse, DE'],
  ])('the usual short form of a large city: %s is %s', (q, place) => {
    expect(label(q)).toBe(place);
  });

  it.each([
    ['Springfield, IL', 'Springfield, Illinois, US'],
    ['Springfield, MA', 'Springfield, Massachusetts, US'],
    ['Paris, TX', 'Paris, Texas, US'],
    ['Portland, OR', 'Portland, Oregon, US'],
    ['Portland, ME', 'Portland, Maine, US'],
    ['London, ON', 'London, Ontario, CA'],
    ['Vancouver, BC', 'Vancouver, British Columbia, CA'],
    ['Halifax, NS', 'Halifax, Nova Scotia, CA'],
  ])('a US state or Canadian province abbreviation after a comma: %s is %s', (q, place) => {
    expect(label(q)).toBe(place);
  });

  it('the name as written still counts: Odessa, TX is in Texas; Odessa alone is the city of a million, the others counted', () => {
    expect(label('Odessa, TX')).toBe('Odessa, Texas, US');
    expect(label('Cologne, IT')).toBe('Cologne, Lombardy, IT');
    expect(label('St Petersburg, FL')).toBe('St. Petersburg, Florida, US');
    const odessa = found('Odessa');
    expect(placeLabel(odessa.place)).toBe('Odesa, UA');
    expect(odessa.others).toBe(3);
    expect(odessa.runnerUp?.name).toBe('Odessa');
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
