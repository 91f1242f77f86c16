/**
 * The figures of `geo eval --copies` on hashes made by hand, so every distance is known: four
 * originals whose pairs lie 100, 110, 110, 110, 120 and 220 bits apart, and copies at chosen
 * distances. The arithmetic is in the comments.
 */
import { describe, expect, it } from 'vitest';
import { type CopyHashes, copyReport } from '../../src/eval/copy-metrics.js';

/** A 256-bit hash (64 hex digits) with the given bits set; which end bit 0 is does not matter here. */
function hashOf(bits: number[]): string {
  const bytes = new Uint8Array(32);
  for (const b of bits) bytes[b >> 3]! |= 1 << (b & 7);
  return Buffer.from(bytes).toString('hex');
}
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

// O0 none; O1 bits 0-99; O2 bits 100-219; O3 bits 0-49 and 100-159.
// O0-O1 100, O0-O2 120, O0-O3 110, O1-O2 220, O1-O3 50 + 60 = 110, O2-O3 50 + 60 = 110.
const O = [[], range(0, 100), range(100, 220), [...range(0, 50), ...range(100, 160)]].map(hashOf);
const set = (): CopyHashes => ({
  originals: O.map((hash, i) => ({ name: `o${i}`, hash, quality: i === 3 ? 20 : 100 })),
  kinds: [
    // Copies of O0, O1, O2 at 5, 0 and 30 bits; O3's could not be hashed (a miss).
    { kind: 'jpeg-q70', copies: [{ original: 0, name: 'o0', hash: hashOf(range(200, 205)) }, { original: 1, name: 'o1', hash: O[1]! }, { original: 2, name: 'o2', hash: hashOf(range(100, 190)) }, { original: 3, name: 'o3', hash: null }] },
    // A copy of O0 that looks exactly like O2: 120 bits from its own, 0 from O2, 220 from O1, 110 from O3.
    { kind: 'screenshot', copies: [{ original: 0, name: 'o0', hash: O[2]! }] },
  ],
});

describe('copyReport on hand-made hashes', () => {
  const r = copyReport(set(), 31);

  it('the threshold: none while the required copies together stay under 95% (3 of 4); once O3\'s copy lies 40 bits away, 40 taken to the end of its index band, 47', () => {
    expect(r.distinct.pairs).toBe(6);
    expect(r.threshold).toBeNull();
    const s = set();
    s.kinds[0]!.copies[3]!.hash = hashOf([...range(0, 50), ...range(100, 160), ...range(200, 240)]);
    expect(copyReport(s, 31).threshold).toEqual({ bits: 47, false_matches: 0, false_match_rate: 0, required_recall: 1, together: 1, met: true });
  });

  it('recall counts an unreadable copy as missed: jpeg-q70 finds 3 of 4 at 31 bits (no threshold: the default), and is required; screenshot is not, and finds none', () => {
    const [jpeg, shot] = r.kinds;
    expect(jpeg).toMatchObject({ kind: 'jpeg-q70', required: true, copies: 4, unreadable: 1, found: 3, recall: 0.75 });
    expect(shot).toMatchObject({ kind: 'screenshot', required: false, copies: 1, found: 0, recall: 0 });
    expect(r.rule.required_kinds).toEqual(['jpeg-q70']);
  });

  it('false matches of a kind: its copies against every other original (the screenshot lies 0 bits from O2: 1 of 3 pairs)', () => {
    expect(r.kinds[1]).toMatchObject({ false_matches: 1, cross_pairs: 3 });
    // jpeg-q70's three readable copies against the three other originals each: O2's copy (bits
    // 100-189) lies 90 bits from O0 and 50 + 30 = 80 from O3; the others 100 bits or more away:
    // none within the 31 bits judged.
    expect(r.kinds[0]).toMatchObject({ false_matches: 0, cross_pairs: 9 });
    expect(r.curve[90]).toMatchObject({ bits: 90 });
  });

  it('percentiles are the smallest distance at or below which that share lies: copies 0, 5, 30; pairs 100, 110 x3, 120, 220', () => {
    expect(r.kinds[0]!.distance).toEqual({ p50: 5, p90: 30, p95: 30, p99: 30, max: 30 });
    expect(r.distinct.distance).toEqual({ min: 100, p0_01: 100, p0_1: 100, p1: 100, p5: 100, p50: 110 });
    expect(r.distinct.nearest[0]).toEqual({ a: 'o0', b: 'o1', bits: 100 });
    expect(r.distinct.nearest).toHaveLength(6);
  });

  it('the default distance and the curve give the same figures at their distances; quality under 50 is counted', () => {
    expect(r.default).toEqual({ bits: 31, false_matches: 0, false_match_rate: 0, required_recall: 0.75 });
    expect(r.curve[29]!.recall['jpeg-q70']).toBe(0.5);
    expect(r.curve[30]!.recall['jpeg-q70']).toBe(0.75);
    expect(r.curve).toHaveLength(97);
    expect(r.low_quality).toBe(1);
    expect(r.kinds[0]!.farthest[0]).toEqual({ name: 'o2', bits: 30 });
  });

  it('the least distance for 95% of each required kind: none while O3\'s copy is unreadable, 40 bits once it lies 40 bits away', () => {
    expect(r.least_for_recall).toBeNull();
    const s = set();
    s.kinds[0]!.copies[3]!.hash = hashOf([...range(0, 50), ...range(100, 160), ...range(200, 240)]);
    expect(copyReport(s, 31).least_for_recall).toEqual({ bits: 40, false_matches: 0, false_match_rate: 0, required_recall: 1 });
  });

  it('no threshold when two distinct originals hash alike (0 bits is already a false match)', () => {
    const s = set();
    s.originals[3]!.hash = O[0]!;
    expect(copyReport(s, 31).threshold).toBeNull();
  });

  it('an original that could not be hashed is left out with its copies', () => {
    const s = set();
    s.originals[2]!.hash = null;
    const t = copyReport(s, 31);
    expect(t.hashed).toBe(3);
    expect(t.distinct.pairs).toBe(3);
    expect(t.kinds[0]!.copies).toBe(3);
  });
});
