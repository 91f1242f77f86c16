/**
 * geo eval's figures against values worked out by hand below (the comments show the arithmetic):
 * accuracy at the thresholds, median / mean / p90 by linear interpolation, the ten calibration
 * bins, ECE, the abstention curve, the depth-3 advice and credits per correct answer.
 */
import { describe, expect, it } from 'vitest';
import { adviceOf } from '../../src/eval/advice.js';
import { evaluate, rowOf } from '../../src/eval/evaluate.js';
import { type Scored, binOf, computeMetrics, quantile } from '../../src/eval/metrics.js';

// Five answers at depth 3 (10 credits each), a sixth image failed (in n, not scored).
const FIVE: Scored[] = [
  { errorKm: 0.5, confidence: 0.95, depth: 3, advice: 'publish', image: 'a' },
  { errorKm: 10, confidence: 0.85, depth: 3, advice: 'publish', image: 'b' },
  { errorKm: 150, confidence: 0.55, depth: 3, advice: 'publish', image: 'c' },
  { errorKm: 600, confidence: 0.3, depth: 3, advice: 'abstain', image: 'd' },
  { errorKm: 3000, confidence: 0.05, depth: 3, advice: 'abstain', image: 'e' },
];

describe('computeMetrics, by hand', () => {
  const m = computeMetrics(6, FIVE, { correctWithinKm: 25 });

  it('counts and accuracy at 1, 25, 200, 750, 2500 km (share of the 5 scored)', () => {
    expect(m.n).toBe(6);
    expect(m.scored).toBe(5);
    expect(m.thresholds_km).toEqual([1, 25, 200, 750, 2500]);
    // <=1: 0.5 | <=25: 0.5, 10 | <=200: +150 | <=750: +600 | <=2500: same four
    expect(m.accuracy).toEqual({ 1: 1 / 5, 25: 2 / 5, 200: 3 / 5, 750: 4 / 5, 2500: 4 / 5 });
  });

  it('error median, mean and p90 (linear interpolation)', () => {
    // sorted 0.5, 10, 150, 600, 3000: median is the third; mean 3760.5 / 5;
    // p90: h = (5-1) × 0.9 = 3.6 -> x[3] + 0.6 × (x[4] - x[3]) = 600 + 0.6 × 2400 = 2040.
    expect(m.error_km.median).toBe(150);
    expect(m.error_km.mean).toBeCloseTo(752.1, 10);
    expect(m.error_km.p90).toBeCloseTo(2040, 10);
  });

  it('ten bins with n, mean confidence and accuracy; empty bins null; ECE', () => {
    const b = m.calibration.bins;
    expect(m.calibration.correct_within_km).toBe(25);
    expect(b.map((x) => [x.lo, x.hi])).toEqual([[0, 0.1], [0.1, 0.2], [0.2, 0.3], [0.3, 0.4], [0.4, 0.5], [0.5, 0.6], [0.6, 0.7], [0.7, 0.8], [0.8, 0.9], [0.9, 1]]);
    expect(b.map((x) => x.n)).toEqual([1, 0, 0, 1, 0, 1, 0, 0, 1, 1]);
    expect(b[1]).toEqual({ lo: 0.1, hi: 0.2, n: 0, mean_confidence: null, accuracy: null });
    expect([b[0], b[3], b[5], b[8], b[9]].map((x) => [x!.mean_confidence, x!.accuracy])).toEqual([[0.05, 0], [0.3, 0], [0.55, 0], [0.85, 1], [0.95, 1]]);
    // (1/5)(|0-0.05| + |0-0.3| + |0-0.55| + |1-0.85| + |1-0.95|) = 1.1 / 5
    expect(m.calibration.ece).toBeCloseTo(0.22, 12);
  });

  it('the abstention curve: coverage and accuracy answering only at confidence >= t', () => {
    const pts = m.abstention.map((p) => [p.threshold, p.coverage, p.accuracy]);
    expect(pts).toEqual([
      [0, 1, 2 / 5],
      [0.1, 4 / 5, 2 / 4], [0.2, 4 / 5, 2 / 4], [0.3, 4 / 5, 2 / 4],
      [0.4, 3 / 5, 2 / 3], [0.5, 3 / 5, 2 / 3],
      [0.6, 2 / 5, 1], [0.7, 2 / 5, 1], [0.8, 2 / 5, 1],
      [0.9, 1 / 5, 1],
    ]);
  });

  it('the advice: publish 3 (2 correct), abstain 2 (none correct); right 4 of 5', () => {
    expect(m.advice).toEqual({ publish: { n: 3, accuracy: 2 / 3 }, abstain: { n: 2, accuracy: 0 }, right: 4 / 5 });
  });

  it('credits: 5 images × 10 at depth 3 = 50, over 2 correct = 25 per correct answer', () => {
    expect(m.credits).toEqual({ spent: 50, per_correct: 25 });
    expect(m.correct).toBe(2);
  });

  it('--correct-within moves correctness, not the accuracy thresholds', () => {
    const wide = computeMetrics(5, FIVE, { correctWithinKm: 200 });
    expect(wide.correct).toBe(3);
    expect(wide.credits.per_correct).toBeCloseTo(50 / 3, 12);
    expect(wide.calibration.bins[5]!.accuracy).toBe(1);
    expect(wide.accuracy).toEqual(computeMetrics(5, FIVE, { correctWithinKm: 25 }).accuracy);
  });
});

describe('edges', () => {
  it('nothing scored: nulls, not zeros or NaN', () => {
    const m = computeMetrics(2, [], { correctWithinKm: 25 });
    expect(m).toMatchObject({ n: 2, scored: 0, error_km: { median: null, mean: null, p90: null }, credits: { spent: 0, per_correct: null }, advice: null });
    expect(Object.values(m.accuracy)).toEqual([null, null, null, null, null]);
    expect(m.calibration.ece).toBeNull();
    expect(m.abstention[0]).toEqual({ threshold: 0, coverage: null, accuracy: null });
  });

  it('quantiles: one value; an even count\'s median is the mean of the middle two', () => {
    expect(quantile([7], 0.9)).toBe(7);
    expect(quantile([1, 2, 3, 10], 0.5)).toBe(2.5);
    // h = 3 × 0.9 = 2.7 -> 3 + 0.7 × (10 - 3)
    expect(quantile([1, 2, 3, 10], 0.9)).toBeCloseTo(7.9, 12);
  });

  it('bins: [lo, hi), 1.0 in the last, 0.1 + 0.2 in bin 3, out-of-range confidences clamped', () => {
    expect([0, 0.0999, 0.1, 0.1 + 0.2, 0.2999, 0.9, 1, 1.2, -0.1].map(binOf)).toEqual([0, 0, 1, 3, 2, 9, 9, 9, 0]);
  });

  it('credits count an image once per depth (duplicates share one paid answer)', () => {
    const m = computeMetrics(3, [
      { errorKm: 1, confidence: 0.5, depth: 2, image: 'x' },
      { errorKm: 1, confidence: 0.5, depth: 2, image: 'x' },
      { errorKm: 1, confidence: 0.5, depth: 1, image: 'x' },
    ], { correctWithinKm: 25 });
    expect(m.credits.spent).toBe(2 + 1);
  });
});

describe('adviceOf reads the calibration object tolerantly (its fields are not shown in the spec)', () => {
  it.each([
    [{ abstain: true }, 0.9, 'abstain'],
    [{ abstain: false, abstain_below: 0.99 }, 0.5, 'publish'],
    [{ publish: false }, 0.9, 'abstain'],
    [{ publish: 'abstain' }, 0.9, 'abstain'],
    [{ publish: 'yes, with caveats' }, 0.2, 'publish'],
    [{ abstain_below: 0.35 }, 0.3, 'abstain'],
    [{ abstain_below: 0.35 }, 0.35, 'publish'],
    [{ abstain_below: 35 }, 0.3, undefined],
    [{ policy: 'x' }, 0.3, undefined],
    [null, 0.3, undefined],
  ])('%j at confidence %d -> %s', (cal, conf, want) => {
    expect(adviceOf(cal, conf)).toBe(want);
  });
});

describe('rows and by_depth', () => {
  const truth = { lat: 10, lng: 20 };
  const body = (lat: number, confidence: number, depth: number) => ({ location: { latitude: lat, longitude: 20 }, confidence, depth });

  it('one row per answer; failures stay in n; several depths give by_depth', () => {
    // 1° of latitude along a meridian is 6371.0088 × π / 180 km.
    const deg = (6371.0088 * Math.PI) / 180;
    const rows = [
      rowOf({ input: 'a.jpg', sha256: 'a', ok: true, result: body(10.1, 0.8, 1) }, truth, 1, 25),
      rowOf({ input: 'a.jpg', sha256: 'a', ok: true, result: body(10, 0.9, 3) }, truth, 3, 25),
      rowOf({ input: 'b.jpg', sha256: 'b', ok: false, error: { code: 'server_error', message: 'boom' } }, truth, 3, 25),
    ];
    expect(rows[0]).toMatchObject({ input: 'a.jpg', estimate: { lat: 10.1, lng: 20 }, confidence: 0.8, depth: 1, correct: true });
    expect(rows[0]!.error_km).toBeCloseTo(0.1 * deg, 9);
    expect(rows[2]).toMatchObject({ estimate: null, error_km: null, correct: null, depth: 3, error: { code: 'server_error' } });
    const r = evaluate(rows, 25);
    expect(r.depths).toEqual([1, 3]);
    expect(r).toMatchObject({ n: 3, scored: 2, credits: { spent: 1 + 10, per_correct: 11 / 2 } });
    expect(Object.keys(r.by_depth!)).toEqual(['1', '3']);
    expect(r.by_depth!['3']).toMatchObject({ n: 2, scored: 1, credits: { spent: 10, per_correct: 10 } });
    expect(evaluate(rows.slice(0, 1), 25).by_depth).toBeUndefined();
  });
});
