/**
 * Decompression bombs (issue 11, "Local decoding is bounded"): a 35-byte GIF whose header claims
 * 20000x20000 pixels took 3.9 GB, and an 8 KB TIFF of 60000x60000 passed 11 GB, because conversion
 * decoded them with no pixel limit. Now the header's claim is read before anything is decoded:
 * the built binary refuses each with exit 2 and one line, nothing is sent, and its peak RSS
 * (printed) stays far below a decode's.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readDimensions } from '../../src/image/dimensions.js';
import { ledgerFigures } from '../batch/helpers.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';
import { spawnGeo } from '../helpers/run-cli.js';

const sb = withSandbox();
const PEAK_RSS_PRELOAD = new URL('../helpers/peak-rss.cjs', import.meta.url).pathname;
const MB = 1024 * 1024;

/** GIF89a, a 20000x20000 logical screen and one image of that size, 35 bytes in all. */
function gifBomb(): Buffer {
  const u16 = (n: number) => [n & 0xff, n >> 8];
  const header = [...Buffer.from('GIF89a'), ...u16(20000), ...u16(20000), 0x00, 0x00, 0x00];
  const descriptor = [0x2c, 0, 0, 0, 0, ...u16(20000), ...u16(20000), 0x00];
  const data = [0x08, 0x08, 0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x00, 0x3b]; // LZW size, one sub-block, end, trailer
  return Buffer.from([...header, ...descriptor, ...data]);
}

/** A little-endian TIFF of 60000x60000 8-bit grey, one deflate strip, padded to 8 KB. */
function tiffBomb(): Buffer {
  const entries: Array<[tag: number, type: number, value: number]> = [
    [256, 4, 60000], [257, 4, 60000], [258, 3, 8], [259, 3, 8], [262, 3, 1], [273, 4, 0], [277, 3, 1], [278, 4, 60000], [279, 4, 0],
  ];
  const ifdAt = 8;
  const dataAt = ifdAt + 2 + entries.length * 12 + 4;
  const strip = deflateSync(Buffer.alloc(4 * MB));
  const buf = Buffer.alloc(Math.max(8192, dataAt + strip.length));
  buf.write('II', 0, 'latin1');
  buf.writeUInt16LE(42, 2);
  buf.writeUInt32LE(ifdAt, 4);
  buf.writeUInt16LE(entries.length, ifdAt);
  entries.forEach(([tag, type, value], i) => {
    const e = ifdAt + 2 + i * 12;
    const v = tag === 273 ? dataAt : tag === 279 ? strip.length : value;
    buf.writeUInt16LE(tag, e);
    buf.writeUInt16LE(type, e + 2);
    buf.writeUInt32LE(1, e + 4);
    if (type === 3) buf.writeUInt16LE(v, e + 8);
    else buf.writeUInt32LE(v, e + 8);
  });
  strip.copy(buf, dataAt);
  return buf;
}

async function locateBomb(name: string, bytes: Buffer) {
  const dir = mkdtempSync(join(tmpdir(), 'geo-bomb-'));
  writeFileSync(join(dir, name), bytes);
  const rssFile = join(dir, 'peak-rss');
  const t0 = Date.now();
  const r = await spawnGeo(['locate', join(dir, name)], {
    env: { GEO_BASE_URL: sb.url, GEO_API_KEY: KEYS.pro, GEO_STATE_DIR: join(dir, 'state'), GEO_DATA_DIR: join(dir, 'data'), NODE_OPTIONS: `--require ${PEAK_RSS_PRELOAD}`, GEO_TEST_RSS_FILE: rssFile },
  });
  const ms = Date.now() - t0;
  const peakMiB = Number(readFileSync(rssFile, 'utf8')) / 1024;
  console.log(`${name} (${bytes.length} bytes): exit ${r.code} in ${ms} ms, peak RSS ${peakMiB.toFixed(1)} MiB`);
  return { ...r, peakMiB };
}

describe('decompression bombs are refused from their header', () => {
  it('the fixtures claim what the issue describes (35-byte GIF of 20000x20000, 8 KB TIFF of 60000x60000)', () => {
    expect(gifBomb().length).toBe(35);
    expect(readDimensions(gifBomb(), 'gif')).toEqual({ width: 20000, height: 20000 });
    expect(tiffBomb().length).toBe(8192);
    expect(readDimensions(tiffBomb(), 'tiff')).toEqual({ width: 60000, height: 60000 });
  });

  it.each([
    ['bomb.gif', gifBomb, '20,000 x 20,000 pixels (400 MP)'],
    ['bomb.tif', tiffBomb, '60,000 x 60,000 pixels (3600 MP)'],
  ])('%s: exit 2, one line naming the claimed size, nothing sent, peak RSS under 200 MB', async (name, make, claim) => {
    const before = ledgerFigures(sb.ledger(), KEYS.pro).geolocateRequests;
    const r = await locateBomb(name, make());
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`${name}: the image claims ${claim}, above the 120 MP geo decodes locally`);
    expect(r.stderr).toMatch(/hint: if it is a real image, shrink it/);
    expect(r.stdout).toBe('');
    expect(ledgerFigures(sb.ledger(), KEYS.pro).geolocateRequests).toBe(before);
    expect(r.peakMiB).toBeLessThan(200);
  });
});
