/**
 * Issue 19: kill -9 at random moments, 20 times, during one 30-image batch (the same command run
 * again after each kill), then a rerun that finishes it. Afterwards the store passes SQLite's
 * integrity check, the sandbox's ledger shows each image charged once (net debits = 30 x cost,
 * one model call each), and no paid answer was lost: the final run prints 30 results, each the
 * analysis that was paid for. The built binary, one store; the moments are seeded.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { DEPTH_COST } from '../../src/api/schemas.js';
import { mulberry32 } from '../../src/sandbox/faults.js';
import { makeImages } from '../batch/helpers.js';
import { GEO_BIN, binEnv, spawnGeo, tempConfigDir } from '../helpers/run-cli.js';
import { KEYS, type TestSandbox, startTestSandbox } from '../helpers/sandbox.js';
import { dbRows } from '../helpers/store.js';
import { figures } from '../reliability/helpers.js';

const KILLS = 20;
const N = 30;
const DEPTH = 1;
const KEY = KEYS.pro;
const LATENCY_MS = 300;

let sb: TestSandbox | undefined;
afterAll(async () => sb?.close());

/** Runs the command and SIGKILLs it `ms` after it starts; resolves when it is gone. */
function killAfter(argv: string[], env: Record<string, string>, ms: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [GEO_BIN, ...argv], { env: binEnv(env), stdio: 'ignore' });
    const t = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('error', reject);
    child.on('close', (_c, signal) => {
      clearTimeout(t);
      resolve(signal === 'SIGKILL');
    });
  });
}

describe(`kill -9 ${KILLS} times during one ${N}-image batch, then a rerun`, () => {
  it('the store is intact, each image was charged once, and no paid answer was lost', async () => {
    if (!existsSync(new URL('../../dist/cli.js', import.meta.url))) throw new Error('run `npm run build` first: this test spawns bin/geo.js');
    sb = await startTestSandbox({ latencyMs: LATENCY_MS });
    const s = sb;
    const dir = makeImages(N);
    const data = tempConfigDir();
    const env = { GEO_API_KEY: KEY, GEO_BASE_URL: s.url, GEO_DATA_DIR: data, GEO_STATE_DIR: tempConfigDir() };
    // One request at a time, 300 ms each: the batch outlasts the 20 kills, so each lands mid-batch.
    const argv = ['locate', dir, '--json', '--depth', String(DEPTH), '--concurrency', '1', '--yes'];
    const rand = mulberry32(2026);
    let landed = 0;
    for (let i = 0; i < KILLS; i++) {
      // Start-up takes ~100-300 ms, then about 3 answers a second: moments spread over both.
      if (await killAfter(argv, env, 80 + Math.floor(rand() * 700))) landed++;
    }
    const during = figures(s.ledger(), KEY);
    const final = await spawnGeo(argv, { env });
    expect(final.code, final.stderr).toBe(0);
    const recs = final.stdout.trim().split('\n').map((l) => JSON.parse(l) as { ok: boolean; result: { analysis_id: string } });
    const f = figures(s.ledger(), KEY);
    const integrity = dbRows<{ integrity_check: string }>(data, 'PRAGMA integrity_check').map((r) => r.integrity_check);
    console.log(`[kill -9 x${KILLS}] ${landed} kills landed; ${during.debits} debits during the kills; final run: ${recs.length} results; ledger debits ${f.debits}, net ${f.net}, model calls ${f.modelCalls}, keys ${f.netByKey.size}; integrity ${integrity.join(',')}`);
    expect(landed).toBeGreaterThanOrEqual(KILLS - 2);
    expect(integrity).toEqual(['ok']);
    expect(recs).toHaveLength(N);
    expect(recs.every((r) => r.ok)).toBe(true);
    expect(f.debits).toBe(N);
    expect(f.net).toBe(N * DEPTH_COST[DEPTH]);
    expect(f.modelCalls).toBe(N);
    expect([...f.netByKey.values()].every((v) => v === DEPTH_COST[DEPTH])).toBe(true);
    // Each result printed is the analysis that was paid for; every paid answer is in the store.
    const ids = new Set(recs.map((r) => r.result.analysis_id));
    expect(ids.size).toBe(N);
    expect([...ids].every((id) => f.analysisIds.includes(id))).toBe(true);
    expect(dbRows<{ n: number }>(data, 'SELECT count(*) AS n FROM results')[0]!.n).toBe(N);
    expect(dbRows<{ n: number }>(data, "SELECT count(*) AS n FROM claims WHERE state <> 'answered'")[0]!.n).toBe(0);
  }, 120_000);
});
