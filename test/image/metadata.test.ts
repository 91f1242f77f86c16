/**
 * The metadata JSON geo keeps of an original before stripping it (issue 31, item 4): keyed and
 * valued as `exiftool -j -n` prints them. exiftool (the reference reader) is run on the same files
 * and must agree on every key geo promises (GPS position, capture time, camera), for the fixtures
 * and, when present, the real photos of ../shared/photos; XMP and IPTC written by exiftool itself
 * come back under exiftool's names; the JSON is capped at 256 KB and says what it left out.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_METADATA_JSON_BYTES, readMetadata } from '../../src/image/metadata.js';
import { bufferSource, joinPlan, planStrip } from '../../src/image/strip.js';
import { EXIFTOOL, EXIFTOOL_SKIP } from '../export/tools.js';

const IMAGES = join(import.meta.dirname, '../../fixtures/images');
const PHOTOS = join(import.meta.dirname, '../../../shared/photos');

/** The keys geo promises to print as exiftool does, whenever exiftool prints them. */
const KEYS = ['GPSLatitude', 'GPSLongitude', 'GPSAltitude', 'DateTimeOriginal', 'OffsetTimeOriginal', 'Make', 'Model', 'Software', 'Orientation', 'LensModel', 'ExposureTime', 'FNumber', 'ISO', 'FocalLength', 'GPSTimeStamp', 'GPSDateStamp', 'GPSImgDirection', 'Copyright', 'Artist'];

/** exiftool -j -n of each file, in one run, with the group each tag came from (-G1 changes no name or value). */
function exiftool(files: string[]): Array<Map<string, { group: string; value: unknown }>> {
  // exiftool exits 1 on a file it finds broken, yet prints what it read.
  const out = execFileSync('sh', ['-c', 'exiftool -j -n -G1 "$@"; true', 'sh', ...files], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return (JSON.parse(out) as Array<Record<string, unknown>>).map((r) => new Map(Object.entries(r).map(([k, value]) => [k.split(':').pop()!, { group: k.split(':')[0]!, value }])));
}

/** Groups geo reads; a tag exiftool took from elsewhere (a camera maker's notes, which geo keeps as bytes) is not compared. */
const READ = /^(IFD0|ExifIFD|GPS|InteropIFD|IFD1|IPTC|XMP-.*|ICC_Profile|JFIF|PNG|Composite)$/;

/** Equal as exiftool prints it: numbers to a part in a million (it prints 10-15 digits), strings without trailing padding. */
function same(ours: unknown, theirs: unknown): boolean {
  if (typeof theirs === 'number' || typeof ours === 'number') return Math.abs(Number(ours) - Number(theirs)) <= 1e-6 * Math.max(1, Math.abs(Number(theirs)));
  if (typeof theirs === 'string' && typeof ours === 'string') return ours.trimEnd() === theirs.trimEnd();
  return JSON.stringify(ours) === JSON.stringify(theirs);
}

/** Every file's disagreements with exiftool on KEYS, and how many values were compared. */
async function compare(files: string[]): Promise<{ checked: number; mismatches: string[] }> {
  const all = exiftool(files);
  const mismatches: string[] = [];
  let checked = 0;
  for (const [i, file] of files.entries()) {
    const ours = (await readMetadata(readFileSync(file))).tags;
    for (const k of KEYS) {
      const t = all[i]!.get(k);
      if (!t || !READ.test(t.group)) continue;
      checked++;
      if (!same(ours[k], t.value)) mismatches.push(`${file}: ${k}: geo ${JSON.stringify(ours[k])}, exiftool ${JSON.stringify(t.value)}`);
    }
  }
  return { checked, mismatches };
}

describe('the metadata JSON kept before stripping', () => {
  it.skipIf(!EXIFTOOL)(EXIFTOOL ? 'agrees with exiftool -j -n on position, time and camera for every fixture JPEG' : EXIFTOOL_SKIP, async () => {
    const files = readdirSync(IMAGES).filter((f) => f.endsWith('.jpg') && !['empty.jpg', 'not-image.jpg'].includes(f));
    expect(files.length).toBeGreaterThan(5);
    const { checked, mismatches } = await compare(files.map((f) => join(IMAGES, f)));
    expect(mismatches).toEqual([]);
    expect(checked).toBeGreaterThan(30);
    const paris = (await readMetadata(readFileSync(join(IMAGES, 'paris.jpg')))).tags;
    expect(paris).toMatchObject({ Make: 'Apple', Model: 'iPhone 13', DateTimeOriginal: '2024:05:14 18:32:07', GPSLatitude: 48.85837, ExifVersion: '0232', GPSVersionID: '2 3 0 0' });
    expect(paris.GPSLongitude).toBeCloseTo(2.294481, 9);
  });

  const photos = existsSync(PHOTOS) ? readdirSync(PHOTOS).filter((f) => /\.(jpe?g|png|heic)$/i.test(f)) : [];
  const why = !EXIFTOOL ? EXIFTOOL_SKIP : photos.length === 0 ? `skipped: ${PHOTOS} is absent` : '';
  it.skipIf(why !== '')(why || 'agrees with exiftool -j -n on the real photos of ../shared/photos (southern and western hemispheres, HEIC, PNG, broken ones)', async () => {
    const { checked, mismatches } = await compare(photos.map((f) => join(PHOTOS, f)));
    expect(mismatches).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });

  it.skipIf(!EXIFTOOL)(EXIFTOOL ? 'XMP and IPTC written by exiftool come back under the names and values exiftool reads' : EXIFTOOL_SKIP, async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'geo-meta-')), 'tagged.jpg');
    copyFileSync(join(IMAGES, 'paris.jpg'), file);
    execFileSync('exiftool', ['-q', '-overwrite_original', '-XMP-dc:Title=Tour Eiffel', '-XMP-dc:Creator=Ann Analyst', '-XMP-photoshop:City=Paris & Co', '-XMP-xmp:Rating=4',
      '-XMP-xmp:CreateDate=2024:05:14 18:32:07+02:00', '-IPTC:Keywords=tower', '-IPTC:Keywords=paris', '-IPTC:By-line=Ann', '-IPTC:DateCreated=2024:05:14', file]);
    const ours = (await readMetadata(readFileSync(file))).tags;
    const theirs = exiftool([file])[0]!;
    for (const k of ['Title', 'Creator', 'City', 'Rating', 'Keywords', 'By-line', 'DateCreated', 'ApplicationRecordVersion']) expect(ours[k], k).toEqual(theirs.get(k)?.value);
    expect(ours.City).toBe('Paris & Co');
    // EXIF has no CreateDate here; XMP's is printed as exiftool does.
    expect(ours.CreateDate).toBe(theirs.get('CreateDate')?.value);
    // The EXIF position wins the plain name; XMP's own tags keep theirs.
    expect(ours.GPSLatitude).toBeCloseTo(48.85837, 6);
  });

  it('what geo uploads of paris.jpg says nothing but its orientation; the original says all of it', async () => {
    const original = readFileSync(join(IMAGES, 'paris.jpg'));
    const sent = joinPlan(original, await planStrip(bufferSource(original), 'jpeg'));
    expect(await readMetadata(sent)).toEqual({ format: 'exiftool -j -n', tags: { Orientation: 1 } });
    expect(Object.keys((await readMetadata(original)).tags).length).toBeGreaterThan(15);
  });

  it.skipIf(!EXIFTOOL)(EXIFTOOL ? 'bounded: a 300 KB XMP description is left out, the JSON stays under 256 KB and says so' : EXIFTOOL_SKIP, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'geo-meta-'));
    const file = join(dir, 'big.png');
    copyFileSync(join(IMAGES, 'plain.png'), file);
    writeFileSync(join(dir, 'desc.txt'), 'A'.repeat(300_000));
    execFileSync('exiftool', ['-q', '-overwrite_original', `-XMP-dc:Description<=${join(dir, 'desc.txt')}`, '-XMP-dc:Title=Big', file]);
    const m = await readMetadata(readFileSync(file));
    expect(Buffer.byteLength(JSON.stringify(m.tags))).toBeLessThanOrEqual(MAX_METADATA_JSON_BYTES);
    expect(m.truncated).toMatchObject({ omitted: 1, first_omitted: ['Description'] });
    expect(m.truncated!.bytes).toBeGreaterThan(300_000);
    expect(m.tags.Title).toBe('Big');
  });
});
