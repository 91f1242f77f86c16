/**
 * Issue 33, "Must show" 3: `geo eval --claims truth.csv` against the sandbox's model of known skill
 * prints figures equal to ones computed here by hand. The test recomputes, independently of geo's
 * code: each answer's confidence from the documented draw (geo sandbox --help, as
 * test/sandbox/known-skill.test.ts does), each claim's distance to the estimate with its own
 * haversine, each verdict from the rule table of geo claims check --help, and from those verdicts
 * the false-accusation and detection rates, the unverifiable shares and the credits per claim.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTruthFile } from '../../src/eval/truth.js';
import { loadKnownModel } from '../../src/sandbox/known.js';
import { type RunOptions, runCli } from '../helpers/run-cli.js';
import { FIXTURES, KEYS, type TestSandbox, startTestSandbox } from '../helpers/sandbox.js';

const TRUTH = join(FIXTURES, 'truth.csv');
const E = 25;
const SCALE = { 1: 4, 3: 1 } as const;
const DISTANCES = [25, 200, 750, 2500];

let sb: TestSandbox;
const env = { GEO_API_KEY: KEYS.pro, GEO_STATE_DIR: mkdtempSync(join(tmpdir(), 'geo-evalclaims-')), GEO_DATA_DIR: mkdtempSync(join(tmpdir(), 'geo-evalclaims-')) };
const run = (argv: string[], opts: RunOptions = {}) => runCli(argv, { ...opts, env: { ...env, GEO_BASE_URL: sb.url, ...opts.env } });

beforeAll(async () => {
  const truth = await readTruthFile(TRUTH);
  sb = await startTestSandbox({ known: await loadKnownModel(truth.entries.map((e) => ({ path: e.path, name: e.path.split('/').pop()!, lat: e.lat, lng: e.lng }))) });
});
afterAll(() => sb.close());

/** Great-circle km, written here again (mean Earth radius 6371.0088 km). */
function km(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const r = Math.PI / 180;
  const h = Math.sin(((b.lat - a.lat) * r) / 2) ** 2 + Math.cos(a.lat * r) * Math.cos(b.lat * r) * Math.sin(((b.lng - a.lng) * r) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The sandbox's documented confidence for an image (its sent bytes' sha256) at a depth. */
function confidenceOf(sentSha: string, depth: 1 | 3): number {
  const u1 = createHash('sha256').update(`1:${sentSha}`).digest().readUInt32BE(0) / 2 ** 32;
  const errorKm = E * SCALE[depth] * -Math.log(1 - u1);
  return Math.round(Math.min(0.95, Math.max(0.05, Math.exp(-errorKm / (2 * E)))) * 100) / 100;
}

interface Line {
  input: string;
  kind: 'true' | 'false';
  distance_km: number | null;
  actual_km: number;
  claim: { lat: number; lng: number };
  tolerance_km: number;
  depth: 1 | 3;
  verdict: string;
  estimate: { lat: number; lng: number; confidence: number };
  estimate_km: number;
  nearest_candidate_km: number | null;
  exif_km: number | null;
}

/**
 * The rule table, by hand: T = 25 km; R = 100 km at depth 1, 25 km at depth 3 (the sandbox's
 * city_level tier), M = max(50, 2R); the sandbox's depth-3 calibration abstains below 0.35.
 */
function byHand(l: Line): string {
  const T = 25;
  const M = l.depth === 1 ? 200 : 50;
  const c = l.estimate.confidence;
  const D = km(l.claim, l.estimate);
  const exifNear = l.exif_km !== null && l.exif_km <= T + 5;
  if (l.depth === 3 && c < 0.35) return 'unverifiable';
  if (D <= T) return c >= 0.5 && (l.exif_km === null || exifNear) ? 'agrees' : 'unverifiable';
  const candidateNear = l.nearest_candidate_km !== null && l.nearest_candidate_km <= T + M;
  return D > T + M && c >= 0.6 && !candidateNear && !exifNear ? 'contradicts' : 'unverifiable';
}

describe('geo eval --claims on the sandbox with a truth file', () => {
  it('prints the false-accusation and detection rates, unverifiable shares and credits per claim computed by hand', async () => {
    const truth = await readTruthFile(TRUTH);
    const sent = new Map<string, string>();
    for (const e of truth.entries) sent.set(e.path, (JSON.parse((await run(['locate', e.path, '--dry-run', '--json'])).stdout) as { image: { sha256: string } }).image.sha256);

    const r = await run(['eval', '--claims', TRUTH, '--depth', '1,3', '--format', 'ndjson', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Line);
    // 6 images, a true claim and 4 false ones each, at 2 depths.
    expect(lines).toHaveLength(6 * 5 * 2);
    for (const l of lines) {
      const t = truth.lookup(l.input)!;
      expect(l.estimate.confidence, `${l.input} depth ${l.depth}`).toBe(confidenceOf(sent.get(t.path)!, l.depth));
      expect(l.tolerance_km).toBe(25);
      expect(Math.abs(km(l.claim, l.estimate) - l.estimate_km)).toBeLessThan(1e-3);
      // The claims: the truth itself, or a place d ± max(5, d/10) km from it.
      expect(Math.abs(km(t, l.claim) - l.actual_km)).toBeLessThan(1e-3);
      if (l.kind === 'true') expect(l.actual_km).toBe(0);
      else expect(Math.abs(l.actual_km - l.distance_km!)).toBeLessThanOrEqual(Math.max(5, l.distance_km! / 10) + 0.01);
      expect(l.verdict, `${l.input} ${l.kind} ${l.distance_km} depth ${l.depth}`).toBe(byHand(l));
    }
    const before = sb.ledger().keys[KEYS.pro]!.debits;
    const json = JSON.parse((await run(['eval', '--claims', TRUTH, '--depth', '1,3', '--json'])).stdout);
    expect(sb.ledger().keys[KEYS.pro]!.debits).toBe(before);
    const table = (await run(['eval', '--claims', TRUTH, '--depth', '1,3'])).stdout;
    for (const depth of [1, 3] as const) {
      const at = lines.filter((l) => l.depth === depth);
      const trues = at.filter((l) => l.kind === 'true');
      const falses = at.filter((l) => l.kind === 'false');
      const n = (xs: Line[], v: string) => xs.filter((l) => byHand(l) === v).length;
      const f = json.by_depth[String(depth)];
      expect(f.true_claims).toMatchObject({ n: 6, contradicts: n(trues, 'contradicts'), agrees: n(trues, 'agrees'), unverifiable: n(trues, 'unverifiable') });
      expect(f.true_claims.false_accusation_rate).toBeCloseTo(n(trues, 'contradicts') / 6, 12);
      expect(f.true_claims.unverifiable_share).toBeCloseTo(n(trues, 'unverifiable') / 6, 12);
      expect(f.false_claims.detection_rate).toBeCloseTo(n(falses, 'contradicts') / 24, 12);
      expect(f.false_claims.unverifiable_share).toBeCloseTo(n(falses, 'unverifiable') / 24, 12);
      for (const d of DISTANCES) {
        const at_d = falses.filter((l) => l.distance_km === d);
        expect(f.false_claims.by_distance[String(d)].detection_rate, `depth ${depth}, ${d} km`).toBeCloseTo(n(at_d, 'contradicts') / at_d.length, 12);
      }
      // Each image paid once per depth, its five claims sharing the answer.
      expect(f.credits).toEqual({ spent: 6 * (depth === 1 ? 1 : 10), per_claim: (6 * (depth === 1 ? 1 : 10)) / 30 });
      // The table says the same, with the counts.
      const fa = n(trues, 'contradicts');
      expect(table).toMatch(new RegExp(`FALSELY ACCUSED.*${Math.round((fa / 6) * 1000) / 10}% \\(${fa}/6\\)`));
    }
    // The rules are tuned against false accusations: none here, at either depth.
    expect(json.by_depth['1'].true_claims.contradicts + json.by_depth['3'].true_claims.contradicts).toBe(0);
    // And depth 3 detects more than depth 1 (the same guesses, four times closer).
    expect(json.by_depth['3'].false_claims.detection_rate).toBeGreaterThan(json.by_depth['1'].false_claims.detection_rate);
  });
});
