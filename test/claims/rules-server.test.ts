/**
 * Issue 33, "Must show" 1: `geo claims check` against an independent server (test/helpers/
 * charging-server.ts, plain node:http) answering exactly the bodies each test chooses, one test per
 * rule: near and confident agrees; far, confident, no near candidate contradicts; far with low
 * confidence, or near only a candidate, unverifiable; --scoped with scope_consistent false
 * contradicts and names the reason; EXIF GPS far from the claim is named as a witness and is never
 * the sole ground for agrees. Each asserts the rule that fired and the numbers its reason gives.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChargingServer, answer, startChargingServer } from '../helpers/charging-server.js';
import { writeDistinctJpegs } from '../helpers/distinct-images.js';
import { type RunOptions, runCli } from '../helpers/run-cli.js';
import { FIXTURES } from '../helpers/sandbox.js';

let server: ChargingServer;
let images: string[];
const PARIS = join(FIXTURES, 'paris.jpg'); // EXIF GPS 48.85837, 2.294481
const TOKYO = join(FIXTURES, 'tokyo.jpg'); // EXIF GPS 35.658581, 139.745433
const state = mkdtempSync(join(tmpdir(), 'geo-claims-rules-'));
const env = () => ({ GEO_API_KEY: 'orca_live_claimtest', GEO_BASE_URL: server.url, GEO_STATE_DIR: state, GEO_DATA_DIR: state });
const run = (argv: string[], opts: RunOptions = {}) => runCli(argv, { ...opts, env: { ...env(), ...opts.env } });

/** The sha256 of the bytes geo sends for a file (its metadata removed): the server's key. */
async function sentSha(path: string): Promise<string> {
  const r = await run(['locate', path, '--dry-run', '--json']);
  return (JSON.parse(r.stdout) as { image: { sha256: string } }).image.sha256;
}

async function choose(path: string, plain: Record<string, unknown>, scoped?: Record<string, unknown>): Promise<void> {
  server.answers.set(await sentSha(path), { plain, ...(scoped ? { scoped } : {}) });
}

interface Checked {
  verdict: string;
  rule: string;
  reason: string;
  distance_km: number;
  exif: { status: string; distance_km?: number };
  scoped: { scope_consistent: boolean | null; hard_evidence: string | null } | null;
}

async function check(argv: string[]): Promise<{ code: number; r: Checked; stderr: string }> {
  const out = await run(['claims', 'check', ...argv, '--json']);
  expect(out.stderr).not.toMatch(/error:/);
  return { code: out.code, r: JSON.parse(out.stdout) as Checked, stderr: out.stderr };
}

// Kharkiv, UA in the offline index: 49.98177, 36.25475, a city (20 km).
const KHARKIV = { lat: 49.993, lng: 36.231 };
const LVIV = { lat: 49.842, lng: 24.032 };

beforeAll(async () => {
  server = await startChargingServer({ delayMs: 0, chosenOnly: true });
  images = await writeDistinctJpegs(mkdtempSync(join(tmpdir(), 'geo-claims-img-')), 6, 'rule');
});
afterAll(() => server.close());

describe('geo claims check: each rule against chosen answers', () => {
  it('near estimate and confident: agrees (estimate_near), the reason gives the distance, the tolerance and the confidence', async () => {
    await choose(images[0]!, answer({ ...KHARKIV, confidence: 0.82, city: 'Kharkiv', country: 'Ukraine' }));
    const { code, r } = await check([images[0]!, '--at', 'Kharkiv, UA']);
    expect(code).toBe(0);
    expect(r).toMatchObject({ verdict: 'agrees', rule: 'estimate_near' });
    expect(r.reason).toBe(`the estimate is ${r.distance_km.toFixed(1)} km from the claim, within its 20 km, with confidence 0.82`);
    expect(r.distance_km).toBeLessThan(3);
  });

  it('far, confident, no candidate near the claim: contradicts (estimate_far), "… km away with confidence 0.81 and no candidate within 70 km"', async () => {
    await choose(images[1]!, answer({ ...LVIV, confidence: 0.81, depth: 3, candidates: [{ lat: 50.06, lng: 19.94, label: 'Kraków', confidence: 9 }] }));
    const { code, r } = await check([images[1]!, '--at', 'Kharkiv, UA', '--depth', '3']);
    expect(code).toBe(0);
    expect(r).toMatchObject({ verdict: 'contradicts', rule: 'estimate_far' });
    // 20 km tolerance + the 50 km margin of a city-level answer.
    expect(r.reason).toBe(`the estimate is ${Math.round(r.distance_km).toLocaleString('en-US')} km away with confidence 0.81 and no candidate within 70 km`);
    expect(r.distance_km).toBeGreaterThan(800);
  });

  it('far but the confidence is low: unverifiable (estimate_far_unsure), never contradicts', async () => {
    await choose(images[2]!, answer({ ...LVIV, confidence: 0.41 }));
    const { r } = await check([images[2]!, '--at', 'Kharkiv, UA']);
    expect(r).toMatchObject({ verdict: 'unverifiable', rule: 'estimate_far_unsure' });
    expect(r.reason).toMatch(/^the estimate is \d{3} km away but its confidence 0\.41 is below the 0\.60 a contradiction needs$/);
  });

  it('far and confident, but near the claim only a low-confidence candidate: unverifiable (candidate_near), the candidate named', async () => {
    await choose(images[3]!, answer({ ...LVIV, confidence: 0.85, depth: 3, candidates: [{ lat: 50.02, lng: 36.3, label: 'Kharkiv outskirts', confidence: 7 }] }));
    const { r } = await check([images[3]!, '--at', 'Kharkiv, UA', '--depth', '3']);
    expect(r).toMatchObject({ verdict: 'unverifiable', rule: 'candidate_near' });
    expect(r.reason).toMatch(/^the estimate is \d{3} km away with confidence 0\.85, but the service's candidate "Kharkiv outskirts", 7% is 5\.\d km from the claim$/);
  });

  it('near but the confidence is low: unverifiable (estimate_near_unsure): thin evidence never agrees', async () => {
    await choose(images[4]!, answer({ ...KHARKIV, confidence: 0.3 }));
    const { r } = await check([images[4]!, '--at', 'Kharkiv, UA']);
    expect(r).toMatchObject({ verdict: 'unverifiable', rule: 'estimate_near_unsure' });
    expect(r.reason).toMatch(/but its confidence 0\.30 is below 0\.50: thin evidence never agrees$/);
  });

  it('--scoped: the answer with the claim as scope says scope_consistent false: contradicts (scope_overridden), naming the hard evidence from its reasoning; unscoped alone it is unverifiable', async () => {
    const reasoning = 'The scene is urban. Shop signs are in Polish, in Latin script, and cars carry EU plates. This cannot be Kharkiv.';
    await choose(images[5]!, answer({ ...LVIV, confidence: 0.45 }), answer({ ...LVIV, confidence: 0.45, scopeConsistent: false, reasoning }));
    const alone = await check([images[5]!, '--at', 'Kharkiv, UA']);
    expect(alone.r).toMatchObject({ verdict: 'unverifiable', rule: 'estimate_far_unsure', scoped: null });
    const before = server.sent.length;
    const { r } = await check([images[5]!, '--at', 'Kharkiv, UA', '--scoped']);
    // Only the scoped request went out: the unscoped answer was reused from the store.
    expect(server.sent.slice(before)).toEqual([{ sha256: expect.any(String), depth: 1, scope: { name: 'Kharkiv', lat: 49.98177, lng: 36.25475, radius_km: 20 } }]);
    expect(r).toMatchObject({ verdict: 'contradicts', rule: 'scope_overridden', scoped: { scope_consistent: false, hard_evidence: 'Shop signs are in Polish, in Latin script, and cars carry EU plates.' } });
    expect(r.reason).toMatch(/^asked to search within 20 km of the claim, the service overrode it \(scope_consistent false\): "Shop signs are in Polish, in Latin script, and cars carry EU plates\."; the estimate is \d{3} km away with confidence 0\.45 and the answer lists no candidates \(depth 1\)$/);
  });

  it('EXIF GPS far from the claim is named as a witness: a near, confident estimate is then unverifiable (witnesses_disagree), not agrees', async () => {
    await choose(PARIS, answer({ ...KHARKIV, confidence: 0.9 }));
    const { r } = await check([PARIS, '--at', 'Kharkiv, UA']);
    expect(r).toMatchObject({ verdict: 'unverifiable', rule: 'witnesses_disagree', exif: { status: 'gps' } });
    expect(r.exif.distance_km).toBeGreaterThan(2400);
    expect(r.reason).toMatch(/with confidence 0\.90, but the file's own EXIF GPS is 2,4\d\d km away \(a witness that can be forged or stale\)$/);
  });

  it('EXIF GPS at the claim is never the sole ground for agrees: with a low-confidence estimate the claim stays unverifiable, the witness named', async () => {
    await choose(TOKYO, answer({ lat: 35.7, lng: 139.7, confidence: 0.2 }));
    const { r } = await check([TOKYO, '--at', 'Tokyo']);
    expect(r.exif).toMatchObject({ status: 'gps' });
    expect(r.exif.distance_km).toBeLessThan(10);
    expect(r).toMatchObject({ verdict: 'unverifiable', rule: 'estimate_near_unsure' });
    expect(r.reason).toMatch(/; the file's own EXIF GPS is \d\.\d km from the claim \(a witness that can be forged\)$/);
  });
});

describe('geo claims check --scoped: one plan for the unscoped and the scoped batches', () => {
  it('--dry-run prints each batch\'s plan and the total, sending nothing; --max-credits below the total refuses it all (exit 2)', async () => {
    const [img] = await writeDistinctJpegs(mkdtempSync(join(tmpdir(), 'geo-claims-plan-')), 1, 'plan');
    const before = server.sent.length;
    const dry = await run(['claims', 'check', img!, '--at', 'Kharkiv, UA', '--scoped', '--depth', '2', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^plan, depth 2: 1 input · 1 to send × depth 2 \(2 credits\) = up to 2 credits/m);
    expect(dry.stdout).toMatch(/^plan, depth 2, scoped to Kharkiv \(20 km\): 1 input · 1 to send × depth 2 \(2 credits\) = up to 2 credits/m);
    expect(dry.stdout).toMatch(/^all batches: up to 4 credits\ndry run: nothing was sent$/m);
    const refused = await run(['claims', 'check', img!, '--at', 'Kharkiv, UA', '--scoped', '--depth', '2', '--max-credits', '3']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error: the plan needs up to 4 credits \(1 × 2 at depth 2 \+ 1 × 2 at depth 2\), above --max-credits 3; nothing was sent/m);
    expect(server.sent.length).toBe(before);
  });
});
