import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { captureFromRecord, captureOf } from '../../src/output/export/capture.js';
import { SCALE, countryOutlines, decodeRing, simplify } from '../../src/output/export/outlines.js';
import { FIXTURES } from '../helpers/sandbox.js';
import { parisRecord } from '../export/fixtures.js';

describe('country outlines for offline maps (country-coder polygons)', () => {
  it('simplifies the world to a modest size and keeps full detail where the points are', () => {
    const world = countryOutlines([])!;
    const withParis = countryOutlines([{ lat: 48.8584, lng: 2.2945 }, { lat: Number.NaN, lng: 0 }])!;
    const size = (o: object) => JSON.stringify(o).length;
    console.log(`outlines: world ${size(world)} bytes in ${world.rings.length} rings; with Metropolitan France in detail ${size(withParis)}`);
    expect(size(world)).toBeLessThan(70_000);
    expect(size(withParis) - size(world)).toBeGreaterThan(1_000); // France's detailed ring replaced its simplified one
    expect(withParis.labels).toEqual([{ name: 'France', lat: expect.closeTo(46.6, 0), lng: expect.closeTo(2.5, 0) }]);
    expect(world.scale).toBe(SCALE);
  });

  it('encodes closed rings of valid coordinates', () => {
    for (const d of countryOutlines([{ lat: 35.68, lng: 139.76 }])!.rings) {
      const ring = decodeRing(d);
      expect(ring.length).toBeGreaterThanOrEqual(4);
      expect(ring[ring.length - 1]).toEqual(ring[0]);
      for (const [lng, lat] of ring) expect(Math.abs(lat) <= 90 && Math.abs(lng) <= 180.5).toBe(true);
    }
  });

  it('Douglas-Peucker keeps the ends and the corners, drops what is within the tolerance', () => {
    const ring = [[0, 0], [1, 0.01], [2, 0], [2, 2], [0, 2], [0, 0]];
    expect(simplify(ring, 0.1)).toEqual([[0, 0], [2, 0], [2, 2], [0, 2], [0, 0]]);
  });
});

describe('EXIF capture time and camera for the report', () => {
  it('takes them from the record when it carries them (strings only), else from the image bytes', async () => {
    const rec = parisRecord();
    expect(captureFromRecord(rec)).toBeUndefined();
    const carrying = { ...rec, exif: { ...rec.exif!, dateTimeOriginal: '2024:05:14 18:32:07', make: 'Apple', model: 42 } } as unknown as typeof rec;
    expect(captureFromRecord(carrying)).toEqual({ taken: '2024-05-14 18:32 local (time zone not recorded)', camera: 'Apple', from: 'record' });
    expect(await captureOf(rec, readFileSync(FIXTURES + 'sydney.jpg'))).toEqual({ taken: '2024-01-26 20:05 local (UTC+11:00), 2024-01-26 09:05 UTC', camera: 'Canon EOS R5', from: 'image' });
    expect(await captureOf(rec, Buffer.from('not an image'))).toBeUndefined();
  });
});
