/**
 * `geo store …` and the team store's promises as a person meets them (issue 32), the built program
 * against a real PostgreSQL (test/helpers/postgres.ts; skipped with the reason where none starts):
 * migrations by the admin role only and version checks both ways, push idempotent with custody
 * hashes kept, a budget set and shown, an unreachable store (exit 6, password masked, --store local
 * named; geo doctor names it without connecting), every command saying so before anything is claimed or sent; a server slow to close a
 * connection does not hold a command that is done.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { type AddressInfo, type Socket, connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ANALYST_GRANTS, RESET_SCHEMA, postgresPerFile } from '../helpers/postgres.js';
import { spawnGeo } from '../helpers/run-cli.js';
import { PG_SCHEMA_VERSION as V } from '../../src/store/postgres/schema.js';

const db = postgresPerFile({ tcp: true });

const dirs = () => ({ GEO_DATA_DIR: mkdtempSync(join(tmpdir(), 'geo-team-data-')), GEO_STATE_DIR: mkdtempSync(join(tmpdir(), 'geo-team-state-')), CI: '1' });
const fresh = () => db.pg!.sql(RESET_SCHEMA);
/** `geo store migrate` as the admin, then the analysts' grants, as docs/store.md sets a store up. */
async function migrated(env: Record<string, string>): Promise<void> {
  expect((await spawnGeo(['store', 'migrate', '--store', db.pg!.adminUrl], { env })).code).toBe(0);
  db.pg!.sql(ANALYST_GRANTS);
}

describe('geo store against a real PostgreSQL', () => {
  it('migrate: refused to an analyst (no DDL), done by the admin; a store behind or ahead of geo is refused with a hint', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    fresh();
    const env = dirs();
    const before = await spawnGeo(['store', 'status', '--store', db.pg.analystUrl], { env });
    expect(before.code).not.toBe(0);
    expect(before.stderr).toMatch(/no geo schema yet.*geo store migrate/s);
    const analyst = await spawnGeo(['store', 'migrate', '--store', db.pg.analystUrl], { env });
    expect(analyst.code).toBe(3);
    expect(analyst.stderr).toMatch(/permission denied/);
    const admin = await spawnGeo(['store', 'migrate', '--store', db.pg.adminUrl, '--json'], { env });
    expect(admin.code).toBe(0);
    expect(JSON.parse(admin.stdout)).toMatchObject({ from: 0, to: V });
    db.pg.sql(ANALYST_GRANTS);
    const st = await spawnGeo(['store', 'status', '--json'], { env: { ...env, GEO_STORE_URL: db.pg.analystUrl } });
    expect(JSON.parse(st.stdout)).toMatchObject({ store: 'team', schema: V, knows: V, counts: { results: 0 } });
    const doctor = await spawnGeo(['doctor', '--online'], { env: { ...env, GEO_STORE_URL: db.pg.analystUrl, GEO_BASE_URL: 'http://127.0.0.1:1' } });
    expect(doctor.stdout + doctor.stderr).toMatch(new RegExp(`ok\\s+team store\\s+postgres://geo_analyst@.*schema ${V}, round trip`));
    db.pg.sql('INSERT INTO schema_version (version) VALUES (99)');
    const newer = await spawnGeo(['store', 'status', '--store', db.pg.analystUrl], { env });
    expect(newer.stderr).toMatch(/migrated by a newer geo \(schema 99; this geo knows \d+\).*upgrade geo/s);
  }, 60_000);

  it('geo locate on one machine, geo history, --search and history show on another: the team\'s results, nothing sent', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    fresh();
    const a = { ...dirs(), GEO_STORE_URL: db.pg.analystUrl };
    const b = { ...dirs(), GEO_STORE_URL: db.pg.analystUrl };
    await migrated(a);
    const located = await spawnGeo(['--sandbox', 'locate', 'sample:paris', 'sample:tokyo', '--json'], { env: a });
    expect(located.code, located.stderr).toBe(0);
    expect(db.pg.sql('SELECT count(*) FROM results').trim()).toBe('2');
    const listed = await spawnGeo(['history', '--json'], { env: b });
    expect(listed.code, listed.stderr).toBe(0);
    const rows = JSON.parse(listed.stdout) as Array<{ city: string; analysis_id: string }>;
    expect(rows).toHaveLength(2);
    const [paris, tokyo] = rows as [{ city: string; analysis_id: string }, { city: string; analysis_id: string }];
    const word = tokyo.city.split(' ')[0]!;
    const searched = JSON.parse((await spawnGeo(['history', '--search', word, '--json'], { env: b })).stdout) as Array<{ analysis_id: string }>;
    expect(searched.map((r) => r.analysis_id)).toContain(tokyo.analysis_id);
    const shown = await spawnGeo(['history', 'show', paris.analysis_id, '--json'], { env: b });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(paris.analysis_id);
    // Machine b's own file holds nothing: what it showed came from the team store.
    expect((await spawnGeo(['--store', 'local', 'history', '--json'], { env: b })).stdout.trim()).toBe('[]');
  }, 60_000);

  it('push: the local store goes in once (a second push copies nothing), custody lines byte for byte', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    fresh();
    const env = dirs();
    await migrated(env);
    expect((await spawnGeo(['--sandbox', 'locate', 'sample:paris', 'sample:tokyo', '-q'], { env })).code).toBe(0);
    expect((await spawnGeo(['--sandbox', 'cases', 'create', '--name', 'Harbour', '-q'], { env })).code).toBe(0);
    const { openStore } = await import('../helpers/store.js');
    const localStore = openStore(env.GEO_DATA_DIR);
    const exhibit = localStore.keepFile(Buffer.from('a map screenshot'), 'image/png');
    localStore.close();
    const first = JSON.parse((await spawnGeo(['store', 'push', '--store', db.pg.analystUrl, '--json'], { env })).stdout);
    expect(first).toMatchObject({ results: { copied: 2, already: 0 }, cases: { copied: 1 }, custody: { copied: 1 }, kept: 1, diverged: [] });
    expect(db.pg.sql(`SELECT convert_from(bytes, 'UTF8') FROM kept_files WHERE sha256 = '${exhibit.sha256}'`).trim()).toBe('a map screenshot');
    const second = JSON.parse((await spawnGeo(['store', 'push', '--store', db.pg.analystUrl, '--json'], { env })).stdout);
    expect(second).toMatchObject({ results: { copied: 0, already: 2 }, claims: { copied: 0 }, cases: { copied: 0, already: 1 }, custody: { copied: 0, already: 1 }, batches: 0, kept: 0 });
    const { dbRows } = await import('../helpers/store.js');
    const local = dbRows<{ line: string }>(env.GEO_DATA_DIR, 'SELECT line FROM custody ORDER BY seq').map((r) => r.line);
    expect(db.pg.sql('SELECT line FROM custody ORDER BY seq').trim().split('\n')).toEqual(local);
    // Nothing secret went in: no API key anywhere in the team store.
    expect(db.pg.sql("SELECT count(*) FROM results WHERE record LIKE '%orca_sandbox%' OR convert_from(raw, 'UTF8') LIKE '%orca_sandbox%'").trim()).toBe('0');
  }, 90_000);

  it('budget: set by --per (the admin), shown with the spend by analyst and by case', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    fresh();
    const env = { ...dirs(), GEO_STORE_URL: db.pg.analystUrl };
    await migrated(env);
    const set = await spawnGeo(['store', 'budget', 'set', '500', '--per', 'month', '--json'], { env: { ...env, GEO_STORE_URL: db.pg.adminUrl } });
    expect(JSON.parse(set.stdout)).toMatchObject({ cap: 500, per: 'month', spent: 0, reserved: 0 });
    db.pg.sql("INSERT INTO spend (key, os_user, host, case_id, reserved, charged, state) VALUES ('k1', 'ana', 'm1', 'lc_1', 3, 3, 'settled'), ('k2', 'bo', 'm2', NULL, 1, 1, 'settled')");
    const show = JSON.parse((await spawnGeo(['store', 'budget', 'show', '--json'], { env })).stdout);
    expect(show.by_analyst).toEqual([{ who: 'ana@m1', credits: 3, requests: 1 }, { who: 'bo@m2', credits: 1, requests: 1 }]);
    expect(show.by_case).toEqual([{ who: 'lc_1', credits: 3, requests: 1 }]);
    const bad = await spawnGeo(['store', 'budget', 'set', 'lots'], { env });
    expect(bad.code).toBe(2);
  }, 60_000);
});

describe('TLS settings are honoured', () => {
  it('sslmode=verify-full against a server without TLS: refused before any query (exit 6), said as a TLS failure', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    const r = await spawnGeo(['store', 'status', '--store', `${db.pg.tcpUrl!}?sslmode=verify-full`], { env: dirs() });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/TLS failed .*does not support SSL.*sslrootcert/s);
  });
});

describe('a server slow to hang up', () => {
  // A connection's goodbye is Terminate, then each side closes. A server (or a pooler, or a network
  // path) that is slow to close its side must not hold the command: every transaction was committed
  // before, and the exit waited for that close (15-19 ms a command with a local PostgreSQL). The
  // proxy passes everything through both ways but keeps its side open HOLD_MS after geo closes its own.
  const HOLD_MS = 8000;
  it('history and store status end as soon as they are done, not when the server closes the connection', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    fresh();
    await migrated(dirs());
    const upstream = new URL(db.pg.tcpUrl!);
    const open = new Set<Socket>();
    const proxy = createServer({ allowHalfOpen: true }, (client) => {
      const up = connect(Number(upstream.port), upstream.hostname);
      open.add(client).add(up);
      client.pipe(up);
      up.pipe(client, { end: false });
      const hold = setTimeout(() => client.end(), HOLD_MS);
      client.on('close', () => clearTimeout(hold));
      client.on('error', () => up.destroy());
      up.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const url = `postgres://geo_analyst@127.0.0.1:${(proxy.address() as AddressInfo).port}/geo`;
    try {
      for (const argv of [['history', '--json'], ['store', 'status']]) {
        const started = Date.now();
        const r = await spawnGeo([...argv, '--store', url], { env: dirs() });
        expect(r.code, r.stderr).toBe(0);
        expect(Date.now() - started, `geo ${argv.join(' ')} waited for the server to hang up`).toBeLessThan(HOLD_MS / 2);
      }
    } finally {
      for (const s of open) s.destroy();
      proxy.close();
    }
  }, 60_000);
});

describe('a team store that cannot be used', () => {
  it('unreachable: exit 6, the password masked, the hint names --store local; read-only status says so', async () => {
    const env = { ...dirs(), GEO_STORE_URL: 'postgres://ana:s3cret-pw@127.0.0.1:1/geo' };
    const r = await spawnGeo(['store', 'status'], { env });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/cannot be reached.*--store local/s);
    expect(r.stderr + r.stdout).not.toContain('s3cret-pw');
    expect(r.stderr).toContain('postgres://ana:***@127.0.0.1:1/geo');
    // Offline, as documented: the store named, not contacted, and the command that checks it named.
    const doctor = await spawnGeo(['doctor'], { env });
    expect(doctor.stdout + doctor.stderr).toMatch(/ok\s+team store\s+postgres:\/\/ana:\*\*\*@127\.0\.0\.1:1\/geo \(from GEO_STORE_URL\): not contacted .*geo store status/);
    const online = await spawnGeo(['doctor', '--online'], { env: { ...env, GEO_BASE_URL: 'http://127.0.0.1:1' } });
    expect(online.stdout + online.stderr).toMatch(/FAIL\s+team store\s+the team store postgres:\/\/ana:\*\*\*@127\.0\.0\.1:1\/geo cannot be reached/);
    expect(doctor.stdout + doctor.stderr + online.stdout + online.stderr).not.toContain('s3cret-pw');
  });

  it('geo doctor opens no connection to a configured team store (a listener counts them); --online does', async () => {
    const accepted: Socket[] = [];
    const listener = createServer((s) => accepted.push(s));
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    try {
      const env = { ...dirs(), GEO_STORE_URL: `postgres://ana@127.0.0.1:${(listener.address() as AddressInfo).port}/geo?connect_timeout=1`, GEO_BASE_URL: 'http://127.0.0.1:1' };
      const doctor = await spawnGeo(['doctor'], { env });
      expect(doctor.stdout + doctor.stderr).toMatch(/ok\s+team store\s+.*not contacted .*geo store status/);
      expect(accepted).toHaveLength(0);
      await spawnGeo(['doctor', '--online'], { env });
      expect(accepted.length).toBeGreaterThan(0);
    } finally {
      for (const s of accepted) s.destroy();
      listener.close();
    }
  }, 30_000);

  it('geo locate refuses to send while the team store cannot be reached (exit 6); history, cases and export say it cannot be reached; --store local runs it, said on stderr', async () => {
    const env = { ...dirs(), GEO_STORE_URL: 'postgres://ana:s3cret-pw@127.0.0.1:1/geo' };
    const unreachable = await spawnGeo(['--sandbox', 'locate', 'sample:paris'], { env });
    expect(unreachable.code).toBe(6);
    expect(unreachable.stderr).toMatch(/cannot be reached.*--store local/s);
    expect(unreachable.stdout).toBe('');
    expect(unreachable.stderr).not.toContain('s3cret-pw');
    const history = await spawnGeo(['history'], { env });
    expect(history.code).toBe(6);
    expect(history.stderr).toMatch(/cannot be reached/);
    // Cases are on the team store now (issue 32): read-only, they say it cannot be reached.
    const cases = await spawnGeo(['cases', 'list'], { env });
    expect(cases.code).toBe(6);
    expect(cases.stderr).toMatch(/cannot be reached/);
    expect(cases.stderr).not.toContain('s3cret-pw');
    const exported = await spawnGeo(['export', '--all', '--format', 'csv'], { env });
    expect(exported.code).toBe(6);
    expect(exported.stderr).toMatch(/cannot be reached/);
    expect(exported.stderr).not.toContain('s3cret-pw');
    const local = await spawnGeo(['--sandbox', '--store', 'local', 'locate', 'sample:paris'], { env });
    expect(local.code).toBe(0);
    expect(local.stderr).toMatch(/using the local store .*geo\.db for this run \(--store local\)/);
  });

  it('geo config set store keeps no password in the config file, and shows it masked', async () => {
    const env = { ...dirs(), GEO_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'geo-team-cfg-')) };
    const set = await spawnGeo(['config', 'set', 'store', 'postgres://ana:s3cret-pw@db.example.org/geo?sslmode=verify-full'], { env });
    expect(set.code).toBe(0);
    expect(set.stderr + set.stdout).not.toContain('s3cret-pw');
    const list = await spawnGeo(['config', 'get', 'store'], { env });
    expect(list.stdout).not.toContain('s3cret-pw');
    expect(list.stdout).toContain('postgres://ana:***@db.example.org/geo?sslmode=verify-full');
  });

  it('the built CLI reaches the team store through dist/pg.cjs without loading Node\'s own fetch (pg\'s Workers probe)', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    fresh();
    const env = dirs();
    await migrated(env);
    const preload = join(mkdtempSync(join(tmpdir(), 'geo-team-preload-')), 'report.cjs');
    writeFileSync(preload, "process.on('exit', () => process.stderr.write('undici loaded: ' + process.moduleLoadList.some((m) => /undici/.test(m)) + '\\n'));");
    const r = await spawnGeo(['store', 'status', '--json'], { env: { ...env, GEO_STORE_URL: db.pg.analystUrl, NODE_OPTIONS: `--require ${preload}` } });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ store: 'team', schema: V });
    expect(r.stderr).toContain('undici loaded: false');
  }, 60_000);
});

