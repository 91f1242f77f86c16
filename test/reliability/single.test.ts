/**
 * Fault suite, one input (issue 7): every Sandbox-Fault kind against
 * `geo locate fixtures/images/paris.jpg --json`, through the real command, twice over:
 *  - transient: the first attempt faults, the retry succeeds -> exit 0, the body on stdout, one net
 *    charge;
 *  - persistent: every attempt the retry table allows faults -> exit 5 (429) or 6, nothing on
 *    stdout, one error line with a hint; then the same command again -> the result, and the
 *    ledger still shows one net charge for the one idempotency key (no lost result, no double
 *    charge, even where the server did the work and the client never heard: reset-after, stall).
 * The sandbox faults exactly the first k geolocate requests (a seed found by seedFaultingFirst).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEPTH_COST } from '../../src/api/schemas.js';
import { FIXTURES, KEYS, type TestSandbox, startTestSandbox } from '../helpers/sandbox.js';
import { type CliRun, runCli } from '../helpers/run-cli.js';
import { KINDS, type KindCase, STALL_MS, TIMEOUT_S, attemptsFor, errorLines, fastClock, figures, hasStack, seedFaultingFirst, timeoutFor } from './helpers.js';

const KEY = KEYS.pro;
const DEPTH = 2;
const COST = DEPTH_COST[DEPTH];

let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

/** The sandbox faults the first k geolocate requests with this kind, then none. */
async function faultingFirst(c: KindCase, k: number): Promise<TestSandbox> {
  sb = await startTestSandbox({ faults: `${c.fault}:0.5`, seed: seedFaultingFirst(k, 0.5), rateWindowS: 1 });
  return sb;
}

/** One run of the command; the state folder (journal) is the caller's, so a rerun finds it. */
async function locate(c: KindCase, s: TestSandbox, stateDir: string): Promise<CliRun & { slept: number[] }> {
  const clock = fastClock();
  const r = await runCli(['locate', join(FIXTURES, 'paris.jpg'), '--keep-metadata', '--json', '--depth', String(DEPTH), '--timeout', timeoutFor(c.kind)], {
    env: { GEO_API_KEY: KEY, GEO_BASE_URL: s.url, GEO_STATE_DIR: stateDir, GEO_DATA_DIR: stateDir },
    now: clock.now,
    sleep: clock.sleep,
  });
  return { ...r, slept: clock.slept };
}

/** stdout is the API body itself: Paris from its EXIF GPS, and the analysis the ledger paid for. */
function expectBody(r: CliRun, s: TestSandbox): void {
  const body = JSON.parse(r.stdout) as { success: boolean; analysis_id: string; location: { latitude: number; longitude: number } };
  expect(body.success).toBe(true);
  expect(body.location.latitude).toBeCloseTo(48.858, 2);
  expect(body.location.longitude).toBeCloseTo(2.294, 2);
  expect(figures(s.ledger(), KEY).analysisIds).toEqual([body.analysis_id]);
}

/** The one idempotency key this command used, net-charged at most once. */
function expectOneKeyAtMostOnce(s: TestSandbox): void {
  const f = figures(s.ledger(), KEY);
  for (const [, net] of f.netByKey) expect(net).toBeLessThanOrEqual(COST);
  expect(f.net).toBeLessThanOrEqual(COST);
  expect(f.requestsByKey.size).toBeLessThanOrEqual(1);
}

/** A stalled request the client gave up on still runs when its stall ends: wait for it, then look. */
const settle = (c: KindCase) => (c.kind === 'stall' ? new Promise((r) => setTimeout(r, STALL_MS + 150)) : Promise.resolve());

describe(`one input under each of the ${KINDS.length} Sandbox-Fault kinds: ${KINDS.length * 2} cases`, () => {
  describe.each(KINDS)('$kind', (c) => {
    it('transient (first attempt faults, the retry succeeds): exit 0, the body, one net charge', async () => {
      const s = await faultingFirst(c, 1);
      const r = await locate(c, s, mkdtempSync(join(tmpdir(), 'geo-rel-state-')));
      expect(r.stderr).not.toMatch(/^error:/m);
      expect(r.code).toBe(0);
      expectBody(r, s);
      await settle(c);
      const f = figures(s.ledger(), KEY);
      expect(f.net).toBe(COST);
      expect(f.refunds).toBe(c.kind === '504' ? 1 : 0); // a 504 debits and refunds at once
      expect(f.debits - f.refunds).toBe(1);
      expect(f.requestsByKey.size).toBe(1);
      // One retry, as the table says. A 429 also closes the pacer's gate for every worker, so its
      // sleeps are the Retry-After (1 s) plus the gate's; the ledger counts the other kinds' attempts.
      if (c.kind === '429') expect(r.slept).toContain(1000);
      else expect(r.slept).toHaveLength(1);
      // Requests that reached the key check: reset-before drops the socket first, and a stalled
      // request the client abandoned has lost its body by the time it wakes.
      const reached = c.kind === 'reset-before' || c.kind === 'stall' ? 1 : 2;
      if (c.kind !== '429') expect([...f.requestsByKey.values()]).toEqual([reached]);
    });

    it(`persistent (${attemptsFor(c.reason)} attempts fault): exit ${c.exit}, empty stdout, one error line with a hint; rerun returns the result, one net charge`, async () => {
      const k = attemptsFor(c.reason);
      const s = await faultingFirst(c, k);
      const state = mkdtempSync(join(tmpdir(), 'geo-rel-state-'));
      const r1 = await locate(c, s, state);
      expect(r1.code).toBe(c.exit);
      expect(r1.stdout).toBe('');
      const errs = errorLines(r1.stderr);
      expect(errs).toHaveLength(1);
      expect(errs[0]).toMatch(/ — hint: \S/);
      expect(hasStack(r1.stderr)).toBe(false);
      if (c.kind === 'stall') expect(errs[0]).toContain(`no answer within ${TIMEOUT_S} s`);
      expect(r1.slept).toHaveLength(k - 1); // every retry the table allows, and no more
      await settle(c);
      const f1 = figures(s.ledger(), KEY);
      expect(f1.refunds).toBe(c.kind === '504' ? k : 0);
      expectOneKeyAtMostOnce(s);
      // reset-after: the server did the work and charged; the client never heard. Not lost:
      if (c.kind === 'reset-after') expect(f1.net).toBe(COST);

      const r2 = await locate(c, s, state);
      expect(r2.stderr).not.toMatch(/^error:/m);
      expect(r2.code).toBe(0);
      expectBody(r2, s);
      await settle(c);
      const f2 = figures(s.ledger(), KEY);
      expect(f2.net).toBe(COST);
      expect(f2.debits - f2.refunds).toBe(1);
      expectOneKeyAtMostOnce(s);
      if (c.kind === 'reset-after') expect(r2.stderr).toMatch(/replayed/);
    });
  });
});
