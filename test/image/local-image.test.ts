import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MAX_IMAGE_BYTES } from '../../src/api/schemas.js';
import { UsageError } from '../../src/errors.js';
import { loadImage, readImage, sniffKind } from '../../src/image/local-image.js';

const dir = mkdtempSync(join(tmpdir(), 'geo-image-'));
const noStdin = Readable.from([]);
const JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]);
const PNG_HEAD = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

function file(name: string, bytes: Buffer | string): string {
  const p = join(dir, name);
  writeFileSync(p, bytes);
  return p;
}

function ftyp(major: string, ...compatible: string[]): Buffer {
  const brands = Buffer.from([major, '\0\0\0\0', ...compatible].join(''), 'latin1');
  const size = Buffer.alloc(4);
  size.writeUInt32BE(8 + brands.length);
  return Buffer.concat([size, Buffer.from('ftyp'), brands, Buffer.alloc(16)]);
}

async function collect(it: AsyncIterable<string | Uint8Array>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of it) parts.push(typeof c === 'string' ? Buffer.from(c, 'latin1') : Buffer.from(c));
  return Buffer.concat(parts).toString('latin1');
}

async function usageError(p: Promise<unknown>): Promise<UsageError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(UsageError);
  expect((err as UsageError).message).not.toContain('\n');
  return err as UsageError;
}

describe('sniffKind (magic bytes, never the name)', () => {
  it('recognises each kind from its first bytes', () => {
    expect(sniffKind(JPEG_HEAD)).toBe('jpeg');
    expect(sniffKind(PNG_HEAD)).toBe('png');
    expect(sniffKind(Buffer.from('GIF89a\x01\x00', 'latin1'))).toBe('gif');
    expect(sniffKind(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1'))).toBe('webp');
    expect(sniffKind(Buffer.from('II*\0\x08\0\0\0', 'latin1'))).toBe('tiff');
    expect(sniffKind(Buffer.from('MM\0*\0\0\0\x08', 'latin1'))).toBe('tiff');
    expect(sniffKind(ftyp('heic', 'mif1', 'heic'))).toBe('heic');
    expect(sniffKind(ftyp('mif1', 'mif1', 'heic'))).toBe('heic');
    expect(sniffKind(ftyp('avif', 'mif1', 'miaf'))).toBe('avif');
    expect(sniffKind(ftyp('mif1', 'avif', 'mif1'))).toBe('avif');
    expect(sniffKind(Buffer.from('hello world'))).toBe('unknown');
    expect(sniffKind(Buffer.alloc(0))).toBe('unknown');
  });

  it('reads a PNG named .jpg as a PNG', async () => {
    const img = await loadImage(file('really-a-png.jpg', Buffer.concat([PNG_HEAD, Buffer.alloc(50)])), noStdin);
    expect(img.kind).toBe('png');
    expect(img.mime).toBe('image/png');
  });
});

describe('loadImage', () => {
  const body = Buffer.concat([JPEG_HEAD, Buffer.from(Array.from({ length: 700_001 }, (_, i) => (i * 7919) % 256))]);

  it('hashes, sizes and base64-encodes a file in chunks identical to toString("base64"), every time', async () => {
    const img = await loadImage(file('photo.jpg', body), noStdin);
    expect(img.size).toBe(body.length);
    expect(img.sha256).toBe(createHash('sha256').update(body).digest('hex'));
    expect(img.bytes).toBeUndefined();
    const want = body.toString('base64');
    expect(img.b64.length).toBe(want.length);
    expect(await collect(img.b64.stream())).toBe(want);
    expect(await collect(img.b64.stream())).toBe(want);
  });

  it('holds stdin as one Buffer and encodes it the same way', async () => {
    const chunks = [body.subarray(0, 1001), body.subarray(1001, 5000), body.subarray(5000)];
    const img = await loadImage('-', Readable.from(chunks));
    expect(img.source).toBe('-');
    expect(img.bytes?.equals(body)).toBe(true);
    expect(await collect(img.b64.stream())).toBe(body.toString('base64'));
  });

  it('refuses a missing file, a folder, an empty file and a text file named .jpg', async () => {
    expect((await usageError(loadImage(join(dir, 'nope.jpg'), noStdin))).message).toMatch(/no such file/);
    expect((await usageError(loadImage(dir, noStdin))).message).toMatch(/is a folder/);
    expect((await usageError(loadImage(file('empty.jpg', ''), noStdin))).message).toMatch(/empty/);
    const text = await usageError(loadImage(file('notes.jpg', 'just some notes\n'), noStdin));
    expect(text.message).toMatch(/not an image \(text\)/);
    expect(text.hint).toMatch(/bytes, not the file name/);
    expect((await usageError(loadImage('-', Readable.from([])))).message).toMatch(/stdin is empty/);
  });

  it('refuses, as they are, the kinds the API does not take (HEIC, WebP: locate converts them)', async () => {
    const heic = await usageError(loadImage(file('x.heic', ftyp('heic', 'mif1', 'heic')), noStdin));
    expect(heic.message).toContain('HEIC is not accepted by the API, which takes JPEG or PNG');
    const webp = await usageError(loadImage(file('x.webp', Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1')), noStdin));
    expect(webp.message).toMatch(/WEBP is not accepted/);
    // inspect reads them all the same
    expect((await readImage(join(dir, 'x.heic'), noStdin)).kind).toBe('heic');
  });

  it('refuses a file one byte over the limit from stat, before reading it (sparse file)', async () => {
    const big = join(dir, 'big.jpg');
    writeFileSync(big, JPEG_HEAD);
    execFileSync('truncate', ['-s', String(MAX_IMAGE_BYTES + 1), big]);
    const t = Date.now();
    const err = await usageError(loadImage(big, noStdin));
    expect(err.message).toContain('15,000,001 bytes');
    expect(err.message).toContain('20,000,000 base64 characters');
    expect(err.message).toContain('at most 15,000,000 bytes');
    expect(Date.now() - t).toBeLessThan(1000);
    // Exactly at the limit is accepted.
    execFileSync('truncate', ['-s', String(MAX_IMAGE_BYTES), big]);
    const ok = await loadImage(big, noStdin);
    expect(ok.b64.length).toBe(20_000_000);
  });

  it('stops reading stdin once it passes the limit', async () => {
    const chunk = Buffer.alloc(1 << 20);
    JPEG_HEAD.copy(chunk);
    const many = Readable.from((function* () {
      for (let i = 0; i < 20; i++) yield chunk;
    })());
    expect((await usageError(loadImage('-', many))).message).toMatch(/^stdin is more than 15,000,000 bytes, over the API's 20 MB image limit/);
  });

  it('reads a real photo from fixtures when present', async () => {
    const p = new URL('../../../shared/photos/gps_paris_eiffel_fuji_s2pro.jpg', import.meta.url).pathname;
    let bytes: Buffer;
    try {
      bytes = readFileSync(p);
    } catch {
      return; // ../shared/photos is optional here; photos-conformance.test.ts reports its absence
    }
    const img = await loadImage(p, noStdin);
    expect(img.kind).toBe('jpeg');
    expect(await collect(img.b64.stream())).toBe(bytes.toString('base64'));
  });
});
