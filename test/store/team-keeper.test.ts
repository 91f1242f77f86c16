/**
 * The team store's connection keeper (src/store/postgres/keeper.ts) as a person meets it: the
 * built program against a real PostgreSQL (test/helpers/postgres.ts; skipped with the reason where
 * none starts). The first command connects directly and leaves a keeper behind (its folder 0700,
 * its socket 0600, the password in neither its argv nor its files, no GEO_ variable such as the
 * API key in its environment); the next commands are served by
 * the backend it keeps (proved by a role allowed one connection); a keeper killed with -9 is
 * replaced; GEO_STORE_KEEP sets how long it stays and 0 turns it off; a server gone behind a living
 * keeper is "cannot be reached" (exit 6), as on a direct connection.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateStore } from '../../src/store/index.js';
import { ANALYST_GRANTS, postgresPerFile } from '../helpers/postgres.js';
import { spawnGeo } from '../helpers/run-cli.js';

const db = postgresPerFile({ tcp: true });
const SECRET = 's3cret-keeper-pw';

/** A machine: its own folders, the team store over TCP with a password in the URL (trust auth ignores it). */
function machine(keep = '30s') {
  const home = mkdtempSync(join(tmpdir(), 'geo-keeper-'));
  const url = db.pg!.tcpUrl!.replace('geo_analyst@', `geo_analyst:${SECRET}@`);
  return { home, url, env: { HOME: home, GEO_DATA_DIR: join(home, 'data'), GEO_STATE_DIR: join(home, 'state'), GEO_STORE_URL: url, GEO_STORE_KEEP: keep, CI: '1' } };
}

/** The keeper's folder of a machine (one store URL: one folder), once its pid file is written. */
async function keeperOf(home: string, timeoutMs = 10_000): Promise<{ dir: string; pid: number }> {
  const root = join(home, 'state', 'keepers');
  const until = Date.now() + timeoutMs;
  for (;;) {
    const dir = existsSync(root) ? readdirSync(root).map((d) => join(root, d))[0] : undefined;
    if (dir && existsSync(join(dir, 'keeper.pid')) && existsSync(join(dir, '.s.PGSQL.5432'))) return { dir, pid: Number(readFileSync(join(dir, 'keeper.pid'), 'utf8')) };
    if (Date.now() > until) throw new Error(`no keeper under ${root}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
  try {
    db.pg?.sql('ALTER ROLE geo_analyst CONNECTION LIMIT -1');
  } catch {
    // stopped by the last test
  }
});

const fresh = async () => {
  db.pg!.sql(`DROP SCHEMA public CASCADE; CREATE SCHEMA public AUTHORIZATION geo_admin; ${ANALYST_GRANTS}`);
  await migrateStore(db.pg!.adminUrl);
};

const keptBackends = () => Number(db.pg!.sql("SELECT count(*) FROM pg_stat_activity WHERE usename = 'geo_analyst' AND application_name = 'geo-cli (kept)'").trim());

describe('the team store\'s connection keeper', () => {
  it('the first command leaves a keeper (folder 0700, socket 0600, no password in its argv or files, no API key in its environment); the next ones use its backend, not a new connection', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    await fresh();
    const m = machine();
    const located = await spawnGeo(['--sandbox', 'locate', 'sample:paris', '--json'], { env: m.env });
    expect(located.code, located.stderr).toBe(0);
    const k = await keeperOf(m.home);
    started.push(k.pid);
    expect(statSync(k.dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(k.dir, '.s.PGSQL.5432')).mode & 0o777).toBe(0o600);
    const argv = readFileSync(`/proc/${k.pid}/cmdline`, 'utf8');
    expect(argv).toContain('store-keeper.js');
    expect(argv).not.toContain(SECRET);
    // Nor the API key of the command that started it: the keeper's environment is libpq's variables and HOME.
    const environ = readFileSync(`/proc/${k.pid}/environ`, 'utf8').split('\0');
    expect(environ.some((e) => e.startsWith('GEO_'))).toBe(false);
    expect(environ).toContain(`HOME=${m.home}`);
    for (const f of readdirSync(k.dir)) if (statSync(join(k.dir, f)).isFile()) expect(readFileSync(join(k.dir, f), 'utf8')).not.toContain(SECRET);
    expect(k.dir).not.toContain(SECRET);
    // The keeper logged one backend in. With the role allowed no more connections than that, a
    // command still works: it was served by that backend, and it gave it back.
    for (let i = 0; i < 50 && keptBackends() < 1; i++) await new Promise((r) => setTimeout(r, 100));
    expect(keptBackends()).toBe(1);
    db.pg.sql('ALTER ROLE geo_analyst CONNECTION LIMIT 1');
    for (let run = 0; run < 2; run++) {
      const listed = await spawnGeo(['history', '--json'], { env: m.env });
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout)).toHaveLength(1);
    }
    const status = await spawnGeo(['store', 'status', '--json'], { env: m.env });
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ store: 'team', counts: { results: 1 }, connection: { via: 'keeper', keeper_pid: k.pid } });
    const said = await spawnGeo(['store', 'status'], { env: m.env });
    expect(said.stdout).toContain(`connection: kept open by geo's keeper (pid ${k.pid}) between commands (GEO_STORE_KEEP)`);
    expect(status.stdout + status.stderr).not.toContain(SECRET);
    // Without the keeper, the same command needs a connection of its own, and the role has none left.
    db.pg.sql('ALTER ROLE geo_analyst CONNECTION LIMIT -1');
    const own = await spawnGeo(['store', 'status', '--json'], { env: { ...m.env, GEO_STORE_KEEP: '0' } });
    expect(JSON.parse(own.stdout)).toMatchObject({ connection: { via: 'direct' } });
    db.pg.sql('ALTER ROLE geo_analyst CONNECTION LIMIT 1');
    const direct = await spawnGeo(['history', '--json'], { env: { ...m.env, GEO_STORE_KEEP: '0' } });
    expect(direct.code).not.toBe(0);
    expect(direct.stderr).toMatch(/too many connections for role "geo_analyst"/);
  }, 60_000);

  it('a keeper killed with -9 (its socket left behind): the next command connects directly and a new keeper takes its place', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    await fresh();
    const m = machine();
    expect((await spawnGeo(['store', 'status'], { env: m.env })).code).toBe(0);
    const first = await keeperOf(m.home);
    process.kill(first.pid, 'SIGKILL');
    for (let i = 0; i < 50 && alive(first.pid); i++) await new Promise((r) => setTimeout(r, 20));
    expect(existsSync(join(first.dir, '.s.PGSQL.5432'))).toBe(true);
    const again = await spawnGeo(['history', '--json'], { env: m.env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.trim()).toBe('[]');
    const until = Date.now() + 10_000;
    let second = await keeperOf(m.home);
    while (second.pid === first.pid && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
      second = await keeperOf(m.home);
    }
    started.push(second.pid);
    expect(second.pid).not.toBe(first.pid);
    expect(alive(second.pid)).toBe(true);
  }, 60_000);

  it('GEO_STORE_KEEP=2s: the keeper leaves 2 s after the last command, its socket, pid file and backends gone; 0 starts none; a bad value is one line, exit 2', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    await fresh();
    const m = machine('2s');
    expect((await spawnGeo(['history'], { env: m.env })).code).toBe(0);
    const k = await keeperOf(m.home);
    started.push(k.pid);
    for (let i = 0; i < 100 && alive(k.pid); i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive(k.pid)).toBe(false);
    expect(existsSync(join(k.dir, '.s.PGSQL.5432'))).toBe(false);
    expect(existsSync(join(k.dir, 'keeper.pid'))).toBe(false);
    for (let i = 0; i < 50 && keptBackends() > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(keptBackends()).toBe(0);

    const off = machine('0');
    expect((await spawnGeo(['history'], { env: off.env })).code).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(existsSync(join(off.home, 'state', 'keepers'))).toBe(false);

    const bad = await spawnGeo(['history'], { env: machine('soon').env });
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')[0]).toMatch(/GEO_STORE_KEEP must be a length such as .*got "soon"/);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('the server gone behind a living keeper, even while it was warming its spare: "cannot be reached", exit 6, with the --store local hint, as on a direct connection', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    await fresh();
    // The schema version read slowly (3 s), so the server goes away while the keeper's spare backend
    // is still warming up: that backend must never be handed to a command (it would wait forever).
    db.pg.sql('ALTER TABLE schema_version RENAME TO schema_version_t; CREATE VIEW schema_version AS SELECT version FROM schema_version_t WHERE pg_sleep(1.5) IS NOT NULL');
    const m = machine();
    expect((await spawnGeo(['history'], { env: m.env })).code).toBe(0);
    const k = await keeperOf(m.home);
    started.push(k.pid);
    db.pg.stop(); // the last test of the file: the server is not needed after it
    const gone = await spawnGeo(['history'], { env: m.env });
    expect(gone.code).toBe(6);
    expect(gone.stderr).toMatch(/cannot be reached.*--store local/s);
    expect(gone.stderr).not.toContain(SECRET);
    expect(alive(k.pid)).toBe(true);
  }, 60_000);
});
