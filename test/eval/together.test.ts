/**
 * geo eval --together (issue 23): each folder is a set of photos of one scene, its truth a row of
 * the truth file naming the folder; every photo is scored on its own and the set's consensus as
 * one answer, side by side. The photos are stills of the fixture clip, which the sandbox answers
 * from the scene marker in their pixels (src/sandbox/marker.ts), so every figure below is worked
 * out by hand from that table.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { destination, haversineKm } from '../../src/places/distance.js';
import { SCENES, VARIANTS } from '../../src/sandbox/marker.js';
import { CLIPS, FFMPEG, ffmpegTitle } from '../helpers/ffmpeg.js';
import { withSandbox } from '../helpers/sandbox.js';
import { footprint, runner } from '../commands/locate-helpers.js';

const sb = withSandbox();
const TWO = join(CLIPS, 'two-places.mp4');
const round3 = (x: number) => Math.round(x * 1000) / 1000;
type P = { lat: number; lng: number };
/** What the sandbox answers for scene `code`, variant `v` (rounded to 3 decimals, as the service rounds). */
function answer(code: number, v: number): P {
  const s = SCENES[code]!;
  const m = VARIANTS[v]!;
  const p = m.km === 0 ? { lat: s.lat, lng: s.lng } : destination(s.lat, s.lng, m.km, m.bearing);
  return { lat: round3(p.lat), lng: round3(p.lng) };
}
/** The midpoint on the sphere: the geometric median of two points of equal weight. */
function midpoint(a: P, b: P): P {
  const r = Math.PI / 180;
  const v = (p: P) => [Math.cos(p.lat * r) * Math.cos(p.lng * r), Math.cos(p.lat * r) * Math.sin(p.lng * r), Math.sin(p.lat * r)];
  const [x, y, z] = v(a).map((c, i) => c + v(b)[i]!);
  return { lat: Math.atan2(z!, Math.hypot(x!, y!)) / r, lng: Math.atan2(y!, x!) / r };
}
const km = (a: P, b: P) => haversineKm(a.lat, a.lng, b.lat, b.lng);

interface Metrics {
  n: number;
  scored: number;
  accuracy: Record<string, number>;
  error_km: { median: number };
  credits: { spent: number; per_correct: number | null };
}

describe.skipIf(!FFMPEG)(ffmpegTitle('geo eval --together: a truth per set, the consensus beside single photos'), () => {
  const dir = mkdtempSync(join(tmpdir(), 'geo-eval-sets-'));
  const env = { GEO_DATA_DIR: mkdtempSync(join(tmpdir(), 'geo-data-')), GEO_STATE_DIR: mkdtempSync(join(tmpdir(), 'geo-state-')) };
  const run = (argv: string[]) => runner(sb)(argv, { env });
  const at = (name: string) => join(dir, name);
  const still = (folder: string, name: string, t: number) => execFileSync('ffmpeg', ['-loglevel', 'error', '-ss', String(t), '-i', TWO, '-frames:v', '1', '-q:v', '3', join(dir, folder, name)]);
  const truth = SCENES[1]!;

  beforeAll(() => {
    // "eiffel": three stills of the Paris shot, variants 0, 1, 2 (the place, 10 km east, 10 km west).
    // "mixed": the Paris shot's variants 0 and 1, and a still of Tokyo after the cut (variant 0).
    for (const f of ['eiffel', 'mixed', 'untold']) mkdirSync(join(dir, f));
    [0.5, 1.5, 2.5].forEach((t, i) => still('eiffel', `p${i}.jpg`, t));
    [0.5, 1.5, 3.5].forEach((t, i) => still('mixed', `p${i}.jpg`, t));
    still('untold', 'p0.jpg', 0.5);
    writeFileSync(join(dir, 'truth.csv'), `folder,lat,lng\neiffel,${truth.lat},${truth.lng}\nmixed/,${truth.lat},${truth.lng}\n`);
  });

  it('scores each photo against its set\'s truth and each set\'s consensus as one answer, equal to the hand-worked values', async () => {
    const r = await run(['eval', at('eiffel'), at('mixed'), at('untold'), '--together', '--truth', at('truth.csv'), '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/no truth: \S*untold: no row of the --truth file names this folder; skipped, not sent/);
    const report = JSON.parse(r.stdout) as Metrics & { consensus: Metrics & { kind: string } };
    const t = { lat: truth.lat, lng: truth.lng };
    // Single photos: eiffel v0, v1, v2; mixed v0, v1 and Tokyo.
    const photoErrors = [answer(1, 0), answer(1, 1), answer(1, 2), answer(1, 0), answer(1, 1), answer(2, 0)].map((a) => km(a, t));
    expect(photoErrors.map((e) => e < 1)).toEqual([true, false, false, true, false, false]);
    expect(photoErrors.map((e) => e < 25)).toEqual([true, true, true, true, true, false]);
    expect([report.n, report.scored]).toEqual([6, 6]);
    expect(report.accuracy['1']).toBeCloseTo(2 / 6, 10);
    expect(report.accuracy['25']).toBeCloseTo(5 / 6, 10);
    // The median of six errors: the mean of the 3rd and 4th smallest.
    const sorted = [...photoErrors].sort((a, b) => a - b);
    expect(report.error_km.median).toBeCloseTo((sorted[2]! + sorted[3]!) / 2, 6);
    // Consensus: eiffel's three answers pull east and west of the place equally, so its point is
    // the place's own answer; mixed's Paris cluster (2 of 3) has the midpoint of v0 and v1, 5 km east.
    const consensusErrors = [km(answer(1, 0), t), km(midpoint(answer(1, 0), answer(1, 1)), t)];
    expect(consensusErrors[0]).toBeLessThan(1);
    expect(consensusErrors[1]).toBeGreaterThan(4);
    expect(report.consensus.kind).toBe('set');
    expect([report.consensus.n, report.consensus.scored]).toEqual([2, 2]);
    expect(report.consensus.accuracy['1']).toBe(0.5);
    expect(report.consensus.accuracy['25']).toBe(1);
    expect(report.consensus.error_km.median).toBeCloseTo((consensusErrors[0]! + consensusErrors[1]!) / 2, 3);
    // Credits: 6 photos at depth 1, but mixed's first two are eiffel's first two (the same stills,
    // the same bytes: paid once), so 4; per correct (within 25 km): 4/5 for photos, 4/2 for the consensus.
    expect(report.credits).toEqual({ spent: 4, per_correct: 4 / 5 });
    expect(report.consensus.credits).toEqual({ spent: 4, per_correct: 2 });
  });

  it('the terminal and the HTML report put photos beside the consensus; ndjson adds one line per set; a rerun, and locate --together of a set, send nothing', async () => {
    const before = footprint(sb);
    const view = await run(['eval', at('eiffel'), at('mixed'), '--together', '--truth', at('truth.csv')]);
    expect(view.code, view.stderr).toBe(0);
    expect(view.stdout).toMatch(/What the consensus buys: every photo on its own, then one consensus per set/);
    expect(view.stdout).toMatch(/photos, depth 1\s+consensus, depth 1/);
    const lines = (await run(['eval', at('eiffel'), at('mixed'), '--together', '--truth', at('truth.csv'), '--format', 'ndjson'])).stdout.trim().split('\n').map((l) => JSON.parse(l) as { input: string; consensus?: boolean; correct: boolean });
    expect(lines.filter((l) => l.consensus).map((l) => [l.input, l.correct])).toEqual([[at('eiffel'), true], [at('mixed'), true]]);
    // The HTML report has the same side by side: the sets' consensus, one row per set.
    const report = await run(['eval', at('eiffel'), at('mixed'), '--together', '--truth', at('truth.csv'), '--report', at('eval.html')]);
    expect(report.code, report.stderr).toBe(0);
    const html = readFileSync(at('eval.html'), 'utf8');
    expect(html).toMatch(/<h2>What the consensus buys: one answer per set<\/h2><table><thead><tr><th><\/th><th>depth 1<\/th><\/tr><\/thead><tbody><tr><td>sets \(scored\)<\/td><td>2 \(2\)<\/td><\/tr><tr><td>within 1 km<\/td><td>50%<\/td>/);
    expect(html.match(/<td class="input" title="[^"]*(eiffel|mixed)">/g)).toHaveLength(2);
    const locate = await run(['locate', at('mixed'), '--together', '--json']);
    expect(locate.code, locate.stderr).toBe(0);
    expect(JSON.parse(locate.stdout).consensus).toMatchObject({ agree: 2, of: 3 });
    expect(footprint(sb)).toEqual(before);
  });

  it('bad input: a file, no --truth, --from-file: one line, exit 2, nothing sent', async () => {
    const before = footprint(sb);
    const file = await run(['eval', at('eiffel/p0.jpg'), '--together', '--truth', at('truth.csv')]);
    expect([file.code, file.stderr]).toEqual([2, expect.stringMatching(/error: \S*eiffel\/p0\.jpg is not a folder: with --together, each folder is one set of photos/)]);
    const noTruth = await run(['eval', at('eiffel'), '--together']);
    expect([noTruth.code, noTruth.stderr]).toEqual([2, expect.stringMatching(/error: a set's true position comes from --truth FILE/)]);
    const list = await run(['eval', '--from-file', at('truth.csv'), '--together']);
    expect([list.code, list.stderr]).toEqual([2, expect.stringMatching(/error: --together takes folders, one set of photos each: not --from-file/)]);
    expect(footprint(sb)).toEqual(before);
  });
});
