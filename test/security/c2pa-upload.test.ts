/**
 * Provenance kept before stripping, none of it sent (issue 31, item 4). An independent node:http
 * server (not the sandbox) captures the image bytes geo uploads of photos carrying C2PA content
 * credentials and EXIF GPS (signed in the test: test/helpers/c2pa-sign.ts): the upload holds no
 * manifest (no JUMBF box, no APP11, no caBX) and no EXIF (exiftool finds none), while the store
 * kept, under the original's sha256, its metadata as exiftool-style JSON and its C2PA summary,
 * which a case's input_hashed entry carries too.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEntry } from '../../src/evidence/custody.js';
import { verifyChain } from '../../src/evidence/custody-verify.js';
import { EXIFTOOL, EXIFTOOL_SKIP } from '../export/tools.js';
import { makePki, signImage } from '../helpers/c2pa-sign.js';
import { runCli } from '../helpers/run-cli.js';
import { dbRows } from '../helpers/store.js';

const IMAGES = join(import.meta.dirname, '../../fixtures/images');
const KEY = 'orca_capture_test_key_0123456789';
const RESULT = JSON.stringify({ success: true, analysis_id: 'an_c2pa', location: { latitude: 10, longitude: 20, country: 'X', city: 'Y', neighborhood: '', address: '' }, confidence: 0.5, reasoning: 'captured', model: 'orca-1.5', depth: 1 });
const dir = mkdtempSync(join(tmpdir(), 'geo-c2pa-upload-'));
const jpeg = join(dir, 'signed.jpg');
const png = join(dir, 'signed.png');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let server: Server;
let url = '';
const captured: Buffer[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/api/v1/geolocate') {
        captured.push(Buffer.from((JSON.parse(Buffer.concat(parts).toString('utf8')) as { image_b64: string }).image_b64, 'base64'));
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(RESULT);
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"success":false,"code":"not_found","message":"no such route"}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const pki = makePki();
  const generator = { name: 'geo-test-camera', version: '1.0' };
  writeFileSync(jpeg, await signImage(readFileSync(join(IMAGES, 'paris.jpg')), pki, { title: 'paris.jpg', generator, format: 'image/jpeg' }));
  writeFileSync(png, await signImage(readFileSync(join(IMAGES, 'plain.png')), pki, { title: 'plain.png', generator, format: 'image/png' }));
}, 60_000);
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** Locates one file through the real program; the bytes the server received and the data folder. */
async function upload(file: string, flags: string[] = [], data = mkdtempSync(join(tmpdir(), 'geo-c2pa-data-'))): Promise<{ bytes: Buffer; data: string }> {
  const before = captured.length;
  const r = await runCli(['locate', file, '--json', ...flags], { env: { GEO_API_KEY: KEY, GEO_BASE_URL: url, GEO_DATA_DIR: data, GEO_STATE_DIR: mkdtempSync(join(tmpdir(), 'geo-c2pa-state-')) } });
  expect(r.code, r.stderr).toBe(0);
  expect(captured.length).toBe(before + 1);
  return { bytes: captured[captured.length - 1]!, data };
}

/** JPEG APPn markers before the first scan. */
function appMarkers(b: Buffer): number[] {
  const out: number[] = [];
  for (let pos = 2; b[pos] === 0xff && b[pos + 1] !== 0xda; pos += 2 + b.readUInt16BE(pos + 2)) if (b[pos + 1]! >= 0xe0 && b[pos + 1]! <= 0xef) out.push(b[pos + 1]!);
  return out;
}

const stored = (data: string, sha256: string) => dbRows<{ sha256: string; read_at: string; metadata: string; c2pa: string }>(data, 'SELECT sha256, read_at, metadata, c2pa FROM embedded WHERE sha256 = ?', sha256)[0];

describe('a photo with content credentials, located', () => {
  it.skipIf(!EXIFTOOL)(EXIFTOOL ? 'JPEG: the upload carries neither the manifest (APP11 JUMBF) nor EXIF; the store kept both, under the original\'s sha256' : EXIFTOOL_SKIP, async () => {
    const original = readFileSync(jpeg);
    expect(appMarkers(original)).toContain(0xeb); // the test file really carries them
    expect(original.includes('jumb')).toBe(true);
    const { bytes, data } = await upload(jpeg);
    expect(appMarkers(bytes)).not.toContain(0xeb);
    for (const s of ['jumb', 'jumd', 'c2pa', 'Geo Test Signer', 'geo-test-camera']) expect(bytes.includes(s), s).toBe(false);
    const sent = join(dir, 'sent.jpg');
    writeFileSync(sent, bytes);
    const tags = (JSON.parse(execFileSync('exiftool', ['-j', '-n', '-G1', sent], { encoding: 'utf8' })) as Array<Record<string, unknown>>)[0]!;
    expect(Object.keys(tags).filter((k) => /^(GPS|ExifIFD|XMP|IPTC|JUMBF|C2PA)/.test(k) || /GPS|Make|Model/.test(k))).toEqual([]);
    // What the original said about itself, kept at home.
    const row = stored(data, sha(original))!;
    expect(row).toBeDefined();
    const metadata = JSON.parse(row.metadata);
    expect(metadata).toMatchObject({ format: 'exiftool -j -n', tags: { Make: 'Apple', Model: 'iPhone 13', DateTimeOriginal: '2024:05:14 18:32:07' } });
    expect(metadata.tags.GPSLatitude).toBeCloseTo(48.85837, 6);
    expect(JSON.parse(row.c2pa)).toMatchObject({ present: true, claim_generator: 'geo-test-camera 1.0', signer: { name: 'Geo Test Signer (geo tests)' }, validation: { state: 'valid' } });
    // Nothing is kept under the sha256 of what was sent.
    expect(stored(data, sha(bytes))).toBeUndefined();
  });

  it('PNG: the upload carries no caBX chunk; the store kept the manifest\'s summary', async () => {
    const original = readFileSync(png);
    expect(original.includes('caBX')).toBe(true);
    const { bytes, data } = await upload(png);
    for (const s of ['caBX', 'jumb', 'c2pa', 'Geo Test Signer']) expect(bytes.includes(s), s).toBe(false);
    expect(JSON.parse(stored(data, sha(original))!.c2pa)).toMatchObject({ present: true, container: 'PNG caBX chunk', validation: { state: 'valid' } });
  });

  it('--no-store keeps it out of the store too; --keep-metadata sends the file as it is, credentials included (asked for)', async () => {
    const original = readFileSync(jpeg);
    const none = await upload(jpeg, ['--no-store']);
    expect(stored(none.data, sha(original))).toBeUndefined();
    const kept = await upload(jpeg, ['--keep-metadata']);
    expect(kept.bytes.equals(original)).toBe(true);
    expect(stored(kept.data, sha(original))).toBeDefined();
  });

  it('--case: the input_hashed entry carries the C2PA summary and the metadata JSON, and the chain verifies', async () => {
    const data = mkdtempSync(join(tmpdir(), 'geo-c2pa-case-'));
    const env = { GEO_API_KEY: KEY, GEO_BASE_URL: url, GEO_DATA_DIR: data };
    expect((await runCli(['cases', 'create', '--name', 'Pier', '--local'], { env })).code).toBe(0);
    const original = readFileSync(jpeg);
    const { bytes } = await upload(jpeg, ['--case', 'Pier'], data);
    const caseId = dbRows<{ id: string }>(data, "SELECT id FROM cases WHERE name = 'Pier'")[0]!.id;
    const lines = dbRows<{ line: string }>(data, 'SELECT line FROM custody WHERE case_id = ? ORDER BY seq', caseId).map((r) => r.line);
    const hashed = lines.map((l) => parseEntry(l)).find((e) => e.event === 'input_hashed')!;
    expect(hashed.data).toMatchObject({ input: { path: jpeg, sha256: sha(original), size: original.length } });
    expect(hashed.data.c2pa).toMatchObject({ present: true, title: 'paris.jpg', claim_generator: 'geo-test-camera 1.0', signer: { name: 'Geo Test Signer (geo tests)' }, signed_at: expect.any(String), validation: { state: 'valid', failures: [{ code: 'signingCredential.untrusted' }] } });
    const metadata = JSON.parse(hashed.data.metadata_json as string);
    expect(metadata.tags).toMatchObject({ Make: 'Apple', Model: 'iPhone 13' });
    expect(metadata.tags.GPSLatitude).toBeCloseTo(48.85837, 6);
    // The entry names what left: the stripped bytes, not the original.
    const sent = lines.map((l) => parseEntry(l)).find((e) => e.event === 'request_sent')!;
    expect((sent.data.request as { sha256: string }).sha256).toBe(sha(bytes));
    expect(verifyChain(lines, { caseId }).ok).toBe(true);
    const v = await runCli(['cases', 'verify', caseId], { env });
    expect(v.code, v.stdout + v.stderr).toBe(0);
  });

  it('a photo without credentials: {"present":false} kept beside its metadata', async () => {
    const original = readFileSync(join(IMAGES, 'tokyo.jpg'));
    const { data } = await upload(join(IMAGES, 'tokyo.jpg'));
    const row = stored(data, sha(original))!;
    expect(JSON.parse(row.c2pa)).toEqual({ present: false });
    expect(JSON.parse(row.metadata).tags.Make).toBe('SONY');
  });
});
