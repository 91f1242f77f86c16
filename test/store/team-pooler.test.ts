/**
 * The team store through PgBouncer in transaction pooling mode (docs/store.md "Many analysts: a
 * pooler"): geo keeps no session state on a connection (no SET, no session advisory lock, no named
 * prepared statement, no LISTEN), so a pooler may hand each transaction to any server backend. Real
 * processes of the built program, a real PostgreSQL (test/helpers/postgres.ts) and a real PgBouncer
 * (test/helpers/pgbouncer.ts) in front of it; skipped with the reason where either cannot start.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEntry } from '../../src/evidence/custody.js';
import { verifyChain } from '../../src/evidence/custody-verify.js';
import { FIXTURES, distinctJpeg } from '../batch/helpers.js';
import { startChargingServer } from '../helpers/charging-server.js';
import { pgbouncerPerFile } from '../helpers/pgbouncer.js';
import { freshStore, postgresPerFile } from '../helpers/postgres.js';
import { GEO_BIN, binEnv, finished, spawnGeo } from '../helpers/run-cli.js';

const db = postgresPerFile();
const pooler = pgbouncerPerFile(db);

const skipWhy = () => (db.pg ? pooler.skip : db.skip);

/** A machine: its own HOME, config, data and state folders; the team store through the pooler. */
function machine(name: string, baseUrl: string): Record<string, string> {
  const home = mkdtempSync(join(tmpdir(), `geo-pooler-${name}-`));
  return { HOME: home, GEO_CONFIG_DIR: join(home, 'config'), GEO_DATA_DIR: join(home, 'data'), GEO_STATE_DIR: join(home, 'state'), GEO_API_KEY: 'orca_test_team', GEO_BASE_URL: baseUrl, GEO_STORE_URL: pooler.it!.analystUrl, CI: '1' };
}

/** `n` photos in `folder` of a machine's HOME, image `offset + i` each: the same offset on two machines is the same photos. */
function photos(env: Record<string, string>, folder: string, n: number, offset = 0): string {
  const dir = join(env.HOME!, folder);
  mkdirSync(dir, { recursive: true });
  const base = readFileSync(join(FIXTURES, 'paris.jpg'));
  for (let i = 0; i < n; i++) writeFileSync(join(dir, `img${i}.jpg`), distinctJpeg(offset + i, base));
  return dir;
}

describe('the team store through PgBouncer (transaction pooling)', () => {
  it('two machines x two processes locate the same 6 images at once: exactly 6 charges; history, --search and show answer through the pooler', async (t) => {
    if (!db.pg || !pooler.it) return t.skip(skipWhy());
    await freshStore(db.pg!);
    const server = await startChargingServer({ delayMs: 500 });
    try {
      const machines = [machine('laptop-a', server.url), machine('laptop-b', server.url)];
      const runs = machines.flatMap((env) => [0, 1].map(() => finished(spawn(process.execPath, [GEO_BIN, 'locate', photos(env, 'photos', 6), '--json', '--yes'], { env: binEnv(env), stdio: ['ignore', 'pipe', 'pipe'] }))));
      for (const r of await Promise.all(runs)) {
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { ok: boolean }).filter((l) => l.ok)).toHaveLength(6);
      }
      expect(server.charges()).toBe(6);
      expect(db.pg.sql("SELECT count(*) FROM claims WHERE state = 'answered'").trim()).toBe('6');

      const b = machines[1]!;
      const listed = await spawnGeo(['history', '--json'], { env: b });
      expect(listed.code, listed.stderr).toBe(0);
      const rows = JSON.parse(listed.stdout) as Array<{ analysis_id: string; paid_by: { user: string } | null }>;
      expect(new Set(rows.map((r) => r.analysis_id)).size).toBe(6);
      for (const r of rows) expect(r.paid_by).not.toBeNull();
      const found = await spawnGeo(['history', '--search', 'img3', '--json'], { env: b });
      expect(found.code, found.stderr).toBe(0);
      expect(JSON.parse(found.stdout)).toHaveLength(1);
      const shown = await spawnGeo(['history', 'show', rows[0]!.analysis_id], { env: b });
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stderr).toContain('read from the team store');
      const status = await spawnGeo(['store', 'status', '--json'], { env: b });
      expect(status.code, status.stderr).toBe(0);
    } finally {
      await server.close();
    }
  }, 180_000);

  it('two machines append to one case at once through the pooler: every entry lands and the chain verifies', async (t) => {
    if (!db.pg || !pooler.it) return t.skip(skipWhy());
    await freshStore(db.pg!);
    const server = await startChargingServer({ delayMs: 200, quota: 600 });
    try {
      const [a, b] = [machine('laptop-a', server.url), machine('laptop-b', server.url)] as [Record<string, string>, Record<string, string>];
      const made = await spawnGeo(['cases', 'create', '--local', '--name', 'Harbour fire', '--json'], { env: a });
      expect(made.code, made.stderr).toBe(0);
      const id = (JSON.parse(made.stdout) as { id: string }).id;
      // Distinct photos per machine: 2 x 4 answers, each linked to the case by its own entry.
      const run = (env: Record<string, string>, offset: number) => finished(spawn(process.execPath, [GEO_BIN, 'locate', photos(env, 'own', 4, offset), '--case', id, '--json', '--yes'], { env: binEnv(env), stdio: ['ignore', 'pipe', 'pipe'] }));
      for (const r of await Promise.all([run(a, 1000), run(b, 2000)])) {
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).not.toMatch(/custody: not appended/);
      }
      const lines = db.pg.sql(`SELECT line FROM custody WHERE case_id = '${id}' ORDER BY seq`).trim().split('\n');
      expect(verifyChain(lines, { caseId: id })).toMatchObject({ ok: true, entries: lines.length });
      expect(lines.map(parseEntry).filter((e) => e.event === 'result_linked')).toHaveLength(8);
      const verified = await spawnGeo(['cases', 'verify', id], { env: b });
      expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    } finally {
      await server.close();
    }
  }, 180_000);
});
