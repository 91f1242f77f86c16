/**
 * Issue 19, "Interruptions", against the independent charging server (2 s per answer):
 * - a --fresh batch interrupted (SIGINT) with requests in flight, then --resume: each in-flight key
 *   is sent again (two requests per key at the server), its answer shown, no extra charge, and
 *   never an older stored answer in its place; the same for one image at depth 3;
 * - `| head -1` on a 20-image batch: no new request after the reader left, the answers in flight
 *   arrive and are stored (every charged answer is in the store), and stderr says so.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeImages } from '../batch/helpers.js';
import { type ChargingServer, startChargingServer } from '../helpers/charging-server.js';
import { type CliRun, GEO_BIN, binEnv, finished, spawnGeo, tempConfigDir } from '../helpers/run-cli.js';
import { caseId, custodyLines, custodyOf, events } from '../cases/helpers.js';
import { dbRows } from '../helpers/store.js';
import { verifyChain } from '../../src/evidence/custody-verify.js';

let server: ChargingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const until = async (what: string, cond: () => boolean, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** Runs geo and sends SIGINT once `inFlight` requests have reached the server and none has completed. */
function interrupted(argv: string[], env: Record<string, string>, s: ChargingServer, inFlight: number): Promise<CliRun> {
  const child = spawn(process.execPath, [GEO_BIN, ...argv], { env: binEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  const poll = setInterval(() => {
    if (s.inProgress() < inFlight) return;
    clearInterval(poll);
    child.kill('SIGINT');
  }, 10);
  return finished(child).finally(() => clearInterval(poll));
}

describe('interrupted runs lose no paid answer', () => {
  it('--fresh interrupted with requests in flight, then --resume: each in-flight key is resent and answered, none charged twice, no older answer shown', async () => {
    server = await startChargingServer({ delayMs: 1500 });
    const s = server;
    const dir = makeImages(4);
    const env = { GEO_API_KEY: 'orca_test_int', GEO_BASE_URL: s.url, GEO_DATA_DIR: tempConfigDir(), GEO_STATE_DIR: tempConfigDir() };
    // --yes: all four in flight at once. Without consent the run keeps within the confirm threshold
    // against what the service may charge (issue 30, batch/spend-guard.ts), two at a time here.
    const argv = ['locate', dir, '--depth', '2', '--json', '--concurrency', '4', '--yes'];
    const first = await spawnGeo(argv, { env });
    expect(first.code, first.stderr).toBe(0);
    const older = new Set(first.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { result: { analysis_id: string } }).result.analysis_id));
    expect(s.charges()).toBe(4);

    const r = await interrupted([...argv, '--fresh'], env, s, 4);
    expect(r.code).toBe(130);
    const hint = /to send what is left, with the same keys: `?(geo locate --resume ([0-9a-f]{24}))`?/.exec(r.stderr);
    expect(hint, r.stderr).not.toBeNull();
    // The service finishes what was in flight, and charges it: 4 answers geo has not heard.
    await until('the in-flight analyses to finish', () => s.charges() === 8);
    const freshKeys = [...s.requests.keys()].slice(4);
    expect(freshKeys).toHaveLength(4);

    const resumed = await spawnGeo(['locate', '--resume', hint![2]!, '--json'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const ids = resumed.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { ok: boolean; result: { analysis_id: string } }).result.analysis_id);
    expect(ids).toHaveLength(4);
    for (const id of ids) expect(older.has(id), `an older answer (${id}) was shown instead of the fresh one`).toBe(false);
    for (const k of freshKeys) expect(s.requests.get(k), k).toBe(2); // sent, then resent and replayed
    expect(s.charges()).toBe(8); // 4 by the first run, 4 by --fresh: nothing twice
    expect(resumed.stderr).toMatch(/4 answers replayed by the service for its idempotency key, not charged/);
  }, 60_000);

  it('one image at depth 3 interrupted in flight, then --resume: the same key replays it, charged once', async () => {
    server = await startChargingServer({ delayMs: 1500 });
    const s = server;
    const dir = makeImages(1);
    const env = { GEO_API_KEY: 'orca_test_int', GEO_BASE_URL: s.url, GEO_DATA_DIR: tempConfigDir(), GEO_STATE_DIR: tempConfigDir() };
    const r = await interrupted(['locate', join(dir, '000.jpg'), '--depth', '3', '--json', '--yes'], env, s, 1);
    expect(r.code).toBe(130);
    const m = /hint: `?(geo locate --resume ([0-9a-f]{24}) --yes)`? resends it with the same key/.exec(r.stderr); // the consent given rides along
    expect(m, r.stderr).not.toBeNull();
    await until('the analysis to finish', () => s.charges() === 1);
    const again = await spawnGeo(['locate', '--resume', m![2]!, '--json', '--yes'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ ok: true, result: { depth: 3 } });
    expect([...s.requests.values()]).toEqual([2]);
    expect(s.charges()).toBe(1);
  }, 60_000);

  it('--case interrupted with the request in flight: the custody log says the image went out (input_hashed, request_failed with its key) and the chain verifies', async () => {
    server = await startChargingServer({ delayMs: 1500 });
    const s = server;
    const dir = makeImages(1);
    const data = tempConfigDir();
    const env = { GEO_API_KEY: 'orca_test_int', GEO_BASE_URL: s.url, GEO_DATA_DIR: data, GEO_STATE_DIR: tempConfigDir() };
    expect((await spawnGeo(['cases', 'create', '--name', 'Night shift', '--local'], { env })).code).toBe(0);
    const id = caseId(data, 'Night shift');
    const r = await interrupted(['locate', join(dir, '000.jpg'), '--case', id, '--json'], env, s, 1);
    expect(r.code).toBe(130);
    const log = custodyOf(data, id);
    expect(events(log)).toEqual(['case_created', 'input_hashed', 'request_failed']);
    expect(log[2]!.data.failure).toMatchObject({ input: join(dir, '000.jpg'), service: s.url, idempotency_key: [...s.requests.keys()][0], status: null });
    expect(verifyChain(custodyLines(data, id), { caseId: id }).ok).toBe(true);
  }, 60_000);

  it('| head -1 on a 20-image batch: nothing new is sent after the reader leaves; every charged answer is in the store, and stderr says so', async () => {
    server = await startChargingServer({ delayMs: 400 });
    const s = server;
    const dir = makeImages(20);
    const data = tempConfigDir();
    const env = { GEO_API_KEY: 'orca_test_head', GEO_BASE_URL: s.url, GEO_DATA_DIR: data, GEO_STATE_DIR: tempConfigDir() };
    const out = await finished(spawn('sh', ['-c', `"${process.execPath}" "${GEO_BIN}" locate "${dir}" --format ndjson --depth 2 --yes --concurrency 4 | head -1`], { env: binEnv(env), stdio: ['ignore', 'pipe', 'pipe'] }));
    expect(out.code).toBe(0);
    expect(out.stdout.trim().split('\n')).toHaveLength(1);
    const charged = s.charges();
    const stored = dbRows<{ n: number }>(data, 'SELECT count(*) AS n FROM results')[0]!.n;
    console.log(`[head -1] 20 inputs: ${charged} charged, ${stored} stored, ${s.requests.size} keys sent`);
    expect(charged).toBeLessThan(20); // it stopped sending
    expect(stored).toBe(charged); // and nothing that was paid for is missing from the store
    expect(out.stderr).toMatch(new RegExp(`stdout was closed: geo stopped sending; ${charged} answers? (is|are) in the store \\(geo history shows them\\), \\d+ inputs? (was|were) not sent: run the same command again to send them`));
    // The rerun sends only what was never sent.
    const rest = await spawnGeo(['locate', dir, '--format', 'ndjson', '--depth', '2', '--yes', '--concurrency', '4'], { env });
    expect(rest.code, rest.stderr).toBe(0);
    expect(s.charges()).toBe(20);
    expect(dbRows<{ n: number }>(data, 'SELECT count(*) AS n FROM results')[0]!.n).toBe(20);
  }, 60_000);
});
