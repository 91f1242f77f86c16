/**
 * The sandbox's model of known skill (issue 14 part 3): with a truth file, its images are answered
 * from their true position moved by a seeded error whose size and confidence follow the formula in
 * `geo sandbox --help`. The test recomputes that formula itself from the sha256 of the bytes geo
 * says it sends (--dry-run), then checks geo eval's figures against the hand-computed errors.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTruthFile } from '../../src/eval/truth.js';
import { loadKnownModel } from '../../src/sandbox/known.js';
import { type RunOptions, runCli, spawnGeo } from '../helpers/run-cli.js';
import { FIXTURES, KEYS, type TestSandbox, startTestSandbox } from '../helpers/sandbox.js';

const TRUTH = join(FIXTURES, 'truth.csv');
const IMAGES = ['paris.jpg', 'tokyo.jpg', 'sydney.jpg', 'newyork.jpg', 'nogps.jpg', 'plain.png'].map((f) => join(FIXTURES, f));
const E = 25;
const SCALE = { 1: 4, 2: 2, 3: 1 } as const;

let sb: TestSandbox;
const env = { GEO_API_KEY: KEYS.pro, GEO_STATE_DIR: mkdtempSync(join(tmpdir(), 'geo-known-state-')), GEO_DATA_DIR: mkdtempSync(join(tmpdir(), 'geo-known-data-')) };
const run = (argv: string[], opts: RunOptions = {}) => runCli(argv, { ...opts, env: { ...env, GEO_BASE_URL: sb.url, ...opts.env } });

beforeAll(async () => {
  const truth = await readTruthFile(TRUTH);
  const known = await loadKnownModel(truth.entries.map((e) => ({ path: e.path, name: e.path.split('/').pop()!, lat: e.lat, lng: e.lng })));
  sb = await startTestSandbox({ known });
});
afterAll(() => sb.close());

/** The documented draw, from the sha256 of the bytes sent (which is the sandbox's pixel key). */
function expected(sentSha: string, depth: 1 | 3) {
  const h = createHash('sha256').update(`1:${sentSha}`).digest();
  const u1 = h.readUInt32BE(0) / 2 ** 32;
  const errorKm = E * SCALE[depth] * -Math.log(1 - u1);
  const confidence = Math.round(Math.min(0.95, Math.max(0.05, Math.exp(-errorKm / (2 * E)))) * 100) / 100;
  return { errorKm, confidence };
}

/** Linear-interpolation quantile (geo eval --help). */
function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  const h = (s.length - 1) * q;
  const lo = Math.floor(h);
  return s[lo]! + (h - lo) * ((s[lo + 1] ?? s[lo]!) - s[lo]!);
}

describe('geo sandbox --truth: a model of known skill', () => {
  it('each answer is the true position moved by the documented seeded error, its confidence exp(-error / 2E); geo eval reports those errors, and its figures follow from them', async () => {
    const sent = new Map<string, string>();
    for (const img of IMAGES) {
      const dry = JSON.parse((await run(['locate', img, '--dry-run', '--json'])).stdout) as { image: { sha256: string } };
      sent.set(img, dry.image.sha256);
    }
    const r = await run(['eval', ...IMAGES, '--truth', TRUTH, '--depth', '1,3', '--format', 'ndjson', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { input: string; depth: number; error_km: number; confidence: number; correct: boolean });
    expect(lines).toHaveLength(12);
    const want = { 1: [] as number[], 3: [] as number[] };
    for (const line of lines) {
      const depth = line.depth as 1 | 3;
      const e = expected(sent.get(line.input)!, depth);
      // Coordinates come back rounded to 3 decimals (about 100 m): the error is known to that.
      expect(Math.abs(line.error_km - e.errorKm), `${line.input} depth ${depth}`).toBeLessThan(0.15);
      expect(line.confidence, `${line.input} depth ${depth}`).toBe(e.confidence);
      expect(line.correct).toBe(e.errorKm <= 25);
      want[depth].push(e.errorKm);
    }
    // The same images again as one --json: reused from the store, nothing sent, figures by hand.
    const before = sb.ledger().keys[KEYS.pro]!.debits;
    const json = JSON.parse((await run(['eval', ...IMAGES, '--truth', TRUTH, '--depth', '1,3', '--json', '--yes'])).stdout);
    expect(sb.ledger().keys[KEYS.pro]!.debits).toBe(before);
    for (const depth of [1, 3] as const) {
      const errs = want[depth];
      const fig = json.by_depth[String(depth)];
      for (const t of [1, 25, 200, 750, 2500]) expect(fig.accuracy[String(t)], `depth ${depth} within ${t} km`).toBeCloseTo(errs.filter((x) => x <= t).length / 6, 10);
      expect(fig.error_km.median).toBeCloseTo(quantile(errs, 0.5), 0);
      expect(fig.error_km.p90).toBeCloseTo(quantile(errs, 0.9), 0);
      expect(fig.credits.spent).toBe(6 * (depth === 1 ? 1 : 10));
    }
    // Depth 3 guesses four times closer than depth 1 (same draw, scale 1 against 4).
    expect(quantile(want[1], 0.5) / quantile(want[3], 0.5)).toBeCloseTo(4, 5);
  });

  it('an image not in the truth file gets the synthetic answer; --keep-metadata does not change a known image\'s answer (its pixels are the same)', async () => {
    const zero = await run(['locate', join(FIXTURES, 'zero.jpg'), '--json', '--fresh']);
    expect(JSON.parse(zero.stdout).reasoning).toMatch(/^\[sandbox\] Synthetic result/);
    const stripped = JSON.parse((await run(['locate', IMAGES[0]!, '--json', '--depth', '2', '--fresh'])).stdout);
    const kept = JSON.parse((await run(['locate', IMAGES[0]!, '--json', '--depth', '2', '--fresh', '--keep-metadata'])).stdout);
    expect(stripped.reasoning).toMatch(/^\[sandbox\] Known-skill model: the pixels match "paris\.jpg"/);
    expect(kept.location).toEqual(stripped.location);
  });

  it('geo sandbox --truth with a missing file or a bad --truth-error: one line, exit 2', async () => {
    const missing = await spawnGeo(['sandbox', '--port', '0', '--truth', join(tmpdir(), 'no-such-truth.csv')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    const bad = await spawnGeo(['sandbox', '--port', '0', '--truth', TRUTH, '--truth-error', '-3']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--truth-error must be a distance in km above 0/);
  });
});
