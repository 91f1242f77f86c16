/**
 * EXIF against values verified with `exiftool -n` (Image-ExifTool 12.57) on ../shared/photos, and
 * against the repo's own fixtures. The shared photos are optional here: without them those cases
 * are skipped, saying why.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readExif, readExifGps } from '../../src/image/exif.js';

const PHOTOS = new URL('../../../shared/photos/', import.meta.url).pathname;
const HAVE_PHOTOS = existsSync(PHOTOS);
const FIXTURES = new URL('../../fixtures/images/', import.meta.url).pathname;

type Want = { lat?: number; lng?: number; alt?: number; dir?: number; date?: string; offset?: string; make?: string; model?: string; lens?: string; software?: string };
// From: exiftool -n -j -GPSLatitude -GPSLongitude -GPSAltitude -GPSImgDirection -DateTimeOriginal
//       -OffsetTimeOriginal -Make -Model -LensModel -Software
const EXIFTOOL: Record<string, Want> = {
  'gps_croatia_iphonexr_tiny.jpg': { lat: 43.8594694444444, lng: 15.5032833333333, alt: 0.9, dir: 174.0660173, date: '2020:09:02 18:52:42', make: 'Apple', model: 'iPhone XR', lens: 'iPhone XR back camera 4.25mm f/1.8', software: 'paint.net 4.2.13' },
  'gps_germany_samsung_sm-g930f_nodate.jpg': { lat: 51.025, lng: 7.59194444444444, alt: 340, dir: 291.39, make: 'samsung', model: 'SM-G930F' },
  'gps_italy_nikon_p6000_dscn0010.jpg': { lat: 43.4674483333333, lng: 11.8851266666639, date: '2008:10:22 16:28:39', make: 'NIKON', model: 'COOLPIX P6000', software: 'Nikon Transfer 1.1 W' },
  'gps_italy_nikon_p6000_dscn0029.jpg': { lat: 43.4682433333306, lng: 11.8801716666389, date: '2008:10:22 16:46:53', make: 'NIKON', model: 'COOLPIX P6000', software: 'Nikon Transfer 1.1 W' },
  'gps_kenya_kodak_cx7530.jpg': { lat: -0.3713, lng: 36.0564166666667, date: '2005:08:13 09:47:23', make: 'EASTMAN KODAK COMPANY', model: 'KODAK CX7530 ZOOM DIGITAL CAMERA', software: 'GIMP 2.4.5' },
  'gps_michigan_nomake.jpg': { lat: 43.6873944444444, lng: -85.4835194444444, alt: -848 },
  'gps_milan_htc_desire.jpg': { lat: 45.5006666666667, lng: 9.11033333333333, alt: 217, date: '2011:05:06 09:59:48', make: 'HTC', model: 'HTC Desire' },
  'gps_mongolia_iphone11pro_exif-at-eof.heic': { lat: 47.2071240555639, lng: 106.243105095844, date: '2020:05:04 18:39:11', offset: '-04:00', make: 'Apple', model: 'iPhone 11 Pro', lens: 'iPhone 11 Pro back triple camera 4.25mm f/1.8', software: '13.4.1' },
  'gps_paris_eiffel_fuji_s2pro.jpg': { lat: 48.8578333333333, lng: 2.297, date: '2002:08:24 13:59:08', make: 'FUJIFILM', model: 'FinePixS2Pro', software: 'Adobe Photoshop 7.0' },
  'gps_uk_fuji_s2pro_a.jpg': { lat: 54.9135, lng: -1.58883333333333, date: '2002:09:01 12:03:56', make: 'FUJIFILM', model: 'FinePixS2Pro', software: 'Adobe Photoshop 7.0' },
  'gps_wales_fuji_s2pro_b.jpg': { lat: 51.8466666666667, lng: -3.33783333333333, date: '2002:07:28 15:50:05', make: 'FUJIFILM', model: 'FinePixS2Pro', software: 'Adobe Photoshop 7.0' },
  'gps_zero_zero_samsung_gt-i9000.jpg': { lat: 0, lng: 0, alt: 0, date: '2011:04:02 18:30:10', make: 'SAMSUNG', model: 'GT-I9000', software: 'fw 05.15 prm 07.53' },
  'nogps_canon_40d.jpg': { date: '2008:05:30 15:56:01', make: 'Canon', model: 'Canon EOS 40D', software: 'GIMP 2.4.5' },
  'nogps_cmyk_progressive.jpg': { software: 'Adobe Photoshop CS Windows' },
  'nogps_progressive_tiny.jpg': {},
  'odd_broken_gps_ifd_nikon_d1x.jpg': { date: '2003:08:06 18:04:34', make: 'NIKON CORPORATION', model: 'NIKON D1X', software: 'Ver.5.01' },
  'odd_truncated24k_of_dscn0010.jpg': { lat: 43.4674483333333, lng: 11.8851266666639, date: '2008:10:22 16:28:39', make: 'NIKON', model: 'COOLPIX P6000', software: 'Nikon Transfer 1.1 W' },
  'odd_truncated_fuzz.jpg': {},
  'nogps_png_plain.png': {},
  'nogps_png_with_exif_text.png': { software: 'Acme-software: 1.0.0.0' },
};

describe('readExif on ../shared/photos (values as exiftool -n)', () => {
  for (const [file, want] of Object.entries(EXIFTOOL)) {
    it.skipIf(!HAVE_PHOTOS)(`${file}${HAVE_PHOTOS ? '' : ' (skipped: ../shared/photos is not present)'}`, async () => {
      const got = await readExif(readFileSync(PHOTOS + file));
      if (want.lat === undefined) expect(got.gps).toBeUndefined();
      else {
        expect(Math.abs(got.gps!.lat - want.lat)).toBeLessThan(1e-6);
        expect(Math.abs(got.gps!.lng - want.lng!)).toBeLessThan(1e-6);
      }
      if (want.alt !== undefined) expect(got.gps?.altitude).toBeCloseTo(want.alt, 6);
      else expect(got.gps?.altitude).toBeUndefined();
      if (want.dir !== undefined) expect(got.gps?.direction).toBeCloseTo(want.dir, 6);
      expect(got.dateTimeOriginal).toBe(want.date);
      expect(got.offsetTime).toBe(want.offset);
      expect(got.make).toBe(want.make);
      expect(got.model).toBe(want.model);
      expect(got.lens).toBe(want.lens);
      expect(got.software).toBe(want.software);
    });
  }

  it.skipIf(!HAVE_PHOTOS)('flags 0,0 as suspect and readExifGps drops it', async () => {
    const buf = readFileSync(PHOTOS + 'gps_zero_zero_samsung_gt-i9000.jpg');
    expect((await readExif(buf)).gps?.suspect).toBe('zero');
    expect(await readExifGps(buf)).toBeUndefined();
    expect(await readExifGps(readFileSync(PHOTOS + 'gps_paris_eiffel_fuji_s2pro.jpg'))).toEqual({ lat: expect.closeTo(48.857833, 6), lng: 2.297 });
  });

  it.skipIf(!HAVE_PHOTOS)('reports why a broken file lost its GPS, and still reads the rest', async () => {
    const d1x = await readExif(readFileSync(PHOTOS + 'odd_broken_gps_ifd_nikon_d1x.jpg'));
    expect(d1x.errors.join(' ')).toMatch(/block: GPS/);
    expect(d1x.make).toBe('NIKON CORPORATION');
    const fuzz = await readExif(readFileSync(PHOTOS + 'odd_truncated_fuzz.jpg'));
    expect(fuzz.errors.join(' ')).toMatch(/outside the bounds/);
  });

  it.skipIf(!HAVE_PHOTOS)('a GPS block with no position (GPSVersionID only, as GIMP leaves it) is no GPS, not an unreadable one (issue 22)', async () => {
    const canon = await readExif(readFileSync(PHOTOS + 'nogps_canon_40d.jpg'));
    expect(canon.gps).toBeUndefined();
    expect(canon.gpsUnreadable).toBeUndefined();
    expect((await readExif(readFileSync(PHOTOS + 'odd_broken_gps_ifd_nikon_d1x.jpg'))).gpsUnreadable).toBe(true);
  });
});

describe('readExif on the repo fixtures', () => {
  const manifest = JSON.parse(readFileSync(FIXTURES + 'manifest.json', 'utf8')) as { images: Array<Record<string, unknown>> };
  for (const img of manifest.images.filter((i) => i.kind === 'jpeg' || i.kind === 'png')) {
    it(`${img.file as string}`, async () => {
      const got = await readExif(readFileSync(FIXTURES + (img.file as string)));
      if (typeof img.lat === 'number') {
        expect(got.gps?.lat).toBeCloseTo(img.lat, 6);
        expect(got.gps?.lng).toBeCloseTo(img.lng as number, 6);
        expect(got.gps?.suspect).toBe(img.lat === 0 && img.lng === 0 ? 'zero' : undefined);
      } else expect(got.gps).toBeUndefined();
      expect(got.make).toBe(img.Make ?? undefined);
      expect(got.dateTimeOriginal).toBe(img.DateTimeOriginal ?? undefined);
      expect(got.offsetTime).toBe(img.OffsetTimeOriginal ?? undefined);
    });
  }

  it('never throws: a text file and a truncated JPEG give errors or nothing', async () => {
    const text = await readExif(readFileSync(FIXTURES + 'not-image.jpg'));
    expect(text.errors.length).toBeGreaterThan(0);
    const trunc = await readExif(readFileSync(FIXTURES + 'truncated.jpg'));
    expect(trunc).toHaveProperty('errors');
    expect(await readExif(new Uint8Array(0))).toHaveProperty('errors');
  });
});
