/**
 * The team store as a DBA runs it: who did something is the role the server authenticated, and
 * only the admin moves the budget or the schema. The built program and node-postgres as the
 * analysts' roles (what any client of theirs could send) against a real PostgreSQL
 * (test/helpers/postgres.ts: docs/store.md's grants; skipped with the reason where none starts),
 * and the independent charging server.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEntry } from '../../src/evidence/custody.js';
import { PG_MIGRATIONS } from '../../src/store/postgres/schema.js';
import { distinctJpeg } from '../batch/helpers.js';
import { startChargingServer } from '../helpers/charging-server.js';
import { RESET_SCHEMA, asRole, freshStore, postgresPerFile } from '../helpers/postgres.js';
import { machineEnv, spawnGeo } from '../helpers/run-cli.js';

const db = postgresPerFile();
let roles: { ana: string; bo: string } | undefined;
const analysts = () => (roles ??= { ana: db.pg!.addRole('geo_ana'), bo: db.pg!.addRole('geo_bo') });

/** One analyst's machine: its own folders, its own role on the team store, the charging server. */
function machine(url: string, baseUrl = 'http://127.0.0.1:9'): Record<string, string> {
  return { ...machineEnv(mkdtempSync(join(tmpdir(), 'geo-roles-'))), GEO_API_KEY: 'orca_test_roles', GEO_BASE_URL: baseUrl, GEO_STORE_URL: url, CI: '1' };
}

function photo(env: Record<string, string>, i: number): string {
  const dir = join(env.HOME!, 'photos');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `img${i}.jpg`);
  writeFileSync(file, distinctJpeg(i));
  return file;
}

describe('only the admin moves the budget and the schema', () => {
  it('as an analyst\'s role the server refuses setting the budget, changing schema_version, deleting results, rewriting another analyst\'s custody entry and DDL; geo says so in one line (exit 3) and changes nothing', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    await freshStore(db.pg);
    const { ana, bo } = analysts();
    const admin = { ...machine(db.pg.adminUrl) };
    expect((await spawnGeo(['store', 'budget', 'set', '10', '--per', 'month'], { env: admin })).code).toBe(0);
    const made = await spawnGeo(['cases', 'create', '--local', '--name', 'Harbour fire', '--json'], { env: machine(ana) });
    expect(made.code, made.stderr).toBe(0);
    const id = (JSON.parse(made.stdout) as { id: string }).id;
    const first = db.pg.sql(`SELECT line FROM custody WHERE case_id = '${id}'`).trim();
    expect(parseEntry(first)).toMatchObject({ role: 'geo_ana' });

    // geo_bo, straight to the server: each is refused with insufficient_privilege (42501).
    const forged = JSON.stringify({ ...parseEntry(first), seq: 2, role: 'geo_ana' });
    const refused = {
      'UPDATE budget SET cap = 1000000': '42501',
      'UPDATE budget SET spent = 0': '42501',
      'DELETE FROM budget': '42501',
      "INSERT INTO spend (key, os_user, host, reserved, state) VALUES ('k', 'x', 'y', -50, 'settled')": '42501',
      'UPDATE schema_version SET version = 99': '42501',
      'INSERT INTO schema_version (version) VALUES (99)': '42501',
      'DELETE FROM results': '42501',
      'TRUNCATE results': '42501',
      [`UPDATE custody SET line = replace(line, 'Harbour', 'Harbor') WHERE case_id = '${id}'`]: '42501',
      [`DELETE FROM custody WHERE case_id = '${id}'`]: '42501',
      // An entry that names another role than the one appending it: the server's trigger refuses it.
      [`INSERT INTO custody (case_id, seq, line) VALUES ('${id}', 2, '${forged.replace(/'/g, "''")}')`]: '42501',
      'CREATE TABLE budget2 (cap integer)': '42501',
      'ALTER TABLE budget ADD COLUMN note text': '42501',
      'DROP TABLE budget': '42501',
      'DROP TRIGGER results_paid_role ON results': '42501',
      // The admin's functions check what they are given: no negative reservation or settlement.
      "SELECT geo_budget_reserve('k', -100, NULL, 'x', 'y')": '22023',
      "SELECT geo_budget_finish('k', -100, 'settled')": '22023',
    };
    for (const [sql, code] of Object.entries(refused)) expect({ sql, r: await asRole(bo, sql) }).toMatchObject({ sql, r: { ok: false, code } });
    expect(db.pg.sql('SELECT cap, spent, reserved FROM budget').trim()).toBe('10|0|0');
    expect(db.pg.sql(`SELECT count(*) FROM custody WHERE case_id = '${id}'`).trim()).toBe('1');
    expect(db.pg.sql('SELECT max(version) FROM schema_version').trim()).toBe(String(PG_MIGRATIONS.length));

    // geo as geo_bo: one line that says only the admin can, exit 3, the budget as it was.
    for (const argv of [['store', 'budget', 'set', '1000', '--per', 'day'], ['store', 'budget', 'set', '0']]) {
      const r = await spawnGeo(argv, { env: machine(bo) });
      expect(r.code).toBe(3);
      expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: only the team store's admin can set the budget; nothing was changed \(the server said: permission denied for table budget\) — hint: ask whoever runs the team's PostgreSQL/)]);
    }
    expect(db.pg.sql('SELECT cap, per FROM budget').trim()).toBe('10|month');
    const migrate = await spawnGeo(['store', 'migrate', '--store', bo], { env: machine(bo) });
    expect(migrate.code).toBe(3);
    expect(migrate.stderr.trim().split('\n')).toEqual([expect.stringMatching(/refused this to the role logged in \(permission denied .*\); nothing was changed — hint: only the team store's admin may do this/)]);
    expect(migrate.stderr).not.toMatch(/at .*\.js|Error:/);
  }, 90_000);

  it('custody entries and the budget\'s spend name the role that appended or reserved; a colleague\'s earlier answer is theirs, not "from your results"', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    await freshStore(db.pg);
    const { ana, bo } = analysts();
    const server = await startChargingServer({ delayMs: 50 });
    try {
      const a = machine(ana, server.url);
      const b = machine(bo, server.url);
      expect((await spawnGeo(['store', 'budget', 'set', '100', '--store', db.pg.adminUrl], { env: a })).code).toBe(0);
      const id = (JSON.parse((await spawnGeo(['cases', 'create', '--local', '--name', 'Harbour fire', '--json'], { env: a })).stdout) as { id: string }).id;
      const shot = photo(a, 1);
      expect((await spawnGeo(['locate', shot, '--case', id, '--json', '--yes'], { env: a })).code).toBe(0);
      // The same photo on b's machine: ana's answer, said to be hers; nothing sent.
      const again = await spawnGeo(['locate', photo(b, 1), '--case', id, '--yes'], { env: b });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toMatch(/from the team's results, paid for by geo_ana, not charged/);
      expect(again.stdout + again.stderr).not.toMatch(/from your results/);
      expect(server.charges()).toBe(1);
      // A copy of ana's own photo on her machine: her answer, "from your results".
      const copy = join(a.HOME!, 'copy.jpg');
      writeFileSync(copy, distinctJpeg(1));
      const mine = await spawnGeo(['locate', copy, '--yes'], { env: a });
      expect(mine.stderr).toMatch(/from your results, not charged/);
      expect((await spawnGeo(['locate', photo(b, 2), '--case', id, '--json', '--yes'], { env: b })).code).toBe(0);
      expect(server.charges()).toBe(2);

      // Each entry names the role that appended it, which the server wrote beside it too; the chain holds.
      const rows = db.pg.sql(`SELECT author, line FROM custody WHERE case_id = '${id}' ORDER BY seq`).trim().split('\n').map((l) => {
        const at = l.indexOf('|');
        return { author: l.slice(0, at), entry: parseEntry(l.slice(at + 1)) };
      });
      for (const r of rows) expect(r.entry.role).toBe(r.author);
      expect(new Set(rows.map((r) => r.author))).toEqual(new Set(['geo_ana', 'geo_bo']));
      expect(rows[0]!.entry).toMatchObject({ event: 'case_created', role: 'geo_ana' });
      const verified = await spawnGeo(['cases', 'verify', id], { env: b });
      expect(verified.code, verified.stdout + verified.stderr).toBe(0);

      const budget = JSON.parse((await spawnGeo(['store', 'budget', 'show', '--json'], { env: b })).stdout) as { by_analyst: Array<{ who: string; credits: number }> };
      expect(budget.by_analyst).toEqual([{ who: 'geo_ana', credits: 1, requests: 1 }, { who: 'geo_bo', credits: 1, requests: 1 }]);
      expect(db.pg.sql('SELECT analyst FROM spend ORDER BY analyst').trim().split('\n')).toEqual(['geo_ana', 'geo_bo']);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('a store set up with the grants geo documented before is upgraded: its analysts keep locating under the budget, and lose setting it, deleting and rewriting custody', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    // Schema 2 as an earlier geo left it, with the grants its docs gave (UPDATE on every table).
    db.pg.sql(`${RESET_SCHEMA}
      ALTER DEFAULT PRIVILEGES FOR ROLE geo_admin IN SCHEMA public GRANT SELECT, INSERT, UPDATE ON TABLES TO geo_analyst;
      ALTER DEFAULT PRIVILEGES FOR ROLE geo_admin IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO geo_analyst;
      CREATE TABLE schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now(), applied_by text NOT NULL DEFAULT current_user);
      ${PG_MIGRATIONS[0]} ${PG_MIGRATIONS[1]}
      INSERT INTO schema_version (version) VALUES (1), (2);
      INSERT INTO budget (id, cap, per, period_start) VALUES (1, 5, 'month', date_trunc('month', now(), 'UTC'));`);
    const analyst = db.pg.analystUrl;
    expect(await asRole(analyst, 'UPDATE budget SET cap = 5')).toMatchObject({ ok: true });
    const up = await spawnGeo(['store', 'migrate', '--store', db.pg.adminUrl, '--json'], { env: machine(db.pg.adminUrl) });
    expect(up.code, up.stderr).toBe(0);
    expect(JSON.parse(up.stdout)).toMatchObject({ from: 2, to: PG_MIGRATIONS.length });
    for (const sql of ['UPDATE budget SET cap = 1000', 'UPDATE schema_version SET version = 99', 'DELETE FROM results', 'UPDATE custody SET line = line', "UPDATE results SET paid_role = 'x'"]) {
      expect({ sql, r: await asRole(analyst, sql) }).toMatchObject({ sql, r: { ok: false, code: '42501' } });
    }
    const server = await startChargingServer({ delayMs: 50 });
    try {
      const m = machine(analyst, server.url);
      const r = await spawnGeo(['locate', photo(m, 7), '--json', '--yes'], { env: m });
      expect(r.code, r.stderr).toBe(0);
      expect(db.pg.sql('SELECT spent, reserved FROM budget').trim()).toBe('1|0');
      expect(db.pg.sql('SELECT analyst FROM spend').trim()).toBe('geo_analyst');
      expect(db.pg.sql('SELECT paid_role FROM results').trim()).toBe('geo_analyst');
    } finally {
      await server.close();
    }
  }, 90_000);
});
