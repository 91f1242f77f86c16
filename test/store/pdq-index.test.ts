/**
 * The near-duplicate index's arithmetic (src/store/pdq-index.ts): a hash within D bits of another
 * is always filed under one of the keys a look-up at D probes, however its differing bits are
 * spread over the chunks (pigeonhole), and the look-up probes no more keys than its radius needs.
 */
import { describe, expect, it } from 'vitest';
import { CHUNKS, MAX_LIKE_DISTANCE, chunkKeys, probeKeys } from '../../src/store/pdq-index.js';

/** A seeded generator (mulberry32), so a failure names its case. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const randomHash = (r: () => number) => Array.from({ length: 64 }, () => Math.floor(r() * 16).toString(16)).join('');

/** The hash with these bits (0-255, in the hex string's order) flipped. */
function flip(hash: string, bits: readonly number[]): string {
  const nibbles = hash.split('').map((c) => parseInt(c, 16));
  for (const b of bits) nibbles[b >> 2]! ^= 8 >> (b & 3);
  return nibbles.map((n) => n.toString(16)).join('');
}

/** `d` bits spread as evenly as can be over the 16 chunks: the case that defeats a look-up of too small a radius. */
function evenly(d: number, r: () => number): number[] {
  const bits: number[] = [];
  for (let k = 0; k < d; k++) {
    const chunk = k % CHUNKS;
    const round = Math.floor(k / CHUNKS);
    bits.push(chunk * 16 + ((round * 5 + Math.floor(r() * 3)) % 16));
  }
  return [...new Set(bits)];
}

describe('the near-duplicate index', () => {
  it('files a hash under 16 keys, one per chunk of 16 bits', () => {
    const keys = chunkKeys('0123456789abcdef'.repeat(4));
    expect(keys).toHaveLength(16);
    expect(keys[0]).toBe(0x0123);
    expect(keys[1]).toBe(65536 + 0x4567);
    expect(keys[15]).toBe(15 * 65536 + 0xcdef);
  });

  it('probes each chunk within floor(D / 16) bits: 16, 272, 2,192 and 11,152 keys', () => {
    const h = randomHash(rng(1));
    expect([0, 15, 16, 31, 32, 47, 48, 63].map((d) => probeKeys(h, d).length)).toEqual([16, 16, 272, 272, 2192, 2192, 11152, 11152]);
    expect(() => probeKeys(h, MAX_LIKE_DISTANCE + 1)).toThrow(RangeError);
    expect(() => probeKeys(h, -1)).toThrow(RangeError);
  });

  it('finds every hash within D bits, for every D up to 63, the differing bits spread evenly or at random', () => {
    const r = rng(7);
    for (let d = 0; d <= MAX_LIKE_DISTANCE; d++) {
      for (let trial = 0; trial < 5; trial++) {
        const h = randomHash(r);
        const probed = new Set(probeKeys(h, d));
        const spread = evenly(d, r);
        const random = [...new Set(Array.from({ length: d }, () => Math.floor(r() * 256)))];
        for (const bits of [spread, random]) {
          const copy = flip(h, bits);
          expect(chunkKeys(copy).some((k) => probed.has(k)), `d=${d}, bits ${bits.join(',')}`).toBe(true);
        }
      }
    }
  });
});
