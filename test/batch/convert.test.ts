/**
 * WebP & co. go out as JPEG (with a notice); --downscale fits an oversized image under the limit.
 * HEIC/HEIF too, decoded by libheif-js. Local refusals happen before anything is sent: WebP without
 * sharp (hint: npm install sharp) and an image whose base64 would pass 20 MB (caught from its size,
 * never read whole).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toJpeg } from '../../src/batch/convert.js';
import { runBatch } from '../../src/batch/run.js';
import { readExif } from '../../src/image/exif.js';
import { minimalTiff, readTiffIfd0, uprightTiff } from '../../src/image/tiff.js';
import type { BatchEvent } from '../../src/batch/types.js';
import { UsageError } from '../../src/errors.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { ledgerFigures, makeImages, realSleep, testClient, testStore } from './helpers.js';

let sb: Sandbox;
beforeAll(async () => (sb = await startSandbox({ rateLimit: 600 })));
afterAll(() => sb.close());

const sharpInstalled = await import('sharp' as string).then(() => true, () => false);

function deps(cwd: string) {
  return { client: testClient(sb.url), env: { GEO_STATE_DIR: mkdtempSync(join(tmpdir(), 'geo-state-')) }, store: testStore(), version: '0.0.0-test', now: Date.now, sleep: realSleep, cwd };
}

/** RIFF....WEBPVP8 : enough for the magic-byte sniffer. */
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([36, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(32)]);
/** fixtures/heic/paris.heic: paris.jpg as HEIC, made by fixtures/make-fixtures.js with heif-enc. */
const HEIC = readFileSync(new URL('../../fixtures/heic/paris.heic', import.meta.url));

describe('conversion and size refusals', () => {
  it.skipIf(sharpInstalled)('a WebP without sharp installed: UsageError with the install hint, nothing sent', async () => {
    const dir = makeImages(2);
    writeFileSync(join(dir, 'photo.webp'), WEBP);
    const err = await runBatch(deps(dir), { inputs: ['.'], depth: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).hint).toMatch(/npm install sharp/);
    expect(ledgerFigures(sb.ledger(), 'orca_sandbox_enterprise').geolocateRequests).toBe(0);
  });

  it.runIf(sharpInstalled)('HEIC named on the command line is sent as JPEG with a notice; its record keeps the HEIC\'s sha256', async () => {
    const dir = makeImages(1);
    writeFileSync(join(dir, 'IMG_0001.HEIC'), HEIC);
    const events: BatchEvent[] = [];
    const { records } = await runBatch({ ...deps(dir), onEvent: (e) => events.push(e) }, { inputs: ['000.jpg', 'IMG_0001.HEIC'], depth: 1 });
    expect(records.map((r) => [r.input, r.ok])).toEqual([['000.jpg', true], ['IMG_0001.HEIC', true]]);
    expect(records[1]!.sha256).toBe(createHash('sha256').update(HEIC).digest('hex'));
    expect(events.some((e) => e.type === 'notice' && /IMG_0001\.HEIC: converted HEIC to JPEG for upload/.test(e.message))).toBe(true);
  });

  it.runIf(sharpInstalled)('a HEIC\'s EXIF goes into its JPEG only when the metadata is to be sent (--keep-metadata), turned upright', async () => {
    const plain = await toJpeg('a.heic', HEIC, 'heic');
    expect(plain.includes('Exif\0\0')).toBe(false);
    expect((await readExif(plain)).gps).toBeUndefined();
    const kept = await toJpeg('a.heic', HEIC, 'heic', true);
    const exif = await readExif(kept);
    expect([exif.gps?.lat, exif.gps?.lng, exif.make, exif.model]).toEqual([48.85837, 2.294481, 'Apple', 'iPhone 13']);
    // libheif has turned the pixels by the HEIF's own boxes: an EXIF Orientation must not turn them again.
    expect(readTiffIfd0(uprightTiff(minimalTiff(6))).orientation).toBe(1);
  });

  it('an image over the 20 MB base64 limit is refused from its size, with --downscale as the hint', async () => {
    const dir = makeImages(1);
    const big = join(dir, 'huge.jpg');
    writeFileSync(big, '');
    truncateSync(big, 15_000_001); // sparse: nothing is written, and nothing may be read whole
    // Named on the command line: a usage error, nothing sent.
    const err = await runBatch(deps(dir), { inputs: ['huge.jpg'], depth: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toMatch(/above the 20 MB limit/);
    expect((err as UsageError).hint).toMatch(/--downscale/);
    // Found in a folder: skipped with the same reason and hint, in its own record; the folder's other image goes on.
    const notices: string[] = [];
    const res = await runBatch({ ...deps(dir), onEvent: (e) => e.type === 'notice' && notices.push(e.message) }, { inputs: ['.'], depth: 1 });
    expect(res.records).toHaveLength(2);
    expect(res.records[0]).toMatchObject({ input: 'huge.jpg', sha256: null, ok: false, error: { code: 'skipped', message: expect.stringMatching(/above the 20 MB limit.*--downscale/) } });
    expect(res.records[1]).toMatchObject({ input: '000.jpg', ok: true });
    expect(res.summary).toMatchObject({ inputs: 2, ok: 1, skipped: 1, failed: 0 });
    expect(notices.join('\n')).toMatch(/skipped huge\.jpg: .*above the 20 MB limit.*--downscale/);
  });

  it.runIf(sharpInstalled)('WebP and GIF are sent as JPEG with a notice; the answer is ok', async () => {
    const { default: sharp } = (await import('sharp' as string)) as { default: (o: unknown) => { webp(): { toBuffer(): Promise<Buffer> }; gif(): { toBuffer(): Promise<Buffer> } } };
    const dir = makeImages(1);
    const create = { create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 120, b: 40 } } };
    writeFileSync(join(dir, 'a.webp'), await sharp(create).webp().toBuffer());
    writeFileSync(join(dir, 'b.gif'), await sharp(create).gif().toBuffer());
    const events: BatchEvent[] = [];
    const before = ledgerFigures(sb.ledger(), 'orca_sandbox_enterprise').debits;
    const { records } = await runBatch({ ...deps(dir), onEvent: (e) => events.push(e) }, { inputs: ['.'], depth: 1 });
    expect(records.map((r) => [r.input, r.ok])).toEqual([['000.jpg', true], ['a.webp', true], ['b.gif', true]]);
    const notices = events.flatMap((e) => (e.type === 'notice' ? [e.message] : []));
    expect(notices).toEqual(expect.arrayContaining([expect.stringMatching(/a\.webp: converted WEBP to JPEG/), expect.stringMatching(/b\.gif: converted GIF to JPEG/)]));
    expect(ledgerFigures(sb.ledger(), 'orca_sandbox_enterprise').debits - before).toBe(3);
  });

  it.runIf(sharpInstalled)('--downscale fits a 17 MB image under the limit and sends it', async () => {
    const { default: sharp } = (await import('sharp' as string)) as { default: (o: unknown) => { png(o: unknown): { toBuffer(): Promise<Buffer> } } };
    const dir = mkdtempSync(join(tmpdir(), 'geo-big-'));
    const noise = { create: { width: 2400, height: 2400, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 60 } } };
    writeFileSync(join(dir, 'big.png'), await sharp(noise).png({ compressionLevel: 0 }).toBuffer());
    await expect(runBatch(deps(dir), { inputs: ['big.png'], depth: 1 })).rejects.toThrow(/--downscale|20 MB/);
    const events: BatchEvent[] = [];
    const { records } = await runBatch({ ...deps(dir), onEvent: (e) => events.push(e) }, { inputs: ['big.png'], depth: 1, downscale: true });
    expect(records[0]).toMatchObject({ input: 'big.png', ok: true });
    expect(events.some((e) => e.type === 'notice' && /downscaled/.test(e.message))).toBe(true);
  }, 30_000);
});
