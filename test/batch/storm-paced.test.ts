/**
 * Issue 21: retries after 5xx draw from the same rate-limit budget as first attempts. A 5xx
 * storm (30% of geolocate answers are 500, 502 or 503) against a sandbox allowing 10 requests per
 * 10 s: before, resends went out on their backoff alone and met 429s (four pauses, and at 60% the
 * batch exited 5); now each resend waits for its turn, so no 429 reaches the wire.
 *
 * Sandbox and batch share one clock that runs 10 times faster than the wall (the sandbox's
 * limiter reads it, every wait sleeps 1/10 of its length), so three 10 s windows take 3 s.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { runBatch } from '../../src/batch/run.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { ledgerFigures, makeImages, realSleep, testStore } from './helpers.js';

const KEY = 'orca_sandbox_enterprise';
const SPEED = 10; // 20 met a 429 on a loaded machine: a request's real latency, times SPEED, eats into the window
let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

function fastForward() {
  const t0 = Date.now();
  return { now: () => t0 + (Date.now() - t0) * SPEED, sleep: (ms: number, signal?: AbortSignal) => realSleep(ms / SPEED, signal) };
}

describe('a 5xx storm is paced within the limit', () => {
  it('30% of answers 500/502/503, 10 requests per 10 s: every image answered once, no 429 on the wire', async () => {
    const clock = fastForward();
    sb = await startSandbox({ rateLimit: 10, rateWindowS: 10, faults: '500:0.1,502:0.1,503:0.1', seed: 21, now: clock.now });
    const n = 20;
    const dir = makeImages(n);
    const wire = { requests: 0, s429: 0, s5xx: 0 };
    const client = new ApiClient({
      baseUrl: sb.url, apiKey: KEY, now: clock.now, sleep: clock.sleep, timeoutMs: 60_000,
      debug: (line) => {
        if (!line.startsWith('< ')) return;
        wire.requests++;
        if (line.startsWith('< 429 ')) wire.s429++;
        if (/^< 5\d\d /.test(line)) wire.s5xx++;
      },
    });
    const deps = { client, env: { GEO_STATE_DIR: mkdtempSync(join(tmpdir(), 'geo-state-')) }, store: testStore(), version: '0.0.0-test', now: clock.now, sleep: clock.sleep, cwd: dir };
    try {
      // An image whose faults outlast its retries is left for the rerun, with the same key.
      let res = await runBatch(deps, { inputs: ['.'], depth: 1, yes: true });
      for (let run = 2; run <= 4 && res.records.some((r) => !r.ok); run++) res = await runBatch(deps, { inputs: ['.'], depth: 1, yes: true });
      expect(res.records.filter((r) => r.ok)).toHaveLength(n);
      expect(wire.s5xx, 'the storm hit').toBeGreaterThanOrEqual(4);
      expect(wire.s429, `${wire.s429} of ${wire.requests} answers were 429`).toBe(0);
      const f = ledgerFigures(sb.ledger(), KEY);
      console.log('[storm paced]', wire, f);
      // Charged once each (a 502 may call the model and is not charged: api-spec.md "Credit handling").
      expect(f.netCredits).toBe(n);
      expect(f.idempotencyKeys).toBe(n);
    } finally {
      await client.close();
    }
  }, 60_000);
});
