/**
 * geo eval on a fixture clip with a truth file (issue 23 "Must show"): single frames scored on their
 * own beside the consensus, equal to values worked out by hand from the sandbox's scene table.
 * one-place.mp4 is one take at Taveuni (-16.8, 180: fixtures/clips/truth.csv); with --every 2 its
 * frames at 0, 2, 4, 6, 8 s carry variants 0, 2, 4, 1, 3: the truth itself, then 10 km west, south,
 * east and north (answers rounded to 3 decimals, as the service rounds them).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EvalReport } from '../../src/eval/evaluate.js';
import { destination, haversineKm } from '../../src/places/distance.js';
import { SCENES, VARIANTS } from '../../src/sandbox/marker.js';
import { CLIPS, FFMPEG, ffmpegTitle } from '../helpers/ffmpeg.js';
import { withSandbox } from '../helpers/sandbox.js';
import { runner } from '../commands/locate-helpers.js';

const sb = withSandbox();
const TRUTH = { lat: -16.8, lng: 180 };
const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Each frame's error: 0 for variant 0, about 10 km for the others. */
const errors = [0, 2, 4, 1, 3].map((v) => {
  const s = SCENES[3]!;
  const m = VARIANTS[v]!;
  const p = m.km === 0 ? { lat: s.lat, lng: s.lng } : destination(s.lat, s.lng, m.km, m.bearing);
  return haversineKm(TRUTH.lat, TRUTH.lng, round3(p.lat), round3(p.lng > 180 ? p.lng - 360 : p.lng));
});

describe.skipIf(!FFMPEG)(ffmpegTitle('geo eval clip.mp4 --truth truth.csv'), () => {
  it('reports the consensus beside single frames: within 1 km, 1 of 5 frames but the one consensus', async () => {
    const r = await runner(sb)(['eval', join(CLIPS, 'one-place.mp4'), '--truth', join(CLIPS, 'truth.csv'), '--every', '2', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const rep = JSON.parse(r.stdout) as EvalReport;
    const sorted = [...errors].sort((a, b) => a - b);
    // Single frames: 5 answers, one exact (within 1 km: 1/5), all within 25 km; the median is the
    // third of the sorted errors, the mean their sum over 5.
    expect([rep.n, rep.scored, rep.accuracy['1'], rep.accuracy['25']]).toEqual([5, 5, 0.2, 1]);
    expect(rep.error_km.median).toBeCloseTo(sorted[2]!, 6);
    expect(rep.error_km.mean).toBeCloseTo(errors.reduce((a, b) => a + b, 0) / 5, 6);
    expect(sorted[2]).toBeGreaterThan(9.9);
    // Consensus: the centre is an answer and the others pull in opposite pairs, so the consensus is
    // the truth itself: error 0, within 1 km 1/1.
    const c = rep.consensus!;
    expect([c.n, c.scored, c.accuracy['1'], c.accuracy['25']]).toEqual([1, 1, 1, 1]);
    expect(c.error_km.median).toBeCloseTo(0, 6);
    // What it cost: the 5 frames at depth 1; per correct answer 5/5 frames, 5/1 consensus.
    expect([rep.credits.spent, rep.credits.per_correct, c.credits.spent, c.credits.per_correct]).toEqual([5, 1, 5, 5]);
  });

  it('the terminal shows them side by side; NDJSON has a line per frame and one for the consensus', async () => {
    const args = ['eval', join(CLIPS, 'one-place.mp4'), '--truth', join(CLIPS, 'truth.csv'), '--every', '2'];
    const t = await runner(sb)(args);
    expect(t.stdout).toMatch(/What the consensus buys: every frame on its own, then one consensus per video\n\s+frames, depth 1\s+consensus, depth 1\nanswers \(scored\)\s+5 \(5\)\s+1 \(1\)\nwithin 1 km\s+20%\s+100%/);
    const n = await runner(sb)([...args, '--format', 'ndjson']);
    const lines = n.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { input: string; consensus?: boolean; error_km: number });
    expect(lines).toHaveLength(6);
    expect(lines.filter((l) => l.consensus).map((l) => [l.input.replace(/.*\//, ''), l.error_km])).toEqual([['one-place.mp4', expect.closeTo(0, 6)]]);
  });

  it('a video without a truth row is listed and never sent', async () => {
    const r = await runner(sb)(['eval', join(CLIPS, 'two-places.mp4'), '--truth', join(CLIPS, 'truth.csv')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no truth: \S*two-places\.mp4: not in the --truth file; skipped, not sent/);
  });
});
