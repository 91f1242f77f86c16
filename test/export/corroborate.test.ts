import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TIER_TOLERANCE_KM, corroborate, corroborateImage, describeCorroboration, estimateOf } from '../../src/evidence/corroborate.js';
import { forensicBody } from './fixtures.js';

const paris = { lat: 48.8584, lng: 2.2945 };
/** A real photo whose GPS IFD is broken (../shared/photos/MANIFEST.md); the test skips where the folder is absent. */
const D1X = new URL('../../../shared/photos/odd_broken_gps_ifd_nikon_d1x.jpg', import.meta.url).pathname;
const exifAt = (lat: number, lng: number, extra = {}) => ({ gps: { lat, lng }, make: 'Apple', errors: [], ...extra });

describe('corroborate: EXIF GPS against the estimate', () => {
  it('agrees within the precision tier and contradicts beyond it', () => {
    const near = corroborate({ ...paris, precisionTier: 'site_level' }, exifAt(48.8610, 2.2945)); // ~290 m
    expect(near).toMatchObject({ verdict: 'agrees', toleranceKm: 0.5, toleranceBasis: 'site_level', exifPoint: { lat: 48.861, lng: 2.2945 } });
    expect(near.distanceKm).toBeCloseTo(0.289, 2);
    const far = corroborate({ ...paris, precisionTier: 'exact' }, exifAt(48.8610, 2.2945));
    expect(far).toMatchObject({ verdict: 'contradicts', toleranceKm: 0.1 });
  });

  it('maps every tier, and uses 25 km for depth 1/2 answers without one', () => {
    expect(TIER_TOLERANCE_KM).toMatchObject({ exact: 0.1, site_level: 0.5, block: 1, neighborhood_level: 2, city_level: 25, region_level: 200 });
    const d1 = corroborate({ ...paris, depth: 1 }, exifAt(48.9, 2.5)); // ~16 km
    expect(d1).toMatchObject({ verdict: 'agrees', toleranceKm: 25, toleranceBasis: 'depth 1 default' });
    expect(corroborate({ ...paris, precisionTier: 'galaxy_level' }, exifAt(0.1, 0.1)).toleranceBasis).toBe('unknown tier galaxy_level');
    expect(corroborate(paris, exifAt(48.9, 2.5), { toleranceKm: 1 }).verdict).toBe('contradicts');
  });

  it('stripped: EXIF without GPS, or GPS 0,0 (no fix); none: no EXIF at all', () => {
    expect(corroborate(paris, { make: 'Canon', model: 'EOS', errors: [] }).verdict).toBe('stripped');
    expect(corroborate(paris, { dateTimeOriginal: '2024:05:14 18:32:07', errors: [] }).verdict).toBe('stripped');
    const zero = corroborate(paris, { gps: { lat: 0, lng: 0, suspect: 'zero' }, errors: [] });
    expect(zero.verdict).toBe('stripped');
    expect(zero.exifPoint).toBeUndefined();
    expect(corroborate(paris, undefined).verdict).toBe('none');
    expect(corroborate(paris, { errors: ['Unknown file format'] }).verdict).toBe('none');
  });

  it('unreadable: a GPS block that is there but cannot be read is damaged, not stripped (issue 13)', () => {
    const c = corroborate(paris, { gpsUnreadable: true, make: 'NIKON', errors: ['Invalid TIFF value type. block: GPS'] });
    expect(c).toMatchObject({ verdict: 'unreadable', note: 'Invalid TIFF value type. block: GPS' });
    expect(describeCorroboration(c)).toBe('EXIF: a GPS block is present but cannot be read (Invalid TIFF value type. block: GPS): not compared (damaged, not stripped)');
  });

  it.skipIf(!existsSync(D1X))('the Nikon D1X photo of ../shared/photos, whose GPS IFD is broken, is unreadable, not stripped', async () => {
    expect((await corroborateImage(readFileSync(D1X), forensicBody())).verdict).toBe('unreadable');
  });

  it('reads the estimate from a response body and describes the verdict in one line', () => {
    const est = estimateOf(forensicBody());
    expect(est).toEqual({ lat: 48.8584, lng: 2.2945, precisionTier: 'site_level', depth: 3, name: expect.any(String) });
    const line = describeCorroboration(corroborate(est, exifAt(35.6586, 139.7454)));
    expect(line).toMatch(/^EXIF GPS 35\.658600, 139\.745400: 97\d\d\.\d km from the estimate, CONTRADICTS \(tolerance 500 m, site_level\); independence unknown: /);
    // Whether the service was sent the GPS decides what agreement is worth, and the line says so.
    expect(corroborate(est, exifAt(48.8584, 2.2945), { metadataSent: false })).toMatchObject({ verdict: 'agrees', independent: true });
    expect(describeCorroboration(corroborate(est, exifAt(48.8584, 2.2945), { metadataSent: false }))).toMatch(/agrees .*; an independent check: the GPS was removed before upload, the service never saw it$/);
    expect(describeCorroboration(corroborate(est, exifAt(48.8584, 2.2945), { metadataSent: true }))).toMatch(/agrees .*; NOT independent: the service was sent this GPS \(--keep-metadata\) and may have read it$/);
    expect(describeCorroboration(corroborate(est, undefined))).toMatch(/none/);
  });
});

describe('corroborateImage: the NDJSON exif block from image bytes', () => {
  it('reads the fixture EXIF and compares it with the answer; unreadable bytes give none', async () => {
    const { readFileSync } = await import('node:fs');
    const { corroborateImage } = await import('../../src/evidence/corroborate.js');
    const { FIXTURES } = await import('../helpers/sandbox.js');
    const c = await corroborateImage(readFileSync(FIXTURES + 'paris.jpg'), forensicBody());
    expect(c).toMatchObject({ verdict: 'agrees', toleranceKm: 0.5 });
    expect(c.exifPoint!.lat).toBeCloseTo(48.85837, 6);
    expect(c.exifPoint!.lng).toBeCloseTo(2.294481, 6);
    // nogps.jpg has a camera make and model but no GPS block: the location was stripped.
    expect((await corroborateImage(readFileSync(FIXTURES + 'nogps.jpg'), forensicBody())).verdict).toBe('stripped');
    expect((await corroborateImage(readFileSync(FIXTURES + 'zero.jpg'), forensicBody())).note).toMatch(/0,0/);
    expect((await corroborateImage(Buffer.from('not an image'), forensicBody())).verdict).toBe('none');
  });
});
