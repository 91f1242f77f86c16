/**
 * Consensus math by hand (issue 23 "Must show"): every expected value below is worked out in the
 * comment beside it, not read from the code. One degree of arc is 6371.0088 × π/180 = 111.19508 km.
 */
import { describe, expect, it } from 'vitest';
import { consensus, mergeRanges, votesOf } from '../../src/media/consensus.js';
import { geometricMedian } from '../../src/media/median.js';
import { destination, haversineKm } from '../../src/places/distance.js';

const KM_PER_DEG = (6371.0088 * Math.PI) / 180;
const lead = (index: number, lat: number, lng: number, spans?: Array<[number, number]>) => ({ index, lead: { lat, lng }, ...(spans ? { spans } : {}) });

describe('geometric median on the sphere', () => {
  it('three points across the antimeridian: the middle one, at 180°, not a mean near 60°', () => {
    // On the equator at 179.9, 180 and -179.9: collinear, so the median is the middle point.
    const m = geometricMedian([{ lat: 0, lng: 179.9, weight: 1 }, { lat: 0, lng: -179.9, weight: 1 }, { lat: 0, lng: 180, weight: 1 }])!;
    expect(m.lat).toBeCloseTo(0, 9);
    expect(Math.abs(m.lng)).toBeCloseTo(180, 9);
  });

  it('two equal answers either side of the antimeridian: the midpoint, 180°', () => {
    const m = geometricMedian([{ lat: 10, lng: 179.9, weight: 1 }, { lat: 10, lng: -179.9, weight: 1 }])!;
    expect(Math.abs(m.lng)).toBeCloseTo(180, 9);
    // The midpoint of the great circle lies a hair north of 10° (great circles bulge poleward).
    expect(m.lat).toBeGreaterThan(10);
    expect(m.lat).toBeLessThan(10.0001);
  });

  it('collinear points: the weighted median of the line', () => {
    // Equator at 0, 1, 2, 10, 11: equal weights, the third (2°) has two on each side.
    const eq = (lngs: number[], w: number[]) => lngs.map((lng, i) => ({ lat: 0, lng, weight: w[i]! }));
    expect(geometricMedian(eq([0, 1, 2, 10, 11], [1, 1, 1, 1, 1]))!.lng).toBeCloseTo(2, 9);
    // Weights 1,1,1,1,3 (total 7): cumulative from the west 1, 2, 3, 4 ≥ 3.5 at 10°.
    expect(geometricMedian(eq([0, 1, 2, 10, 11], [1, 1, 1, 1, 3]))!.lng).toBeCloseTo(10, 9);
  });

  it('a point holding half the weight is the median, however far the others are', () => {
    const m = geometricMedian([{ lat: 48.8584, lng: 2.2945, weight: 3 }, { lat: 35.66, lng: 139.7, weight: 2 }, { lat: -33.86, lng: 151.2, weight: 1 }])!;
    expect(m.lat).toBeCloseTo(48.8584, 9);
    expect(m.lng).toBeCloseTo(2.2945, 9);
  });

  it('four points 10 km N, S, E and W of a centre: the centre, which is none of them', () => {
    const c = { lat: -16.75, lng: 180 };
    const pts = [0, 90, 180, 270].map((b) => ({ ...destination(c.lat, c.lng, 10, b), weight: 1 }));
    const m = geometricMedian(pts)!;
    expect(haversineKm(m.lat, m.lng, c.lat, c.lng)).toBeLessThan(1e-6);
  });

  it('an asymmetric set: no nearby point has a smaller weighted sum of distances', () => {
    const pts = [
      { lat: 48.85, lng: 2.29, weight: 0.5 }, { lat: 48.9, lng: 2.4, weight: 1 }, { lat: 48.8, lng: 2.35, weight: 0.7 }, { lat: 48.83, lng: 2.2, weight: 0.2 },
    ];
    const m = geometricMedian(pts)!;
    const cost = (p: { lat: number; lng: number }) => pts.reduce((s, q) => s + q.weight * haversineKm(p.lat, p.lng, q.lat, q.lng), 0);
    for (const b of [0, 45, 90, 135, 180, 225, 270, 315]) expect(cost(destination(m.lat, m.lng, 0.01, b))).toBeGreaterThan(cost(m));
  });
});

describe('votes: confidence compared within each answer', () => {
  it('a lead alone weighs 1; with two candidates 6/11, 3/11, 2/11, candidates ordered by their own confidence', () => {
    expect(votesOf(lead(0, 1, 2)).map((v) => v.weight)).toEqual([1]);
    // Ranks 0, 1, 2 weigh 1, 1/2, 1/3 (sum 11/6), normalised: 6/11, 3/11, 2/11. The candidate with
    // confidence 40 outranks the one with 10 although it is listed second.
    const v = votesOf({ index: 3, lead: { lat: 0, lng: 0 }, candidates: [{ lat: 1, lng: 1, confidence: 10 }, { lat: 2, lng: 2, confidence: 40 }] });
    expect(v.map((x) => [x.lat, x.rank])).toEqual([[0, 0], [2, 1], [1, 2]]);
    expect(v[0]!.weight).toBeCloseTo(6 / 11, 12);
    expect(v[1]!.weight).toBeCloseTo(3 / 11, 12);
    expect(v[2]!.weight).toBeCloseTo(2 / 11, 12);
  });

  it('raw confidence across frames does not matter: one sure frame does not outvote two unsure ones', () => {
    // Frames 0 and 1 say Tokyo, frame 2 says Paris; whatever the confidences were, Tokyo has 2 votes.
    const c = consensus([lead(0, 35.66, 139.7), lead(1, 35.67, 139.71), lead(2, 48.85, 2.29)], 25);
    expect(c.clusters.map((k) => [k.frames, k.support])).toEqual([[[0, 1], 2], [[2], 1]]);
  });
});

describe('clusters', () => {
  it('a two-place compilation: two clusters, each with its frames and time ranges', () => {
    // Paris for 0-3 s and 6-9 s, Tokyo for 3-6 s: Paris has 3 frames, Tokyo 2.
    const c = consensus([
      lead(0, 48.8584, 2.2945, [[0, 2000]]), lead(1, 48.8584, 2.4307, [[2000, 3000]]),
      lead(2, 35.6595, 139.7005, [[3000, 5000]]), lead(3, 35.6595, 139.8110, [[5000, 6000]]),
      lead(4, 48.8584, 2.2945, [[6000, 9000]]),
    ], 25);
    expect(c.n).toBe(5);
    expect(c.clusters).toHaveLength(2);
    const [paris, tokyo] = c.clusters;
    expect(paris!.frames).toEqual([0, 1, 4]);
    expect(paris!.timeRanges).toEqual([[0, 3000], [6000, 9000]]);
    expect(tokyo!.frames).toEqual([2, 3]);
    expect(tokyo!.timeRanges).toEqual([[3000, 6000]]);
    // Paris: two votes at 2.2945 of three, so the median is there; the spread is the distance to
    // the frame at 2.4307: 0.1362° of longitude at 48.8584° ≈ 0.1362 × 111.195 × cos(48.8584°) = 9.97 km.
    expect(paris!.lat).toBeCloseTo(48.8584, 6);
    expect(paris!.lng).toBeCloseTo(2.2945, 6);
    expect(paris!.spreadKm).toBeCloseTo(0.1362 * KM_PER_DEG * Math.cos((48.8584 * Math.PI) / 180), 1);
  });

  it('frames at 179.9° and -179.9° agree: one cluster, the consensus on the antimeridian', () => {
    // 0.2° of equator apart = 22.24 km < 25: linked. The median of the two is the midpoint at 180°,
    // and each frame is 0.1° = 11.12 km from it.
    const c = consensus([lead(0, 0, 179.9), lead(1, 0, -179.9)], 25);
    expect(c.clusters).toHaveLength(1);
    const k = c.clusters[0]!;
    expect(k.frames).toEqual([0, 1]);
    expect(Math.abs(k.lng)).toBeCloseTo(180, 6);
    expect(k.spreadKm).toBeCloseTo(0.1 * KM_PER_DEG, 6);
  });

  it('links within --agree-km only', () => {
    // The same two frames with --agree-km 20: 22.24 km apart, two clusters of one frame each.
    expect(consensus([lead(0, 0, 179.9), lead(1, 0, -179.9)], 20).clusters.map((k) => k.frames)).toEqual([[0], [1]]);
  });

  it('depth-3 candidates are weaker votes: they move support, not k of n', () => {
    // Frame 0: lead at A, candidate at B. Frame 1: lead at B. Frame 2: lead at A.
    // A: 2/3 (frame 0's lead, ranks 1 and 1/2 of 3/2) + 1 = 5/3; B: 1/3 + 1 = 4/3.
    const A = { lat: 10, lng: 10 };
    const B = { lat: 20, lng: 20 };
    const c = consensus([{ index: 0, lead: A, candidates: [B] }, { index: 1, lead: B }, { index: 2, lead: A }], 25);
    expect(c.clusters.map((k) => k.frames)).toEqual([[0, 2], [1]]);
    expect(c.clusters[0]!.support).toBeCloseTo(5 / 3, 12);
    expect(c.clusters[1]!.support).toBeCloseTo(4 / 3, 12);
    expect(c.clusters[1]!.voters).toEqual([0, 1]);
  });

  it('ranks by support, then agreeing frames, then the earliest frame', () => {
    // Two clusters of one frame each and equal support: the earlier frame comes first.
    const c = consensus([lead(0, 10, 10), lead(1, -10, -10)], 25);
    expect(c.clusters.map((k) => k.frames)).toEqual([[0], [1]]);
    expect(consensus([lead(1, 10, 10), lead(0, -10, -10)], 25).clusters.map((k) => k.frames)).toEqual([[0], [1]]);
  });

  it('merges touching and overlapping ranges', () => {
    expect(mergeRanges([[5, 7], [0, 2], [2, 3], [6, 9]])).toEqual([[0, 3], [5, 9]]);
  });
});
