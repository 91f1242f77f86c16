/**
 * Issue 30, "--max-credits and the confirm threshold count what the service charged": an
 * independent server (test/helpers/charging-server.ts) answers depth 3 (10 credits) to depth-1
 * requests and grants a generous rate limit, so geo would start a whole folder at once. Before the
 * fix the answers were counted and warned about while the batch went on: 6 requested, 60 spent.
 *
 * The rule (src/batch/spend-guard.ts): each further request is assumed to cost the most any answer
 * of this run was charged (at least what it asks), and one starts only if it fits even were every
 * request already in flight charged the most any request can cost (10). So the total passes the
 * budget by at most one answer's surprise: 10 - the asked cost (9 at depth 1).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { distinctJpeg, FIXTURES } from '../batch/helpers.js';
import { type ChargingServer, type ChargingOptions, startChargingServer } from '../helpers/charging-server.js';
import { type CliRun, spawnGeo, tempConfigDir } from '../helpers/run-cli.js';
import { KEY, builtBinaryOrThrow, spawnGeoInPty } from '../pty/pty.js';

/** The most one answer can pass the budget by at depth 1: a depth-3 charge (10) where 1 was asked. */
const SURPRISE = 10 - 1;

let server: ChargingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function folder(n: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'geo-charged-'));
  const base = readFileSync(join(FIXTURES, 'paris.jpg'));
  for (let i = 0; i < n; i++) writeFileSync(join(dir, `img${String(i).padStart(2, '0')}.jpg`), distinctJpeg(i, base));
  return dir;
}

async function run(argv: string[], o: ChargingOptions & { images?: number; env?: Record<string, string> } = {}): Promise<CliRun> {
  server = await startChargingServer({ delayMs: 300, quota: 100, answerDepth: 3, ...o });
  const dir = folder(o.images ?? 6);
  const env = { GEO_API_KEY: 'orca_test_charged', GEO_BASE_URL: server.url, GEO_DATA_DIR: tempConfigDir(), GEO_STATE_DIR: tempConfigDir(), ...o.env };
  return spawnGeo(['locate', dir, '--json', ...argv], { env });
}

function records(r: CliRun): Array<{ ok: boolean; error?: { code: string; message: string } }> {
  return r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { ok: boolean; error?: { code: string; message: string } });
}

describe('the budget counts what the service charged, and stops before the next request could pass it', () => {
  it('--max-credits 6 over 6 depth-1 images answered at depth 3: the server charges at most 6 + 9, and the run says it stopped and why', async () => {
    const r = await run(['--max-credits', '6']);
    console.log(`[charged] --max-credits 6: the server charged ${server!.credits()} credits for ${server!.charges()} answers`);
    expect(server!.credits()).toBeLessThanOrEqual(6 + SURPRISE);
    expect(server!.charges()).toBe(1);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(/stopped: the service charged 10 credits for a depth-1 request \(answered at depth 3\); counting each further request at 10, the next could bring the total to 20, above --max-credits 6/);
    const recs = records(r);
    expect(recs).toHaveLength(6);
    expect(recs.filter((x) => x.ok)).toHaveLength(1);
    expect(recs.filter((x) => x.error?.code === 'not_sent')).toHaveLength(5);
    expect(r.stderr).toMatch(/10 credits spent/);
  }, 60_000);

  it('without --yes or --max-credits (piped, nothing can ask), the confirm threshold of 20 is the budget: the server charges at most 20 + 9', async () => {
    const r = await run([]);
    console.log(`[charged] threshold 20: the server charged ${server!.credits()} credits for ${server!.charges()} answers`);
    expect(server!.credits()).toBeLessThanOrEqual(20 + SURPRISE);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(/stopped: the service charged 10 credits for a depth-1 request \(answered at depth 3\); counting each further request at 10, the next could bring the total to \d+, above the confirm threshold of 20 \(spending more needs consent: --yes or --max-credits N\)/);
    expect(records(r).filter((x) => x.error?.code === 'not_sent').length).toBeGreaterThan(0);
  }, 60_000);

  it('a lower confirm threshold (geo config set confirm_threshold 8) stops the run sooner, still within one answer\'s surprise', async () => {
    const config = tempConfigDir();
    writeFileSync(join(config, 'config.json'), JSON.stringify({ defaults: { confirm_threshold: '8' } }));
    const r = await run([], { env: { GEO_CONFIG_DIR: config } });
    expect(server!.credits()).toBeLessThanOrEqual(8 + SURPRISE);
    expect(server!.charges()).toBe(1);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(/above the confirm threshold of 8/);
  }, 60_000);

  it('a service honest at first, then charging depth 3 while requests are in flight: still at most --max-credits + 9', async () => {
    const r = await run(['--max-credits', '12'], { images: 12, answerDepth: (n) => (n === 1 ? 1 : 3) });
    console.log(`[charged] honest first, then depth 3, --max-credits 12: the server charged ${server!.credits()} credits for ${server!.charges()} answers`);
    expect(server!.credits()).toBeLessThanOrEqual(12 + SURPRISE);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(/stopped: the service charged 10 credits for a depth-1 request/);
  }, 60_000);

  it('on a terminal, yes to "Spend up to 6 credits" consents to 6: the run stops when the charges could pass them', async () => {
    builtBinaryOrThrow();
    server = await startChargingServer({ delayMs: 300, quota: 100, answerDepth: 3 });
    const config = tempConfigDir();
    writeFileSync(join(config, 'config.json'), JSON.stringify({ defaults: { confirm_threshold: '3' } }));
    const env = { HOME: tempConfigDir(), GEO_CONFIG_DIR: config, GEO_API_KEY: 'orca_test_charged', GEO_BASE_URL: server.url, GEO_DATA_DIR: tempConfigDir(), GEO_STATE_DIR: tempConfigDir() };
    const t = spawnGeoInPty(['locate', folder(6)], env, { columns: 200, rows: 40 });
    await t.waitFor('Spend up to 6 credits');
    t.type('y');
    t.type(KEY.enter);
    expect(await t.exit).toBe(4);
    expect(server.credits()).toBeLessThanOrEqual(6 + SURPRISE);
    expect(t.screen().replace(/\s+/g, ' ')).toMatch(/stopped: the service charged 10 credits for a depth-1 request \(answered at depth 3\); counting each further request at 10, the next could bring the total to 20, above the 6 credits agreed to/);
  }, 60_000);

  it('--yes consents whatever the run costs: every image is sent, each deviation named', async () => {
    const r = await run(['--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(server!.credits()).toBe(60);
    expect(r.stderr).toMatch(/depth: answered 3 where 1 was asked/);
  }, 60_000);

  it('an honest service within --max-credits: every image sent, nothing stopped', async () => {
    const r = await run(['--max-credits', '6'], { answerDepth: 1 });
    expect(r.code, r.stderr).toBe(0);
    expect(server!.credits()).toBe(6);
    expect(r.stderr).not.toMatch(/stopped/);
  }, 60_000);
});
