/**
 * The fixture HEIC (fixtures/heic/, made by fixtures/make-fixtures.js with heif-enc) holds what its
 * manifest says and its EXIF reads as exiftool reads it; the size of a HEIF is read from its boxes
 * (meta > iprp > ipco > ispe) without decoding; libheif-js decodes the fixture to the picture
 * heif-enc was given.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDimensions } from '../../src/image/dimensions.js';
import { readExif } from '../../src/image/exif.js';
import { openHeif } from '../../src/image/heic.js';
import { readMetadata } from '../../src/image/metadata.js';
import { sniffKind } from '../../src/image/sniff.js';
import { EXIFTOOL, EXIFTOOL_SKIP } from '../export/tools.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const HEIC_DIR = join(ROOT, 'fixtures/heic');
interface Entry { file: string; from: string; width: number; height: number; lat: number; lng: number; size: number }
const manifest = JSON.parse(readFileSync(join(HEIC_DIR, 'manifest.json'), 'utf8')) as { images: Entry[] };
const PARIS = readFileSync(join(HEIC_DIR, 'paris.heic'));
const HEIF_ENC = spawnSync('heif-enc', ['--help'], { stdio: 'ignore' }).status === 0;

/** A box: 32-bit size, type, contents. */
const box = (type: string, ...body: Buffer[]) => {
  const inner = Buffer.concat(body);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + inner.length);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, inner]);
};
const u32 = (...n: number[]) => Buffer.concat(n.map((v) => Buffer.from([v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255])));
const full = (type: string, ...body: Buffer[]) => box(type, u32(0), ...body); // version 0, flags 0
const ftyp = box('ftyp', Buffer.from('heic'), u32(0), Buffer.from('mif1heic'));

describe('fixtures/heic', () => {
  it('paris.heic is a HEIC of paris.jpg\'s picture, with its EXIF GPS, as the manifest says', async () => {
    const [e] = manifest.images;
    expect(e).toMatchObject({ file: 'paris.heic', from: 'paris.jpg', width: 32, height: 24, size: PARIS.length });
    expect(sniffKind(PARIS)).toBe('heic');
    const { gps } = await readExif(PARIS);
    expect(gps!.lat).toBeCloseTo(e!.lat, 6);
    expect(gps!.lng).toBeCloseTo(e!.lng, 6);
  });

  // heif-enc puts the Exif item's position in iloc's base offset, where exifr alone does not look
  // ("Malformed EXIF data"); image/heif-boxes.ts reads the item as exiftool does.
  it.skipIf(!EXIFTOOL)(EXIFTOOL ? 'its EXIF, written by libheif, reads as exiftool -n -j reads it: GPS, camera, time, and the metadata record' : EXIFTOOL_SKIP, async () => {
    const [ref] = JSON.parse(execFileSync('exiftool', ['-n', '-j', join(HEIC_DIR, 'paris.heic')], { encoding: 'utf8' })) as Array<Record<string, unknown>>;
    const exif = await readExif(PARIS);
    expect(exif.errors).toEqual([]);
    expect(Math.abs(exif.gps!.lat - Number(ref!.GPSLatitude))).toBeLessThan(1e-6);
    expect(Math.abs(exif.gps!.lng - Number(ref!.GPSLongitude))).toBeLessThan(1e-6);
    expect([exif.make, exif.model, exif.dateTimeOriginal, exif.offsetTime]).toEqual([ref!.Make, ref!.Model, ref!.DateTimeOriginal, ref!.OffsetTimeOriginal]);
    const meta = await readMetadata(PARIS);
    expect(meta.errors).toBeUndefined();
    for (const tag of ['Make', 'Model', 'DateTimeOriginal', 'GPSLatitude', 'GPSLongitude', 'GPSAltitude']) expect(meta.tags[tag], tag).toEqual(ref![tag]);
  });

  it('libheif-js decodes it to 32x24 RGB close to the JPEG it was made from', async () => {
    const heif = await openHeif(PARIS, 'test');
    try {
      expect([heif.width, heif.height]).toEqual([32, 24]);
      const raw = heif.decode();
      expect([raw.width, raw.height, raw.data.length]).toEqual([32, 24, 32 * 24 * 3]);
      // Lossy twice (JPEG, then HEVC at quality 60), so close, not equal: a few levels on average.
      const { default: sharp } = (await import('sharp' as string)) as { default: (p: string) => { raw(): { toBuffer(): Promise<Buffer> } } };
      const jpeg = await sharp(join(ROOT, 'fixtures/images/paris.jpg')).raw().toBuffer();
      expect(jpeg.length).toBe(raw.data.length);
      const meanDiff = raw.data.reduce((sum, v, i) => sum + Math.abs(v - jpeg[i]!), 0) / jpeg.length;
      console.log(`paris.heic vs paris.jpg: mean difference ${meanDiff.toFixed(2)} levels of 255`);
      expect(meanDiff).toBeLessThan(8);
    } finally {
      heif.free();
    }
  });

  it.skipIf(!HEIF_ENC)(HEIF_ENC ? 'the fixtures script makes the same HEIC files, of the same picture size and GPS' : 'skipped: heif-enc is not installed (apt-get install libheif-examples)', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'geo-heic-fixtures-'));
    try {
      // A path in a variable: the fixtures script is plain JavaScript without type declarations.
      const script = new URL('../../fixtures/heic.js', import.meta.url).href;
      const { writeHeicFixtures } = (await import(script)) as { writeHeicFixtures: (dir: string, imagesDir: string) => unknown };
      writeHeicFixtures(join(tmp, 'heic'), join(ROOT, 'fixtures/images'));
      expect(readdirSync(join(tmp, 'heic')).sort()).toEqual(readdirSync(HEIC_DIR).sort());
      const again = JSON.parse(readFileSync(join(tmp, 'heic', 'manifest.json'), 'utf8')) as { images: Entry[] };
      const shown = (m: { images: Entry[] }) => m.images.map((i) => [i.file, i.from, i.width, i.height, i.lat, i.lng]);
      expect(shown(again)).toEqual(shown(manifest));
      expect((await readExif(readFileSync(join(tmp, 'heic', 'paris.heic')))).gps!.lat).toBeCloseTo(manifest.images[0]!.lat, 6);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('the size of a HEIF, from its boxes', () => {
  it('is the largest ispe of meta > iprp > ipco (a grid\'s tiles and the picture), as in the fixture', () => {
    expect(readDimensions(PARIS, 'heic')).toEqual({ width: 64, height: 64 }); // the coded tile; the picture is cropped to 32x24
    const ipco = box('ipco', full('ispe', u32(512, 512)), full('ispe', u32(4032, 3024)));
    expect(readDimensions(Buffer.concat([ftyp, full('meta', box('iprp', ipco))]), 'heic')).toEqual({ width: 4032, height: 3024 });
  });

  it('never reads the letters "ispe" outside ipco as a size (in image data, or in another box)', () => {
    const planted = Buffer.concat([Buffer.from('ispe'), u32(0, 60000, 60000)]);
    const meta = full('meta', box('iprp', box('ipco', full('ispe', u32(640, 480)))), box('idat', planted));
    expect(readDimensions(Buffer.concat([ftyp, meta, box('mdat', planted)]), 'heic')).toEqual({ width: 640, height: 480 });
    expect(readDimensions(Buffer.concat([ftyp, box('mdat', planted)]), 'heic')).toBeUndefined();
  });

  it('stops at a damaged box size instead of looping, and reads a meta box cut short as far as it goes', () => {
    const damaged = Buffer.concat([ftyp, u32(3), Buffer.from('meta'), Buffer.alloc(32)]);
    expect(readDimensions(damaged, 'heic')).toBeUndefined();
    const meta = full('meta', box('iprp', box('ipco', full('ispe', u32(800, 600)))), box('free', Buffer.alloc(1000)));
    expect(readDimensions(Buffer.concat([ftyp, meta]).subarray(0, ftyp.length + 60), 'heic')).toEqual({ width: 800, height: 600 });
  });
});
