/**
 * Two machines on one team store (issue 32), as real processes: two "machines" (a HOME, config and
 * data folder each) run four processes each over the same 12 images against an independent server
 * that charges once per completed key (test/helpers/charging-server.ts), on a real PostgreSQL.
 * Processes are killed with SIGKILL at random moments, then everything is run again: the server
 * charged exactly 12, every image has one answered claim, and a budget of N credits is never
 * passed by what the server charged. Both races run `geo locate` itself (the built binary, each
 * machine its own copy of the images, one organisation's key), directly and through PgBouncer in
 * transaction pooling (test/helpers/pgbouncer.ts), where a transaction may land on any backend.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ChargingServer, startChargingServer } from '../helpers/charging-server.js';
import { pgbouncerPerFile } from '../helpers/pgbouncer.js';
import { freshStore, postgresPerFile } from '../helpers/postgres.js';
import { GEO_BIN, binEnv, finished } from '../helpers/run-cli.js';
import { FIXTURES, distinctJpeg } from '../batch/helpers.js';

const db = postgresPerFile();
const pooler = pgbouncerPerFile(db);

/** How the machines reach the store: the server itself, or the pooler in front of it; undefined (and why) where it cannot start. */
const ways = [
  { way: 'directly', url: () => db.pg?.analystUrl, skip: () => db.skip },
  { way: 'through PgBouncer', url: () => (db.pg ? pooler.it?.analystUrl : undefined), skip: () => (db.pg ? pooler.skip : db.skip) },
];

const machines = ['laptop-a', 'laptop-b'].map((name) => ({ name, home: mkdtempSync(join(tmpdir(), `geo-race-${name}-`)) }));

const fresh = async () => {
  await freshStore(db.pg!);
};

/** Each machine's own copy of the same 12 images (the same bytes, another folder). */
function imagesOn(home: string): string {
  const dir = join(home, 'photos');
  mkdirSync(dir, { recursive: true });
  const base = readFileSync(join(FIXTURES, 'paris.jpg'));
  for (let i = 0; i < 12; i++) writeFileSync(join(dir, `img${String(i).padStart(2, '0')}.jpg`), distinctJpeg(i, base));
  return dir;
}

/** `geo locate` on each machine, four processes each, on the team store at `url`, one organisation's key. */
function locateAll(server: ChargingServer, url: string): ChildProcess[] {
  return machines.flatMap((m) => {
    // Written once per wave: rewriting them while another process reads them shows it an empty file.
    const photos = imagesOn(m.home);
    return Array.from({ length: 4 }, () => spawn(process.execPath, [GEO_BIN, 'locate', photos, '--json', '--yes'], {
      env: binEnv({
        HOME: m.home, GEO_CONFIG_DIR: join(m.home, 'config'), GEO_DATA_DIR: join(m.home, 'data'), GEO_STATE_DIR: join(m.home, 'state'),
        GEO_API_KEY: 'orca_test_team', GEO_BASE_URL: server.url, GEO_STORE_URL: url,
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    }));
  });
}

describe.each(ways)('two machines x four processes on one team store, $way', ({ url, skip }) => {
  it('geo locate over 12 images, kill -9 at random, run again: exactly 12 charges, one answered claim per image, every rerun prints all 12', async (t) => {
    const store = url();
    if (!db.pg || !store) return t.skip(skip());
    await fresh();
    const server = await startChargingServer({ delayMs: 1000 });
    try {
      const first = locateAll(server, store);
      const done = Promise.all(first.map(finished));
      const victims = [...first].sort(() => Math.random() - 0.5).slice(0, 3);
      for (const v of victims) setTimeout(() => v.kill('SIGKILL'), 800 + Math.random() * 3000);
      const ended = await done;
      expect(ended.filter((r) => r.code === -1).length).toBeGreaterThan(0);
      const again = await Promise.all(locateAll(server, store).map(finished));
      for (const r of again) {
        expect(r.code, r.stderr).toBe(0);
        const lines = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { ok: boolean });
        expect(lines.filter((l) => l.ok)).toHaveLength(12);
      }
      expect(server.charges()).toBe(12);
      expect(db.pg.sql("SELECT count(DISTINCT fp) || ' ' || count(*) FROM claims WHERE state = 'answered'").trim()).toBe('12 12');
      expect(db.pg.sql("SELECT count(*) FROM claims WHERE state = 'open'").trim()).toBe('0');
      expect(db.pg.sql('SELECT count(DISTINCT sha256) FROM results').trim()).toBe('12');
      // Who paid: the role both machines logged in as (the server's word), never a key.
      expect(db.pg!.sql('SELECT DISTINCT paid_role FROM results').trim()).toBe('geo_analyst');
      expect(db.pg.sql("SELECT count(*) FROM results WHERE record LIKE '%orca_test_team%'").trim()).toBe('0');
    } finally {
      await server.close();
    }
  }, 300_000);

  it('geo locate under a team budget of 7 credits, the same race: what the server charged never passes it, and a run that meets the cap says who spent what (exit 4)', async (t) => {
    const store = url();
    if (!db.pg || !store) return t.skip(skip());
    await fresh();
    db.pg.sql("INSERT INTO budget (id, cap, per, period_start) VALUES (1, 7, 'month', date_trunc('month', now(), 'UTC'))");
    const server = await startChargingServer({ delayMs: 1000 });
    try {
      const first = locateAll(server, store);
      const done = Promise.all(first.map(finished));
      for (const v of [...first].sort(() => Math.random() - 0.5).slice(0, 3)) setTimeout(() => v.kill('SIGKILL'), 800 + Math.random() * 3000);
      await done;
      const again = await Promise.all(locateAll(server, store).map(finished));
      expect(server.credits()).toBeLessThanOrEqual(7);
      expect(server.charges()).toBeGreaterThan(0);
      const [spent, reserved] = db.pg.sql('SELECT spent, reserved FROM budget').trim().split('|').map(Number);
      expect(spent! + reserved!).toBeLessThanOrEqual(7);
      // Every credit charged is spent or still held: a key charged for a process that was killed
      // stays reserved until a run resends it, and a rerun that met the cap first did not.
      expect(spent).toBeLessThanOrEqual(server.credits());
      expect(server.credits()).toBeLessThanOrEqual(spent! + reserved!);
      for (const r of again) expect([0, 4], r.stderr).toContain(r.code);
      const stopped = again.find((r) => r.code === 4)!;
      expect(stopped.stderr).toMatch(/budget of 7 credits per month .*has no room for 1 more: \d+ spent.*spent this period: geo_analyst \d+/s);
    } finally {
      await server.close();
    }
  }, 300_000);
});
