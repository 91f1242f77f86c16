/**
 * Batches under injected faults (sandbox --faults): every image ends with exactly one result and
 * the ledger shows each successful image charged exactly once.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBatch } from '../../src/batch/run.js';
import type { BatchEvent } from '../../src/batch/types.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/server.js';
import { ledgerFigures, makeImages, realSleep, testClient, testStore } from './helpers.js';

const KEY = 'orca_sandbox_enterprise';
let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

/**
 * A short window (40 per 2 s) keeps 429 waits short: the client waits for the longest hint, and
 * RateLimit's t points at the real window's reset. An image whose failures outlast the client's
 * retries is left unfinished in the journal; the same command run again must finish it with the
 * same key, so the ledger is checked after the rerun.
 */
async function stormRun(faults: string, n: number, seed = 7) {
  sb = await startSandbox({ rateLimit: 40, rateWindowS: 2, faults, seed, latencyMs: 20 });
  const dir = makeImages(n);
  const events: BatchEvent[] = [];
  const deps = { client: testClient(sb.url, KEY), env: { GEO_STATE_DIR: mkdtempSync(join(tmpdir(), 'geo-state-')) }, store: testStore(), version: '0.0.0-test', now: Date.now, sleep: realSleep, cwd: dir, onEvent: (e: BatchEvent) => events.push(e) };
  const res = await runBatch(deps, { inputs: ['.'], depth: 1, retryBudget: 4 * n });
  for (const r of res.records) if (!r.ok) console.log(`[${faults}] unfinished after run 1:`, r.input, r.error?.code);
  let final = res;
  for (let run = 2; run <= 4 && final.records.some((r) => !r.ok); run++) final = await runBatch(deps, { inputs: ['.'], depth: 1, retryBudget: 4 * n });
  expect(final.records).toHaveLength(n);
  expect(new Set(final.records.map((r) => r.input)).size).toBe(n);
  const f = ledgerFigures(sb.ledger(), KEY);
  console.log(`[${faults}] n=${n} run 1:`, { ...res.summary, journal: undefined }, 'ledger after all runs:', f);
  return { ...res, records: final.records, events, f };
}

describe('batch under faults', () => {
  it('a 429 storm (429:0.3): all images answered, each charged once, workers paused', async () => {
    const { records, summary, events, f } = await stormRun('429:0.3', 12);
    expect(records.every((r) => r.ok)).toBe(true);
    expect(summary.rateLimited).toBeGreaterThan(0);
    expect(events.some((e) => e.type === 'paused')).toBe(true);
    expect(f.netCredits).toBe(12);
    expect(f.modelCalls).toBe(12);
  }, 60_000);

  it('a 5xx storm (500, 502, 503, 504): all answered, net charge once per image', async () => {
    const { records, f, summary } = await stormRun('500:0.1,502:0.1,503:0.1,504:0.1', 16);
    expect(records.every((r) => r.ok)).toBe(true);
    expect(summary.retriesUsed).toBeGreaterThan(0);
    expect(f.netCredits).toBe(16);
    expect(f.debits - f.refunds).toBe(16); // 504s debit and refund at once
  }, 60_000);

  it('reset-after and truncate: the retry with the same key is replayed, never charged twice', async () => {
    const { records, f, summary } = await stormRun('reset-after:0.25,truncate:0.2', 16);
    expect(records.every((r) => r.ok)).toBe(true);
    expect(summary.replayed).toBeGreaterThan(0);
    // Run 1's own estimate: an image whose retries all failed may still have been charged (the
    // ledger below is the authority); its later replay is free, so the estimate never exceeds it.
    expect(summary.creditsSpent).toBeLessThanOrEqual(16);
    expect(f.netCredits).toBe(16);
    expect(f.debits).toBe(16);
    expect(f.modelCalls).toBe(16);
    expect(f.idempotencyKeys).toBe(16);
  }, 60_000);
});
