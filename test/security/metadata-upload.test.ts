/**
 * Metadata stays home (issue 14): an independent node:http server (not the sandbox) captures the
 * image bytes geo uploads. By default they carry no EXIF GPS, XMP, IPTC or comment (exiftool, the
 * reference reader, finds none), the JPEG scan data and PNG IDAT are byte for byte the original's,
 * and the orientation survives; with --keep-metadata they are the file exactly.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { storedRecords } from '../helpers/store.js';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIFTOOL, EXIFTOOL_SKIP } from '../export/tools.js';
import { runCli } from '../helpers/run-cli.js';

const IMAGES = join(import.meta.dirname, '../../fixtures/images');
const PHOTOS = join(import.meta.dirname, '../../../shared/photos');
const KEY = 'orca_capture_test_key_0123456789';

const exiftool = EXIFTOOL;
const NO_EXIFTOOL = EXIFTOOL_SKIP;

/** Captures every geolocate body's image and answers one valid result. */
let server: Server;
let url = '';
const captured: Buffer[] = [];
/** When set, the server answers as soon as the request starts, before reading the body. */
let answerEarly = false;
const RESULT = JSON.stringify({ success: true, analysis_id: 'an_capture', location: { latitude: 10, longitude: 20, country: 'X', city: 'Y', neighborhood: '', address: '' }, confidence: 0.5, reasoning: 'captured', model: 'orca-1.5', depth: 1 });

beforeAll(async () => {
  server = createServer((req, res) => {
    if (answerEarly && req.method === 'POST') {
      res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
      res.end(RESULT);
      req.resume();
      return;
    }
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const body = Buffer.concat(parts).toString('utf8');
      if (req.method === 'POST' && req.url === '/api/v1/geolocate') {
        captured.push(Buffer.from((JSON.parse(body) as { image_b64: string }).image_b64, 'base64'));
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(RESULT);
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"success":false,"code":"not_found","message":"no such route"}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Uploads one file through the real program and returns the bytes the server received. */
async function upload(file: string, flags: string[] = []): Promise<{ bytes: Buffer; data: string; stderr: string }> {
  const data = mkdtempSync(join(tmpdir(), 'geo-capture-data-'));
  const env = { GEO_API_KEY: KEY, GEO_BASE_URL: url, GEO_DATA_DIR: data, GEO_STATE_DIR: mkdtempSync(join(tmpdir(), 'geo-capture-state-')) };
  const before = captured.length;
  const r = await runCli(['locate', file, '--json', ...flags], { env });
  expect(r.code, r.stderr).toBe(0);
  expect(captured.length).toBe(before + 1);
  return { bytes: captured[captured.length - 1]!, data, stderr: r.stderr };
}

/** Everything from the first SOS marker to EOI: the entropy-coded picture (T.81 B.2.3). */
function scanData(jpeg: Buffer): Buffer {
  let pos = 2;
  while (jpeg[pos] === 0xff && jpeg[pos + 1] !== 0xda) pos += 2 + jpeg.readUInt16BE(pos + 2);
  const eoi = jpeg.lastIndexOf(Buffer.from([0xff, 0xd9]));
  return jpeg.subarray(pos, eoi + 2);
}

/** The PNG's IDAT payloads, concatenated. */
function idat(png: Buffer): Buffer {
  const out: Buffer[] = [];
  for (let pos = 8; pos + 12 <= png.length; ) {
    const len = png.readUInt32BE(pos);
    if (png.toString('latin1', pos + 4, pos + 8) === 'IDAT') out.push(png.subarray(pos + 8, pos + 8 + len));
    pos += 12 + len;
  }
  return Buffer.concat(out);
}

function segment(marker: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(0xff00 | marker, 0);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

/**
 * paris.jpg (EXIF with GPS, camera, time, orientation) plus every other kind of metadata: XMP with
 * a position, an IPTC (Photoshop APP13) byline, a comment, a maker APP segment and bytes after EOI.
 */
function everythingJpeg(): Buffer {
  const paris = readFileSync(join(IMAGES, 'paris.jpg'));
  const xmp = segment(0xe1, Buffer.from('http://ns.adobe.com/xap/1.0/\0<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="48,51.5N" exif:GPSLongitude="2,17.7E"/></rdf:RDF></x:xmpmeta>', 'latin1'));
  // Photoshop IRB 0x0404 holding IPTC 2:80 By-line "Jane Source".
  const iptc = Buffer.concat([Buffer.from([0x1c, 0x02, 0x50, 0x00, 0x0b]), Buffer.from('Jane Source', 'latin1')]);
  const irb = Buffer.concat([Buffer.from('8BIM', 'latin1'), Buffer.from([0x04, 0x04, 0, 0]), Buffer.from([0, 0, 0, iptc.length]), iptc, Buffer.alloc(iptc.length % 2)]);
  const app13 = segment(0xed, Buffer.concat([Buffer.from('Photoshop 3.0\0', 'latin1'), irb]));
  const com = segment(0xfe, Buffer.from('shot from the roof of 12 Rue Example', 'latin1'));
  const maker = segment(0xea, Buffer.from('MAKER serial 0042', 'latin1'));
  const trailer = Buffer.from('TRAILER: appended preview with its own EXIF', 'latin1');
  return Buffer.concat([paris.subarray(0, 2), paris.subarray(2, 2 + 2 + paris.readUInt16BE(4)), xmp, app13, com, maker, paris.subarray(2 + 2 + paris.readUInt16BE(4)), trailer]);
}

function exifTags(bytes: Buffer): Record<string, unknown> {
  const file = join(mkdtempSync(join(tmpdir(), 'geo-capture-')), 'sent.bin');
  writeFileSync(file, bytes);
  return (JSON.parse(execFileSync('exiftool', ['-json', '-G1', '-a', '-n', file], { encoding: 'utf8' })) as Array<Record<string, unknown>>)[0]!;
}

/** Tags that would tell the service where, who or with what: GPS, XMP, IPTC, comments, camera. */
function revealing(tags: Record<string, unknown>): string[] {
  // exiftool -G1 keys are "Group:Tag". The ICC profile (kept: it is colour, not provenance) names the
  // profile's own maker and model, which say nothing about the photo.
  return Object.keys(tags).filter((k) => !k.startsWith('ICC') && (/^(GPS|XMP[-\w]*|IPTC|Photoshop|ExifIFD|MakerNotes|Samsung\w*|FujiFilm|Nikon\w*)(:|$)/.test(k) || /Comment|GPS|Make|Model|Serial|Artist|Copyright|By-line|DateTimeOriginal/i.test(k)));
}

describe('what the service receives', () => {
  const everything = join(mkdtempSync(join(tmpdir(), 'geo-capture-in-')), 'everything.jpg');
  beforeAll(() => writeFileSync(everything, everythingJpeg()));

  it.skipIf(!exiftool)(exiftool ? 'a JPEG with EXIF GPS, XMP, IPTC, a comment, a maker segment and a trailer: none of it is sent; scan data identical; orientation kept' : NO_EXIFTOOL, async () => {
    const original = readFileSync(everything);
    expect(revealing(exifTags(original)).length).toBeGreaterThan(5); // the test file really carries them
    const { bytes, data } = await upload(everything);
    expect(bytes.includes('TRAILER')).toBe(false);
    expect(bytes.includes('Jane Source')).toBe(false);
    expect(bytes.includes('Rue Example')).toBe(false);
    expect(bytes.includes('MAKER')).toBe(false);
    const tags = exifTags(bytes);
    expect(revealing(tags)).toEqual([]);
    expect(tags['IFD0:Orientation']).toBe(1);
    expect(scanData(bytes).equals(scanData(original))).toBe(true);
    // The provenance record holds both sha256s and what was removed.
    const rec = storedRecords(data)[0] as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(rec.input.sha256).toBe(sha(original));
    expect(rec.sent).toMatchObject({ sha256: sha(bytes), size: bytes.length, metadata: 'removed', orientation: 1 });
    expect(rec.sent.removed.map((r: { what: string }) => r.what)).toEqual(['EXIF (GPS, camera, capture details)', 'XMP', 'IPTC (APP13)', 'comment', 'APP10', 'data after the end of the image']);
  });

  it('a server that answers before reading the body: the record still holds the sha256 of the bytes that were to go out', async () => {
    // A 3 MB picture (padding inside the scan, which removal keeps), so the answer comes mid-upload.
    const big = join(mkdtempSync(join(tmpdir(), 'geo-capture-in-')), 'big.jpg');
    const e = readFileSync(everything);
    const eoi = e.lastIndexOf(Buffer.from([0xff, 0xd9]));
    writeFileSync(big, Buffer.concat([e.subarray(0, eoi), Buffer.alloc(3_000_000, 0x41), e.subarray(eoi)]));
    const env = { GEO_API_KEY: KEY, GEO_BASE_URL: url };
    const dry = JSON.parse((await runCli(['locate', big, '--dry-run', '--json'], { env })).stdout) as { image: { sha256: string; size: number } };
    const data = mkdtempSync(join(tmpdir(), 'geo-capture-data-'));
    answerEarly = true;
    try {
      const r = await runCli(['locate', big, '--json'], { env: { ...env, GEO_DATA_DIR: data, GEO_STATE_DIR: mkdtempSync(join(tmpdir(), 'geo-capture-state-')) } });
      expect(r.code, r.stderr).toBe(0);
    } finally {
      answerEarly = false;
    }
    const rec = storedRecords(data)[0] as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(rec.sent).toMatchObject({ sha256: dry.image.sha256, size: dry.image.size, metadata: 'removed' });
    expect(rec.sent.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('--keep-metadata sends the file byte for byte', async () => {
    const original = readFileSync(everything);
    const { bytes } = await upload(everything, ['--keep-metadata']);
    expect(bytes.equals(original)).toBe(true);
  });

  it.skipIf(!exiftool)(exiftool ? 'a PNG with tEXt: the text is not sent, IDAT identical' : NO_EXIFTOOL, async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'geo-capture-in-')), 'texted.png');
    // plain.png with a tEXt chunk inserted after IHDR (8 + 25 bytes).
    const plain = readFileSync(join(IMAGES, 'plain.png'));
    const text = Buffer.from('Comment\0home address of the source', 'latin1');
    const chunk = Buffer.concat([Buffer.alloc(4), Buffer.from('tEXt'), text, Buffer.alloc(4)]);
    chunk.writeUInt32BE(text.length, 0);
    const { crc32 } = await import('node:zlib');
    chunk.writeUInt32BE(crc32(Buffer.concat([Buffer.from('tEXt'), text])) >>> 0, 8 + text.length);
    writeFileSync(file, Buffer.concat([plain.subarray(0, 33), chunk, plain.subarray(33)]));
    const { bytes } = await upload(file);
    expect(bytes.includes('home address')).toBe(false);
    expect(revealing(exifTags(bytes))).toEqual([]);
    expect(idat(bytes).equals(idat(plain))).toBe(true);
    expect(bytes.equals(plain)).toBe(true); // nothing else differed
  });

  it('a PNG carrying caBX, eXIf, text and two private chunks arrives with none of them, its colour chunks kept and IDAT identical (issue 21)', async () => {
    const { crc32, deflateSync } = await import('node:zlib');
    const chunk = (type: string, data: Buffer | string) => {
      const d = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
      const out = Buffer.alloc(12 + d.length);
      out.writeUInt32BE(d.length, 0);
      out.write(type, 4, 'latin1');
      d.copy(out, 8);
      out.writeUInt32BE(crc32(out.subarray(4, 8 + d.length)) >>> 0, 8 + d.length);
      return out;
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(2, 0);
    ihdr.writeUInt32BE(1, 4);
    ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
    const pixels = deflateSync(Buffer.from([0, 200, 30, 30, 0, 30, 200, 30, 0, 30, 30, 200].slice(0, 7)));
    // An EXIF block without an orientation (big-endian TIFF, one empty IFD): nothing to carry over.
    const exif = Buffer.from([0x4d, 0x4d, 0, 42, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0]);
    const kept = [chunk('IHDR', ihdr), chunk('gAMA', Buffer.from([0, 0, 0xb1, 0x8f])), chunk('sRGB', Buffer.from([0])), chunk('pHYs', Buffer.from([0, 0, 0x0b, 0x13, 0, 0, 0x0b, 0x13, 1])),
      // PNG 3rd edition colour: BT.2100 PQ code points and content light levels.
      chunk('cICP', Buffer.from([9, 16, 0, 1])), chunk('cLLI', Buffer.from([0, 0x0f, 0x42, 0x40, 0, 0x03, 0x0d, 0x40]))];
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ...kept,
      chunk('caBX', 'c2pa manifest: taken at 48.8584,2.2945 by J. Doe'), chunk('eXIf', exif), chunk('tEXt', 'Author\0J. Doe, 12 Rue Example'),
      chunk('prVt', 'private: device serial 0042'), chunk('geOx', 'private: user id 77'), chunk('iTXt', 'Location\0\0\0\0\0Paris'),
      chunk('IDAT', pixels), chunk('tIME', Buffer.from([7, 234, 11, 23, 12, 0, 0])), chunk('IEND', Buffer.alloc(0)),
    ]);
    const file = join(mkdtempSync(join(tmpdir(), 'geo-capture-in-')), 'chunky.png');
    writeFileSync(file, png);
    const { bytes } = await upload(file);
    const types: string[] = [];
    for (let pos = 8; pos + 12 <= bytes.length; pos += 12 + bytes.readUInt32BE(pos)) types.push(bytes.toString('latin1', pos + 4, pos + 8));
    expect(types).toEqual(['IHDR', 'gAMA', 'sRGB', 'pHYs', 'cICP', 'cLLI', 'IDAT', 'IEND']);
    expect(idat(bytes).equals(pixels)).toBe(true);
    expect(bytes.equals(Buffer.concat([png.subarray(0, 8), ...kept, chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]))).toBe(true);
    for (const secret of ['J. Doe', '48.8584', 'serial', 'user id', 'Paris']) expect(bytes.includes(secret), secret).toBe(false);
  });

  const real = (name: string) => join(PHOTOS, name);
  const REAL = ['gps_paris_eiffel_fuji_s2pro.jpg', 'gps_zero_zero_samsung_gt-i9000.jpg', 'gps_italy_nikon_p6000_dscn0010.jpg', 'nogps_progressive_tiny.jpg', 'nogps_png_with_exif_text.png'];
  const present = exiftool && REAL.every((f) => existsSync(real(f)));
  it.skipIf(!present)(present ? 'real photos of ../shared/photos: no GPS, XMP, IPTC or comment reaches the service; the picture bytes are identical; orientation 6 survives' : `skipped: ${exiftool ? `${PHOTOS} is absent` : 'exiftool is not installed'}`, async () => {
    for (const f of REAL) {
      const original = readFileSync(real(f));
      const { bytes } = await upload(real(f));
      const tags = exifTags(bytes);
      expect(revealing(tags), f).toEqual([]);
      if (f.endsWith('.png')) expect(idat(bytes).equals(idat(original)), f).toBe(true);
      else expect(scanData(bytes).equals(scanData(original)), f).toBe(true);
      const orientation = exifTags(original)['IFD0:Orientation'];
      expect(tags['IFD0:Orientation'], f).toBe(orientation);
    }
  });
});
