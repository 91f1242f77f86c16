/**
 * `geo eval` against the independent fake API playing a model of known skill (fake-model.ts): the
 * errors and confidences are chosen, so every figure of --json is checked against a value worked
 * out by hand here (the arithmetic is in the comments). Also: what is never sent (images without
 * a truth, a dry run, a plan above --max-credits, --from, a rerun over results already paid).
 */
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { width } from '../../src/output/fit.js';
import { type FakeApi, withFakeApi } from '../tolerant/fake-server.js';
import { type Dirs, KEY, freshDirs, geo } from '../tolerant/helpers.js';
import { FIXTURES, KM_PER_DEG, estimateOf, identify, modelAnswer, truthOf } from './fake-model.js';

let api: FakeApi;
withFakeApi((a) => (api = a));

const img = (f: string) => join(FIXTURES, f);
const FOUR = ['paris.jpg', 'tokyo.jpg', 'sydney.jpg', 'newyork.jpg'].map(img);
/** nogps.jpg has no GPS, zero.jpg a 0,0 placeholder: no truth, so never sent. */
const SIX = [...FOUR, img('nogps.jpg'), img('zero.jpg')];
const serve = () => {
  api.answers.geolocate = modelAnswer;
};
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const json = (stdout: string) => JSON.parse(stdout) as Json;

// ---- Figures worked out by hand from MODEL (fake-model.ts) -------------------------------------
// Depth 1 errors 0.5 (conf .95), 10 (.85), 150 (.55), 3000 (.15); sorted 0.5, 10, 150, 3000.
const DEPTH1 = {
  n: 4, scored: 4, thresholds_km: [1, 25, 200, 750, 2500],
  accuracy: { 1: 1 / 4, 25: 2 / 4, 200: 3 / 4, 750: 3 / 4, 2500: 3 / 4 },
  // median: h = 3 × .5 = 1.5 -> 10 + .5 × 140 = 80; mean 3160.5 / 4; p90: h = 2.7 -> 150 + .7 × 2850
  error_km: { median: 80, mean: 790.125, p90: 2145 },
  // bins 9 (.95, right), 8 (.85, right), 5 (.55, wrong), 1 (.15, wrong): (.05 + .15 + .55 + .15) / 4
  ece: 0.225,
  bins: { 1: [0.15, 0], 5: [0.55, 0], 8: [0.85, 1], 9: [0.95, 1] } as Record<number, [number, number]>,
  credits: { spent: 4, per_correct: 4 / 2 },
};
// Depth 3 errors 0.2 (.92, publish), 40 (.72, publish), 5 (.35, abstain), 900 (.25, abstain).
const DEPTH3 = {
  n: 4, scored: 4,
  accuracy: { 1: 1 / 4, 25: 2 / 4, 200: 3 / 4, 750: 3 / 4, 2500: 4 / 4 },
  // sorted 0.2, 5, 40, 900: median 5 + .5 × 35; mean 945.2 / 4; p90 40 + .7 × 860
  error_km: { median: 22.5, mean: 236.3, p90: 642 },
  // bins 9 (.92, right), 7 (.72, wrong), 3 (.35, right), 2 (.25, wrong): (.08 + .72 + .65 + .25) / 4
  ece: 0.425,
  // publish: paris right, tokyo wrong; abstain: sydney right (5 km), newyork wrong; the advice was
  // right for paris (publish, correct) and newyork (abstain, wrong): 2 of 4.
  advice: { publish: { n: 2, accuracy: 0.5 }, abstain: { n: 2, accuracy: 0.5 }, right: 0.5 },
  credits: { spent: 40, per_correct: 40 / 2 },
};
// Both pooled: sorted 0.2, 0.5, 5, 10, 40, 150, 900, 3000.
const POOLED = {
  n: 8, scored: 8,
  accuracy: { 1: 2 / 8, 25: 4 / 8, 200: 6 / 8, 750: 6 / 8, 2500: 7 / 8 },
  // median: h = 3.5 -> 10 + .5 × 30 = 25; mean 4105.7 / 8; p90: h = 6.3 -> 900 + .3 × 2100
  error_km: { median: 25, mean: 513.2125, p90: 1530 },
  // n_b |acc - conf|: bin 9 2 × |1 - .935|, 8 .15, 7 .72, 5 .55, 3 .65, 2 .25, 1 .15 -> 2.6 / 8
  ece: 0.325,
  credits: { spent: 44, per_correct: 44 / 4 },
};

function expectFigures(got: Json, want: { n: number; scored: number; accuracy: Record<number, number>; error_km: Record<string, number>; ece: number; credits: Record<string, number> }): void {
  expect(got.n).toBe(want.n);
  expect(got.scored).toBe(want.scored);
  expect(got.thresholds_km).toEqual([1, 25, 200, 750, 2500]);
  expect(Object.keys(got.accuracy)).toEqual(['1', '25', '200', '750', '2500']);
  for (const [t, v] of Object.entries(want.accuracy)) expect(got.accuracy[t], `accuracy ${t}`).toBe(v);
  for (const k of ['median', 'mean', 'p90']) expect(got.error_km[k], `error_km.${k}`).toBeCloseTo(want.error_km[k]!, 6);
  expect(got.calibration.correct_within_km).toBe(25);
  expect(got.calibration.ece).toBeCloseTo(want.ece, 9);
  expect(got.calibration.bins).toHaveLength(10);
  expect(got.credits).toEqual(want.credits);
}

describe('geo eval: every figure as computed by hand', () => {
  it('depth 1: the figures; nogps.jpg and zero.jpg (no truth) listed on stderr and never sent', async () => {
    serve();
    const r = await geo(api, ['eval', ...SIX, '--depth', '1', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(api.count('geolocate')).toBe(4);
    expect(r.stderr).toMatch(/no truth: .*nogps\.jpg: no EXIF GPS.*skipped, not sent/);
    expect(r.stderr).toMatch(/no truth: .*zero\.jpg: no EXIF GPS \(or a 0,0 placeholder\).*skipped, not sent/);
    const got = json(r.stdout);
    expectFigures(got, DEPTH1);
    expect(got.by_depth).toBeUndefined();
    for (const [i, b] of got.calibration.bins.entries()) {
      expect([b.lo, b.hi]).toEqual([i / 10, (i + 1) / 10].map((x) => Math.round(x * 10) / 10));
      const want = DEPTH1.bins[i];
      if (want) expect([b.n, b.mean_confidence, b.accuracy]).toEqual([1, want[0], want[1]]);
      else expect([b.n, b.mean_confidence, b.accuracy]).toEqual([0, null, null]);
    }
    // Abstaining below 0.6 keeps paris and tokyo (both correct): coverage 2/4, accuracy 1.
    expect(got.abstention[6]).toEqual({ threshold: 0.6, coverage: 0.5, accuracy: 1 });
    expect(got.abstention[0]).toEqual({ threshold: 0, coverage: 1, accuracy: 0.5 });
    expect(got.advice).toBeNull();
  });

  it('--depth 1,3: by_depth holds each depth, the top level pools both, and the depth-3 advice is scored', async () => {
    serve();
    // 4 × 1 + 4 × 10 = 44 credits, above the confirm threshold of 20: --yes consents.
    const r = await geo(api, ['eval', ...FOUR, '--depth', '1,3', '--yes', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(api.count('geolocate')).toBe(8);
    expect(r.stderr).toMatch(/plan, all depths: up to 44 credits/);
    const got = json(r.stdout);
    expect(got.depths).toEqual([1, 3]);
    expect(Object.keys(got.by_depth)).toEqual(['1', '3']);
    expectFigures(got.by_depth['1'], DEPTH1);
    expectFigures(got.by_depth['3'], DEPTH3);
    expectFigures(got, POOLED);
    expect(got.by_depth['3'].advice).toEqual(DEPTH3.advice);
    expect(got.by_depth['1'].advice).toBeNull();
  });

  it('--format ndjson: one line per image and depth with input, truth, estimate, error_km, confidence, correct, depth', async () => {
    serve();
    const r = await geo(api, ['eval', img('tokyo.jpg'), img('sydney.jpg'), '--depth', '3', '--format', 'ndjson', '--correct-within', '10']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => Object.keys(l))).toEqual([0, 1].map(() => ['input', 'truth', 'estimate', 'error_km', 'confidence', 'correct', 'depth']));
    expect(lines[0]).toMatchObject({ input: img('tokyo.jpg'), truth: truthOf('tokyo.jpg'), estimate: estimateOf('tokyo.jpg', 3), confidence: 0.72, correct: false, depth: 3 });
    expect(lines[0].error_km).toBeCloseTo(40, 6);
    // 5 km is within --correct-within 10.
    expect(lines[1]).toMatchObject({ input: img('sydney.jpg'), confidence: 0.35, correct: true, depth: 3 });
    expect(lines[1].error_km).toBeCloseTo(5, 6);
  });

  it('a failed image counts in n, not in scored, and exits 7 after printing the figures', async () => {
    api.answers.geolocate = (n, req) => (identify(req).file === 'newyork.jpg' ? { status: 422, body: '{"success":false,"code":"invalid_image","message":"cannot read"}' } : modelAnswer(n, req));
    const r = await geo(api, ['eval', ...FOUR, '--depth', '1', '--json']);
    expect(r.code).toBe(7);
    const got = json(r.stdout);
    expect([got.n, got.scored]).toEqual([4, 3]);
    // 0.5, 10, 150 of 3: within 25 km 2/3; credits 3 (the failure is not charged) over 2 correct.
    expect(got.accuracy['25']).toBe(2 / 3);
    expect(got.error_km.median).toBeCloseTo(10, 6);
    expect(got.credits).toEqual({ spent: 3, per_correct: 1.5 });
  });
});

describe('geo eval sends nothing it need not', () => {
  it('a second run over the same images sends nothing and reports the same figures', async () => {
    serve();
    const dirs = freshDirs();
    const first = await geo(api, ['eval', ...SIX, '--depth', '1', '--json'], dirs);
    expect(first.code, first.stderr).toBe(0);
    expect(api.count('geolocate')).toBe(4);
    const again = await geo(api, ['eval', ...SIX, '--depth', '1', '--json'], dirs);
    expect(again.code, again.stderr).toBe(0);
    expect(api.count('geolocate')).toBe(4);
    expect(json(again.stdout)).toEqual(json(first.stdout));
    expect(again.stderr).toMatch(/4 answers from your earlier runs .*not sent, not charged/);
  });

  it('results locate already paid for are reused from the store: eval sends nothing', async () => {
    serve();
    const dirs = freshDirs();
    expect((await geo(api, ['locate', ...FOUR, '--depth', '3', '--yes', '--format', 'ndjson'], dirs)).code).toBe(0);
    expect(api.count('geolocate')).toBe(4);
    const r = await geo(api, ['eval', ...FOUR, '--depth', '3', '--json'], dirs);
    expect(r.code, r.stderr).toBe(0);
    expect(api.count('geolocate')).toBe(4);
    expectFigures(json(r.stdout), DEPTH3);
  });

  it('--from locate\'s NDJSON computes the same figures and sends no request at all', async () => {
    serve();
    const dirs: Dirs = freshDirs();
    const located = await geo(api, ['locate', ...SIX, '--depth', '1', '--format', 'ndjson'], dirs);
    const file = join(mkdtempSync(join(tmpdir(), 'geo-eval-')), 'results.ndjson');
    writeFileSync(file, located.stdout);
    const before = { geolocate: api.count('geolocate'), credits: api.count('credits') };
    // No key, no base URL: --from never needs the service.
    const r = await runCli(['eval', '--from', file, '--json'], { env: { GEO_STATE_DIR: dirs.state, GEO_DATA_DIR: dirs.data } });
    expect(r.code, r.stderr).toBe(0);
    expect({ geolocate: api.count('geolocate'), credits: api.count('credits') }).toEqual(before);
    expectFigures(json(r.stdout), DEPTH1);
    expect(r.stderr).toMatch(/nogps\.jpg: no answer in .*results\.ndjson \(line \d\); left out/);
  });

  it('--dry-run prints the plan of every depth and sends nothing', async () => {
    serve();
    const r = await geo(api, ['eval', ...SIX, '--depth', '1,3', '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(api.count('geolocate')).toBe(0);
    expect(r.stdout).toMatch(/plan, depth 1: 4 inputs · 4 to send × depth 1 \(1 credit\) = up to 4 credits/);
    expect(r.stdout).toMatch(/plan, depth 3: 4 inputs · 4 to send × depth 3 \(10 credits\) = up to 40 credits/);
    expect(r.stdout).toMatch(/all depths: up to 44 credits\ndry run: nothing was sent/);
  });

  it('--dry-run needs no key, as locate\'s does: the plans, balance unknown, nothing sent', async () => {
    serve();
    const dirs = freshDirs();
    const r = await runCli(['eval', ...FOUR, '--depth', '1,3', '--dry-run'], { env: { GEO_API_KEY: undefined, GEO_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'geo-eval-nokey-')), GEO_BASE_URL: api.url, GEO_STATE_DIR: dirs.state, GEO_DATA_DIR: dirs.data } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/plan, depth 3: 4 inputs · 4 to send × depth 3 \(10 credits\) = up to 40 credits · balance unknown/);
    expect(api.count('geolocate') + api.count('credits')).toBe(0);
  });

  it('--max-credits below the total of all depths: exit 2, nothing sent', async () => {
    serve();
    const r = await geo(api, ['eval', ...FOUR, '--depth', '1,3', '--max-credits', '43']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/up to 44 credits \(4 × 1 at depth 1 \+ 4 × 10 at depth 3\), above --max-credits 43; nothing was sent/);
    expect(api.count('geolocate')).toBe(0);
  });

  it('above the confirm threshold with nothing to ask (piped): refused, exit 2, nothing sent', async () => {
    serve();
    const r = await geo(api, ['eval', ...FOUR, '--depth', '1,3']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the plan spends up to 44 credits, above the confirm threshold of 20, .*nothing was sent/);
    expect(api.count('geolocate')).toBe(0);
  });

  it('a broken file found in a folder, even one with a truth, is listed as skipped and never sent; the rest are evaluated', async () => {
    serve();
    const dir = mkdtempSync(join(tmpdir(), 'geo-eval-broken-'));
    copyFileSync(img('paris.jpg'), join(dir, 'paris.jpg'));
    writeFileSync(join(dir, 'empty.jpg'), '');
    writeFileSync(join(dir, 'notes.jpg'), 'not an image\n');
    const truth = join(dir, 'truth.csv');
    writeFileSync(truth, 'file,lat,lng\nparis.jpg,48.85837,2.294481\nempty.jpg,1,2\nnotes.jpg,3,4\n');
    const r = await geo(api, ['eval', dir, '--truth', truth, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/skipped .*empty\.jpg: empty \(0 bytes\); not sent/);
    expect(r.stderr).toMatch(/skipped .*notes\.jpg: not an image \(text\); not sent/);
    expect(api.count('geolocate')).toBe(1);
    expect(json(r.stdout)).toMatchObject({ n: 1, scored: 1 });
  });

  it('no image with a truth: exit 2, nothing sent', async () => {
    serve();
    const r = await geo(api, ['eval', img('nogps.jpg')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no image has a known position: nothing to evaluate, nothing sent/);
    expect(api.count('geolocate') + api.count('credits')).toBe(0);
  });

  it.each([
    [['--depth', '1,4'], /--depth must be 1, 2 or 3 or a list of them, got "1,4"/],
    [['--depth', '1,1'], /--depth names a depth twice/],
    [['--correct-within', '0'], /--correct-within must be a distance in km above 0/],
    [['--from', 'x.ndjson'], /--from computes from results already received: give no images with it/],
    [['--truth', '/nonexistent.csv'], /--truth \/nonexistent.csv: cannot read/],
  ])('%j is a usage error before anything is sent', async (flags, re) => {
    serve();
    const r = await geo(api, ['eval', img('paris.jpg'), ...flags]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(re);
    expect(api.count('geolocate') + api.count('credits')).toBe(0);
  });
});

describe('geo eval --truth and output', () => {
  it('--truth CSV gives nogps.jpg a position (by file name) and replaces EXIF truth', async () => {
    serve();
    const dir = mkdtempSync(join(tmpdir(), 'geo-eval-truth-'));
    // nogps.jpg shares its pixels with no MODEL photo: the fake refuses it (422), so: copy paris'
    // pixels under another name instead, with a truth 100 km south of where the model places it.
    copyFileSync(img('paris.jpg'), join(dir, 'unlabelled.jpg'));
    const est = estimateOf('paris.jpg', 1);
    writeFileSync(join(dir, 'truth.csv'), `file,lat,lng\n"unlabelled.jpg",${est.lat - 100 / KM_PER_DEG},${est.lng}\n`);
    const r = await geo(api, ['eval', join(dir, 'unlabelled.jpg'), '--truth', join(dir, 'truth.csv'), '--format', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    const line = JSON.parse(r.stdout);
    expect(line.error_km).toBeCloseTo(100, 6);
    expect(line.correct).toBe(false);
  });

  it('the table fits 80 columns on a terminal, three depths and the pooled column included', async () => {
    serve();
    api.answers.geolocate = (n, req) => (identify(req).depth === 2 ? { status: 200, body: JSON.stringify({ ...JSON.parse(modelAnswer(n, { ...req, body: Buffer.from(req.body.toString().replace('"depth":2', '"depth":1')) }).body as string), depth: 2, thinking: 't', visual_clues: [] }) } : modelAnswer(n, req));
    const dirs = freshDirs();
    const r = await runCli(['eval', ...FOUR, '--depth', '1,2,3', '--yes'], {
      env: { GEO_API_KEY: KEY, GEO_BASE_URL: api.url, GEO_STATE_DIR: dirs.state, GEO_DATA_DIR: dirs.data }, tty: { stdout: true }, columns: 80,
    });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.replace(/\x1b\[[0-9;]*m/g, '').trimEnd().split('\n');
    expect(lines.filter((l) => width(l) > 80)).toEqual([]);
    const text = lines.join('\n');
    expect(text).toMatch(/depth 1 .* depth 2 .* depth 3 .* all/);
    expect(text).toMatch(/within 25 km/);
    expect(text).toMatch(/depth-3 advice: publish 2 \(50% correct\) · abstain 2 \(50% correct\) · right 50%/);
  });

  it('--report: one self-contained page, strict CSP, no script, input names escaped', async () => {
    serve();
    const dir = mkdtempSync(join(tmpdir(), 'geo-eval-report-'));
    const hostile = join(dir, '<img src=x onerror=alert(1)>.jpg');
    copyFileSync(img('paris.jpg'), hostile);
    const report = join(dir, 'eval.html');
    const r = await geo(api, ['eval', hostile, img('tokyo.jpg'), '--depth', '1', '--report', report, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(report, 'utf8');
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;none&#39;; style-src &#39;sha256-[A-Za-z0-9+/=]+&#39;; img-src &#39;none&#39;/);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;.jpg');
    expect((html.match(/<svg class="chart"/g) ?? []).length).toBe(2);
    expect(html).not.toMatch(/https?:\/\//);
  });
});
