/**
 * Two machines on one team store (issue 32), as real processes: two "machines" (a HOME, config and
 * data folder each) run four processes each over the same 12 images against an independent server
 * that charges once per completed key (test/helpers/charging-server.ts), on a real PostgreSQL.
 * Processes are killed with SIGKILL at random moments, then everything is run again: the server
 * charged exactly 12, every image has one answered claim, and a budget of N credits is never
 * passed by what the server charged. The processes take geo's claim path over the asynchronous
 * store (team-race-worker.ts): `geo locate` itself runs on the team store in phase 2.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateStore } from '../../src/store/index.js';
import { type ChargingServer, startChargingServer } from '../helpers/charging-server.js';
import { ANALYST_GRANTS, type Postgres, startPostgres } from '../helpers/postgres.js';
import { finished } from '../helpers/run-cli.js';

const WORKER = new URL('./team-race-worker.ts', import.meta.url).pathname;
let pg: Postgres | undefined;
let skip = '';
beforeAll(() => {
  const started = startPostgres();
  if ('skip' in started) skip = started.skip;
  else pg = started;
}, 120_000);
afterAll(() => pg?.stop());

const machines = ['laptop-a', 'laptop-b'].map((name) => ({ name, home: mkdtempSync(join(tmpdir(), `geo-race-${name}-`)) }));

function spawnAll(server: ChargingServer): ChildProcess[] {
  return machines.flatMap((m) => Array.from({ length: 4 }, () => spawn(process.execPath, ['--import', 'tsx', WORKER, pg!.analystUrl, server.url, m.name], {
    env: { ...process.env, HOME: m.home, GEO_CONFIG_DIR: join(m.home, 'config'), GEO_DATA_DIR: join(m.home, 'data') }, stdio: ['ignore', 'pipe', 'pipe'],
  })));
}

/** Runs 2 x 4 processes, kills `kills` of them with SIGKILL, then runs all 8 again; returns how many the kill ended. */
async function race(server: ChargingServer, kills: number): Promise<number> {
  const first = spawnAll(server);
  const done = Promise.all(first.map(finished));
  // kill -9 of `kills` processes at random moments while they claim, send and store.
  const victims = [...first].sort(() => Math.random() - 0.5).slice(0, kills);
  for (const v of victims) setTimeout(() => v.kill('SIGKILL'), 1500 + Math.random() * 2500);
  const ended = await done;
  const again = await Promise.all(spawnAll(server).map(finished));
  for (const r of again) expect(r.code, r.stderr).toBe(0);
  return ended.filter((r) => r.code === -1).length;
}

const fresh = async () => {
  pg!.sql(`DROP SCHEMA public CASCADE; CREATE SCHEMA public AUTHORIZATION geo_admin; ${ANALYST_GRANTS}`);
  await migrateStore(pg!.adminUrl);
  pg!.sql('DROP INDEX claims_one_open');
};

describe('two machines x four processes on one team store', () => {
  it('12 images, kill -9 at random, run again: exactly 12 charges, one answered claim per image', async (t) => {
    if (!pg) return t.skip(skip);
    await fresh();
    const server = await startChargingServer({ delayMs: 300 });
    try {
      expect(await race(server, 3)).toBeGreaterThan(0);
      expect(server.charges()).toBe(12);
      expect(pg.sql("SELECT count(DISTINCT fp) || ' ' || count(*) FROM claims WHERE state = 'answered'").trim()).toBe('12 12');
      expect(pg.sql("SELECT count(*) FROM claims WHERE state = 'open'").trim()).toBe('0');
      expect(pg.sql('SELECT count(DISTINCT input_path) FROM results').trim()).toBe('12');
    } finally {
      await server.close();
    }
  }, 240_000);

  it('a budget of 7 credits under the same race: what the server charged never passes it', async (t) => {
    if (!pg) return t.skip(skip);
    await fresh();
    pg.sql("INSERT INTO budget (id, cap, per, period_start) VALUES (1, 7, 'month', date_trunc('month', now(), 'UTC'))");
    const server = await startChargingServer({ delayMs: 300 });
    try {
      await race(server, 3);
      expect(server.credits()).toBeLessThanOrEqual(7);
      expect(server.charges()).toBeGreaterThan(0);
      const [spent, reserved] = pg.sql('SELECT spent, reserved FROM budget').trim().split('|').map(Number);
      expect(spent! + reserved!).toBeLessThanOrEqual(7);
    } finally {
      await server.close();
    }
  }, 240_000);
});
