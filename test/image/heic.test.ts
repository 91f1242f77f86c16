/**
 * HEIC input through the built program, against the independent charging server, which keeps the
 * bytes it receives: the real iPhone HEIC of ../shared/photos is located (its GPS read locally from
 * the original matches exiftool's, the upload is a JPEG without metadata, the case's input_hashed
 * names the original); a folder of phone photos is located whole (it used to end in exit 7, its
 * HEIC skipped); a HEIC claiming 200 MP is refused from its header, before the decoder is even
 * loaded, and one whose header lies beyond what geo reads is refused from libheif's parse, before
 * decoding. Random bytes named .heic are a row of the bad-input table (test/bad-input/cases.ts).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downscaleToFit } from '../../src/batch/convert.js';
import { parseEntry } from '../../src/evidence/custody.js';
import { DIMENSIONS_HEAD_BYTES, readDimensions } from '../../src/image/dimensions.js';
import { openHeif } from '../../src/image/heic.js';
import { sniffKind } from '../../src/image/sniff.js';
import { EXIFTOOL, EXIFTOOL_SKIP } from '../export/tools.js';
import { type ChargingServer, startChargingServer } from '../helpers/charging-server.js';
import { spawnGeo } from '../helpers/run-cli.js';
import { FIXTURES } from '../helpers/sandbox.js';
import { dbRows } from '../helpers/store.js';

const PHOTO = join(import.meta.dirname, '../../../shared/photos/gps_mongolia_iphone11pro_exif-at-eof.heic');
const FIXTURE = readFileSync(new URL('../../fixtures/heic/paris.heic', import.meta.url));
const RECORD_REQUIRES = new URL('../helpers/record-requires.cjs', import.meta.url).pathname;
const CLAIM = 'the image claims 16,000 x 12,500 pixels (200 MP), above the 120 MP geo decodes locally';
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let server: ChargingServer;
beforeAll(async () => (server = await startChargingServer({ delayMs: 0, keepImages: true })));
afterAll(() => server.close());

/** geo as a user runs it, with a machine of its own; what it required is listed in `requires()`. */
function machine() {
  const home = mkdtempSync(join(tmpdir(), 'geo-heic-'));
  const list = join(home, 'requires.txt');
  writeFileSync(list, '');
  const env = { GEO_API_KEY: 'orca_heic_test_key_0123456789', GEO_BASE_URL: server.url, GEO_DATA_DIR: join(home, 'data'), GEO_STATE_DIR: join(home, 'state'), NODE_OPTIONS: `--require ${RECORD_REQUIRES}`, GEO_TEST_REQUIRES_FILE: list };
  return { home, data: env.GEO_DATA_DIR, run: (argv: string[]) => spawnGeo(argv, { env }), decoderLoaded: () => /libheif-js/.test(readFileSync(list, 'utf8')) };
}

/** JPEG APPn markers before the first scan (APP1: EXIF and XMP; APP13: IPTC). */
function appMarkers(b: Buffer): number[] {
  const out: number[] = [];
  for (let pos = 2; b[pos] === 0xff && b[pos + 1] !== 0xda; pos += 2 + b.readUInt16BE(pos + 2)) if (b[pos + 1]! >= 0xe0 && b[pos + 1]! <= 0xef) out.push(b[pos + 1]!);
  return out;
}

/** Top-level boxes: [type, start, end]. */
function topBoxes(b: Buffer): Array<[string, number, number]> {
  const out: Array<[string, number, number]> = [];
  for (let p = 0; p + 8 <= b.length; p += b.readUInt32BE(p)) out.push([b.toString('latin1', p + 4, p + 8), p, p + b.readUInt32BE(p)]);
  return out;
}

/**
 * The fixture HEIC claiming 16000x12500 in every ispe, its coded data zeroed: were it decoded,
 * libheif would fail with its own error ("Decoder plugin generated an error"), not geo's refusal.
 */
function claims200MP(): Buffer {
  const b = Buffer.from(FIXTURE);
  const [, mdat] = topBoxes(b).find(([t]) => t === 'mdat')!;
  for (let p = b.indexOf('ispe'); p !== -1 && p < mdat; p = b.indexOf('ispe', p + 4)) {
    b.writeUInt32BE(16000, p + 8);
    b.writeUInt32BE(12500, p + 12);
  }
  b.fill(0, mdat + 8);
  return b;
}

/** The same with its meta box moved after the image data, 300 KB on: beyond the header geo reads. */
function metaAtTheEnd(b: Buffer): Buffer {
  const boxes = topBoxes(b);
  const part = (type: string) => b.subarray(...boxes.find(([t]) => t === type)!.slice(1) as [number, number]);
  const free = (n: number) => Buffer.concat([Buffer.from([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]), Buffer.from('free'), Buffer.alloc(n - 8)]);
  const meta = part('meta');
  // A free box where meta was keeps the image data where iloc says it is.
  return Buffer.concat([part('ftyp'), free(meta.length), part('mdat'), free(300_000), meta]);
}

describe('HEIC input, located by the built program', () => {
  const why = !existsSync(PHOTO) ? `skipped: ${PHOTO} is absent` : !EXIFTOOL ? EXIFTOOL_SKIP : '';
  it.skipIf(why !== '')(why || 'the real iPhone HEIC: GPS read locally as exiftool reads it (1e-6°), uploaded as a JPEG without metadata, input_hashed names the original', async () => {
    const m = machine();
    expect((await m.run(['cases', 'create', '--name', 'Steppe', '--local'])).code).toBe(0);
    const before = server.sent.length;
    const r = await m.run(['locate', PHOTO, '--case', 'Steppe', '--format', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('converted HEIC to JPEG for upload');
    const original = readFileSync(PHOTO);
    const [ref] = JSON.parse(execFileSync('exiftool', ['-n', '-j', PHOTO], { encoding: 'utf8' })) as Array<Record<string, number>>;
    const rec = JSON.parse(r.stdout) as { sha256: string; ok: boolean; exif: { exifPoint: { lat: number; lng: number } } };
    expect(rec).toMatchObject({ ok: true, sha256: sha(original) });
    expect(Math.abs(rec.exif.exifPoint.lat - ref!.GPSLatitude!)).toBeLessThan(1e-6);
    expect(Math.abs(rec.exif.exifPoint.lng - ref!.GPSLongitude!)).toBeLessThan(1e-6);

    // What went out: one JPEG of the picture, nothing of the original's metadata.
    expect(server.sent.length).toBe(before + 1);
    const up = server.sent[server.sent.length - 1]!.bytes!;
    expect(sniffKind(up)).toBe('jpeg');
    expect(readDimensions(up, 'jpeg')).toEqual({ width: 3024, height: 4032 });
    expect(appMarkers(up).filter((x) => x !== 0xe0)).toEqual([]); // no EXIF, XMP, ICC, IPTC segment: a bare JFIF
    const sent = join(m.home, 'sent.jpg');
    writeFileSync(sent, up);
    const [seen] = JSON.parse(execFileSync('exiftool', ['-n', '-j', '-G1', sent], { encoding: 'utf8' })) as Array<Record<string, unknown>>;
    expect(Object.keys(seen!).filter((k) => /^(IFD|ExifIFD|GPS|XMP|IPTC|ICC|Apple|MakerNotes)/.test(k))).toEqual([]);

    // The case: the original hashed with what it said about itself, and the JPEG named as what was sent.
    const caseId = dbRows<{ id: string }>(m.data, "SELECT id FROM cases WHERE name = 'Steppe'")[0]!.id;
    const log = dbRows<{ line: string }>(m.data, 'SELECT line FROM custody WHERE case_id = ? ORDER BY seq', caseId).map((x) => parseEntry(x.line));
    const hashed = log.find((e) => e.event === 'input_hashed')!.data;
    expect(hashed.input).toEqual({ path: PHOTO, sha256: sha(original), size: original.length });
    const tags = (JSON.parse(hashed.metadata_json as string) as { tags: Record<string, number> }).tags;
    expect(Math.abs(tags.GPSLatitude! - ref!.GPSLatitude!)).toBeLessThan(1e-6);
    expect(Math.abs(tags.GPSLongitude! - ref!.GPSLongitude!)).toBeLessThan(1e-6);
    expect(log.find((e) => e.event === 'request_sent')!.data.request).toMatchObject({ input_sha256: sha(original), sha256: sha(up), size: up.length });
    expect(m.decoderLoaded()).toBe(true);
  }, 60_000);

  it('a folder of phone photos, HEIC beside JPEG, is located whole: exit 0, nothing skipped, the HEIC sent as JPEG', async () => {
    const m = machine();
    const dir = join(m.home, 'DCIM');
    execFileSync('mkdir', [dir]);
    writeFileSync(join(dir, 'IMG_0001.HEIC'), FIXTURE);
    copyFileSync(join(FIXTURES, 'tokyo.jpg'), join(dir, 'IMG_0002.JPG'));
    const before = server.sent.length;
    const r = await m.run(['locate', dir, '--format', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/skipped/);
    const recs = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { input: string; sha256: string; ok: boolean; exif: { exifPoint?: { lat: number; lng: number } } });
    expect(recs.map((x) => [x.input.replace(/.*\//, ''), x.ok])).toEqual([['IMG_0001.HEIC', true], ['IMG_0002.JPG', true]]);
    // The record names the HEIC itself, and its GPS was read from it before the conversion.
    expect(recs[0]!.sha256).toBe(sha(FIXTURE));
    expect(recs[0]!.exif.exifPoint).toEqual({ lat: 48.85837, lng: 2.294481 });
    expect(server.sent.slice(before).map((s) => sniffKind(s.bytes!))).toEqual(['jpeg', 'jpeg']);
    // Its perceptual hash too, from libheif's pixels (sharp's libvips has no HEVC decoder).
    expect(r.stderr).not.toMatch(/no perceptual hash/);
    expect(dbRows<{ sha256: string }>(m.data, 'SELECT sha256 FROM perceptual ORDER BY sha256').map((x) => x.sha256)).toContain(sha(FIXTURE));
  }, 60_000);
});

describe('a HEIC is bounded like every other input', () => {
  it('one whose header claims 200 MP is refused from that header: exit 2, one line, nothing sent, the decoder never loaded', async () => {
    const m = machine();
    const file = join(m.home, 'IMG_0003.HEIC');
    writeFileSync(file, claims200MP());
    const before = server.sent.length;
    const r = await m.run(['locate', file]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringContaining(`error: ${file}: ${CLAIM} (a decompression bomb?); nothing was sent`)]);
    expect(server.sent.length).toBe(before);
    expect(m.decoderLoaded()).toBe(false);
  }, 60_000);

  it('decoded instead, the same bytes would fail otherwise: libheif reads the claim, and its decoder fails on the zeroed data', async () => {
    const heif = await openHeif(claims200MP(), 'test');
    try {
      expect([heif.width, heif.height]).toEqual([16000, 12500]);
      expect(() => heif.decode()).toThrow(/Decoder plugin generated an error/);
    } finally {
      heif.free();
    }
  });

  it('one whose size lies beyond the header geo reads (meta after the image data) is refused from libheif\'s parse, before decoding', async () => {
    const m = machine();
    const bytes = metaAtTheEnd(claims200MP());
    expect(readDimensions(bytes.subarray(0, DIMENSIONS_HEAD_BYTES), 'heic')).toBeUndefined();
    const file = join(m.home, 'IMG_0004.HEIC');
    writeFileSync(file, bytes);
    const before = server.sent.length;
    const r = await m.run(['locate', file]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('error:'))).toEqual([expect.stringContaining(`${file}: ${CLAIM}`)]);
    expect(r.stderr).not.toMatch(/Decoder plugin/);
    expect(server.sent.length).toBe(before);
    expect(m.decoderLoaded()).toBe(true);
  }, 60_000);

  it('a HEIC header over random bytes: exit 2, libheif\'s reason on the error line, nothing sent', async () => {
    const m = machine();
    const file = join(m.home, 'IMG_0005.HEIC');
    writeFileSync(file, Buffer.concat([FIXTURE.subarray(0, 28), createHash('sha512').update('noise').digest(), Buffer.alloc(2000, 0x5a)]));
    const before = server.sent.length;
    const r = await m.run(['locate', file]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('error:'))).toEqual([expect.stringMatching(/: cannot convert HEIC to JPEG \(libheif: .+\); nothing was sent — hint: a partial or damaged file/)]);
    expect(server.sent.length).toBe(before);
  }, 60_000);

  it('--downscale decodes a HEIC through libheif as conversion does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'geo-heic-down-'));
    writeFileSync(join(dir, 'a.heic'), FIXTURE);
    const jpeg = await downscaleToFit('a.heic', join(dir, 'a.heic'), 'heic');
    expect([sniffKind(jpeg), readDimensions(jpeg, 'jpeg')]).toEqual(['jpeg', { width: 32, height: 24 }]);
  });
});
