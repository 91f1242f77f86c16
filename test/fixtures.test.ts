/**
 * The committed fixtures are exactly what fixtures/make-fixtures.js produces (so anyone can
 * regenerate them), and the manifest's values are what a real EXIF reader finds in the files.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import exifr from 'exifr';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIFTOOL, EXIFTOOL_SKIP } from './export/tools.js';

const ROOT = new URL('..', import.meta.url).pathname;
const IMAGES = join(ROOT, 'fixtures/images');

interface Entry {
  file: string;
  kind: string;
  lat: number | null;
  lng: number | null;
  altitude?: number;
  Make: string | null;
  Model: string | null;
  DateTimeOriginal: string | null;
  OffsetTimeOriginal: string | null;
  size: number;
  sha256: string;
}
const manifest = JSON.parse(readFileSync(join(IMAGES, 'manifest.json'), 'utf8')) as { images: Entry[] };
const read = (f: string) => readFileSync(join(IMAGES, f));

describe('fixtures/make-fixtures.js', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'geo-fixtures-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('regenerates byte-identical files and manifest', () => {
    execFileSync(process.execPath, [join(ROOT, 'fixtures/make-fixtures.js'), tmp]);
    const committed = readdirSync(IMAGES).sort();
    expect(readdirSync(tmp).sort()).toEqual(committed);
    for (const f of committed) expect(readFileSync(join(tmp, f)).equals(read(f)), f).toBe(true);
  });

  it('lists every image with its real size and sha256', () => {
    const files = readdirSync(IMAGES).filter((f) => f !== 'manifest.json' && f !== 'truth.csv').sort();
    expect(manifest.images.map((e) => e.file).sort()).toEqual(files);
    for (const e of manifest.images) {
      const b = read(e.file);
      expect(b.length, e.file).toBe(e.size);
      expect(createHash('sha256').update(b).digest('hex'), e.file).toBe(e.sha256);
    }
  });
});

describe('manifest values match what exifr reads', () => {
  for (const e of manifest.images.filter((x) => x.kind === 'jpeg')) {
    it(e.file, async () => {
      const tags = (await exifr.parse(read(e.file), { gps: true, reviveValues: false })) as Record<string, unknown>;
      expect(tags.Make).toBe(e.Make);
      expect(tags.Model).toBe(e.Model);
      expect(tags.DateTimeOriginal).toBe(e.DateTimeOriginal);
      expect(tags.OffsetTimeOriginal).toBe(e.OffsetTimeOriginal);
      if (e.lat === null) {
        expect(tags.latitude).toBeUndefined();
        expect(tags.GPSLatitude).toBeUndefined();
      } else {
        const gps = await exifr.gps(read(e.file));
        expect(Math.abs(gps.latitude - e.lat)).toBeLessThan(1e-6);
        expect(Math.abs(gps.longitude - (e.lng as number))).toBeLessThan(1e-6);
        expect(tags.GPSAltitude).toBe(e.altitude);
      }
    });
  }
});

/** exiftool is the reference reader; CI installs it when it can, otherwise this check skips (and says so). */
const exiftool = EXIFTOOL;

describe('manifest values match exiftool', () => {
  it.skipIf(!exiftool)(exiftool ? 'GPS, camera and dates of every JPEG' : EXIFTOOL_SKIP, () => {
    const jpegs = manifest.images.filter((x) => x.kind === 'jpeg');
    const args = ['-json', '-n', '-GPSLatitude', '-GPSLongitude', '-Make', '-Model', '-DateTimeOriginal', '-OffsetTimeOriginal', ...jpegs.map((e) => join(IMAGES, e.file))];
    const rows = JSON.parse(execFileSync('exiftool', args, { encoding: 'utf8' })) as Record<string, string | number | undefined>[];
    rows.forEach((row, i) => {
      const e = jpegs[i]!;
      expect([row.Make, row.Model, row.DateTimeOriginal, row.OffsetTimeOriginal], e.file).toEqual([e.Make, e.Model, e.DateTimeOriginal, e.OffsetTimeOriginal]);
      if (e.lat === null) expect(row.GPSLatitude, e.file).toBeUndefined();
      else {
        expect(Math.abs(Number(row.GPSLatitude) - e.lat), e.file).toBeLessThan(1e-6);
        expect(Math.abs(Number(row.GPSLongitude) - (e.lng as number)), e.file).toBeLessThan(1e-6);
      }
    });
  });
});

describe('file shapes', () => {
  it('JPEGs start with SOI+APP1 Exif and end with EOI; truncated.jpg is the first half of paris.jpg', () => {
    for (const e of manifest.images.filter((x) => x.kind === 'jpeg')) {
      const b = read(e.file);
      expect([...b.subarray(0, 4)], e.file).toEqual([0xff, 0xd8, 0xff, 0xe1]);
      expect([...b.subarray(-2)], e.file).toEqual([0xff, 0xd9]);
    }
    const paris = read('paris.jpg');
    expect(read('truncated.jpg').equals(paris.subarray(0, Math.floor(paris.length / 2)))).toBe(true);
  });

  it('PNGs carry pixel data that inflates to 24 rows; only blocked.png holds the content marker, in its pixels', () => {
    for (const f of ['plain.png', 'blocked.png']) {
      const b = read(f);
      const at = b.indexOf('IDAT');
      const len = b.readUInt32BE(at - 4);
      expect(inflateSync(b.subarray(at + 4, at + 4 + len)).length).toBe(24 * (1 + 32 * 3));
    }
    // In the pixels (first row), where metadata removal before upload cannot take it away.
    const b = read('blocked.png');
    const at = b.indexOf('IDAT');
    const rows = inflateSync(b.subarray(at + 4, at + 4 + b.readUInt32BE(at - 4)));
    expect(rows.subarray(1, 1 + 23).toString('latin1')).toBe('SANDBOX_CONTENT_BLOCKED');
    expect(b.includes('tEXt')).toBe(false);
    for (const e of manifest.images.filter((x) => x.file !== 'blocked.png')) expect(read(e.file).includes('SANDBOX_CONTENT_BLOCKED'), e.file).toBe(false);
  });

  it('truth.csv gives the four landmarks at their EXIF GPS and two images without GPS at stated places', () => {
    const rows = readFileSync(join(IMAGES, 'truth.csv'), 'utf8').trimEnd().split('\n');
    expect(rows[0]).toBe('file,lat,lng');
    for (const e of manifest.images.filter((x) => x.kind === 'jpeg' && x.lat !== null && (x.lat !== 0 || x.lng !== 0))) expect(rows, e.file).toContain(`${e.file},${e.lat},${e.lng}`);
    expect(rows.slice(1).map((r) => r.split(',')[0])).toEqual(['paris.jpg', 'tokyo.jpg', 'sydney.jpg', 'newyork.jpg', 'nogps.jpg', 'plain.png']);
  });

  it('the non-images are what their names say', () => {
    expect(read('empty.jpg').length).toBe(0);
    expect(read('not-image.jpg').toString('utf8')).toMatch(/not an image/);
  });
});
