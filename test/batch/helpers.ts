/**
 * Shared pieces of the batch tests: distinct images on disk, a real client, ledger arithmetic.
 * Images are fixtures/images/nogps.jpg with a JPEG comment (COM) segment after SOI holding a
 * counter: still a valid JPEG, a different sha256 per copy.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient } from '../../src/api/client.js';
import type { Ledger } from '../../src/sandbox/server.js';
import { processProbe } from '../../src/cli.js';
import { Store, type StoreApi, asStoreApi } from '../../src/store/index.js';

export const FIXTURES = new URL('../../fixtures/images/', import.meta.url).pathname;

export function distinctJpeg(i: number, base = readFileSync(join(FIXTURES, 'nogps.jpg'))): Buffer {
  const text = Buffer.from(`geo batch test image ${i}`, 'latin1');
  const seg = Buffer.alloc(4);
  seg.writeUInt16BE(0xfffe, 0);
  seg.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([base.subarray(0, 2), seg, text, base.subarray(2)]);
}

/** Distinct JPEGs img<from>.jpg … img<from+n-1>.jpg in HOME/photos-<from>: each run of a test its own images. */
export function photosFrom(home: string, from: number, n: number): string {
  const dir = join(home, `photos-${from}`);
  mkdirSync(dir, { recursive: true });
  for (let i = from; i < from + n; i++) writeFileSync(join(dir, `img${i}.jpg`), distinctJpeg(i));
  return dir;
}

/** n distinct JPEGs named 000.jpg, 001.jpg, ... in a fresh folder. */
export function makeImages(n: number, dir = mkdtempSync(join(tmpdir(), 'geo-batch-img-'))): string {
  const base = readFileSync(join(FIXTURES, 'nogps.jpg'));
  for (let i = 0; i < n; i++) writeFileSync(join(dir, `${String(i).padStart(3, '0')}.jpg`), distinctJpeg(i, base));
  return dir;
}

/** Fast backoff so 5xx storms do not make the suite slow; 429 waits still follow Retry-After. */
export function testClient(baseUrl: string, apiKey = 'orca_sandbox_enterprise'): ApiClient {
  return new ApiClient({ baseUrl, apiKey, timeoutMs: 10_000, retry: { baseMs: 20, capMs: 200 } });
}

export const realSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)), { once: true });
  });

/** The figures that prove "nothing charged twice" for one key. */
export function ledgerFigures(l: Ledger, key: string) {
  const k = l.keys[key]!;
  const debited = k.entries.filter((e) => e.kind === 'debit').reduce((s, e) => s + e.amount, 0);
  const refunded = k.entries.filter((e) => e.kind === 'refund').reduce((s, e) => s + e.amount, 0);
  const requests = Object.values(k.idempotency).reduce((s, v) => s + v.requests, 0);
  return {
    debits: k.debits, refunds: k.refunds, netCredits: debited - refunded, modelCalls: k.model_calls,
    idempotencyKeys: Object.keys(k.idempotency).length, geolocateRequests: requests,
  };
}

/** A store of its own (a fresh data folder) for a test that calls runBatch directly. */
/** The local file behind the store interface the batch engine takes (store/api.ts). */
export function testStore(dataDir = mkdtempSync(join(tmpdir(), 'geo-data-'))): StoreApi {
  return asStoreApi(Store.open(dataDir, { probe: processProbe(), now: Date.now }), Date.now);
}

const PDQ_SOURCE = new URL('../image/pdq-vectors/bridge-1-original.jpg', import.meta.url).pathname;

/** Ten distinct photos and their copies, in two folders. */
export interface Photos {
  originals: string;
  copies: string;
  /** Each copy's photo (copy file name -> the original's path) and the bits between their perceptual hashes. */
  of: Map<string, { original: string; distance: number }>;
}

/**
 * Ten photos PDQ tells far apart (crops of one large photo, 560-640 px square, at offsets spread
 * over it: distinctJpeg's images differ only in a comment, so their pixels are one photo) and two
 * copies of each: re-encoded at JPEG quality 70, and resized to 50% (quality 70).
 */
export async function photosAndCopies(): Promise<Photos> {
  // Loaded here only: most files that import these helpers never decode an image.
  const { default: sharp } = await import('sharp');
  const { hamming, pdqOf } = await import('../../src/image/pdq.js');
  const dir = mkdtempSync(join(tmpdir(), 'geo-copies-'));
  const originals = join(dir, 'originals');
  const copies = join(dir, 'copies');
  mkdirSync(originals);
  mkdirSync(copies);
  const { width, height } = await sharp(PDQ_SOURCE).metadata();
  const of = new Map<string, { original: string; distance: number }>();
  for (let i = 0; i < 10; i++) {
    const side = 560 + 40 * (i % 3);
    const left = Math.round(((width! - side) * ((i * 37) % 10)) / 9);
    const top = Math.round(((height! - side) * ((i * 53) % 10)) / 9);
    const original = join(originals, `photo${i}.jpg`);
    writeFileSync(original, await sharp(PDQ_SOURCE).extract({ left, top, width: side, height: side }).jpeg({ quality: 92 }).toBuffer());
    writeFileSync(join(copies, `photo${i}-q70.jpg`), await sharp(original).jpeg({ quality: 70 }).toBuffer());
    writeFileSync(join(copies, `photo${i}-half.jpg`), await sharp(original).resize({ width: Math.round(side / 2) }).jpeg({ quality: 70 }).toBuffer());
    const mine = (await pdqOf(original)).hash;
    for (const c of [`photo${i}-q70.jpg`, `photo${i}-half.jpg`]) of.set(c, { original, distance: hamming((await pdqOf(join(copies, c))).hash, mine) });
  }
  return { originals, copies, of };
}
