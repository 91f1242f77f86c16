/**
 * `geo history` says who paid for each result and when (issue 32), on both engines, the built
 * program against the sandbox: the team store (a real PostgreSQL, test/helpers/postgres.ts;
 * skipped with the reason where none starts) names the analyst it recorded with the row
 * (paid_role: the database role its server authenticated, written by the server whatever a client
 * sends; paid_user, paid_host and paid_at by the server's clock beside it); the local file names
 * the analyst its spend row recorded for the result's key, else this machine's user. The stores are edited from
 * outside (psql, the sqlite3 CLI) so that what is shown can only come from what the store holds.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { hostname, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asRole, freshStore, postgresPerFile } from '../helpers/postgres.js';
import { spawnGeo, tempConfigDir } from '../helpers/run-cli.js';
import { builtBinaryOrThrow, spawnGeoInPty } from '../pty/pty.js';
import { screenRows, tooWideLines } from '../pty/screen.js';

const ME = `${userInfo().username}@${hostname()}`;
const dirs = () => ({ GEO_DATA_DIR: mkdtempSync(join(tmpdir(), 'geo-paid-data-')), GEO_STATE_DIR: mkdtempSync(join(tmpdir(), 'geo-paid-state-')), CI: '1' });
type Row = { analysis_id: string; input: string; paid_by: { role?: string; user: string; host: string; at: string } | null };

/** The table as a real terminal of `columns` shows it (test/pty: the fitting runs only on a terminal). */
async function table(env: Record<string, string>, columns: number) {
  const s = spawnGeoInPty(['history'], { HOME: tempConfigDir(), GEO_CONFIG_DIR: tempConfigDir(), ...env }, { columns, rows: 40 });
  const code = await s.exit;
  return { code, raw: s.raw(), rows: screenRows(s.raw(), columns).filter((l) => l.trim() !== '') };
}

describe('geo history: who paid (the local file)', () => {
  it('the analyst the file recorded for the key, else this machine\'s user; --json paid_by, PAID BY column, a line in history show', async () => {
    const env = dirs();
    expect((await spawnGeo(['--sandbox', 'locate', 'sample:paris', 'sample:tokyo', '-q'], { env })).code).toBe(0);
    const db = join(env.GEO_DATA_DIR, 'geo.db');
    // One result's key recorded as another analyst's (as a file copied from a colleague would say);
    // the other one's spend row removed: that one is this machine's user's, at its stored time.
    const key = (name: string) => execFileSync('sqlite3', [db, `SELECT idem_key FROM results WHERE input_path LIKE '%${name}'`], { encoding: 'utf8' }).trim();
    const [parisKey, tokyoKey] = [key('paris.jpg'), key('tokyo.jpg')];
    expect(execFileSync('sqlite3', [db, `SELECT count(*) FROM spend WHERE key IN ('${parisKey}', '${tokyoKey}')`], { encoding: 'utf8' }).trim()).toBe('2');
    execFileSync('sqlite3', [db, `UPDATE spend SET os_user = 'bob', host = 'desk-9', at = 1767225600000 WHERE key = '${parisKey}'; DELETE FROM spend WHERE key = '${tokyoKey}';`]);
    const r = await spawnGeo(['history', '--json', 'input,paid_by,analysis_id'], { env });
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as Row[];
    const paris = rows.find((x) => x.input.endsWith('paris.jpg'))!;
    const tokyo = rows.find((x) => x.input.endsWith('tokyo.jpg'))!;
    expect(paris.paid_by).toEqual({ user: 'bob', host: 'desk-9', at: '2026-01-01T00:00:00Z' });
    expect(tokyo.paid_by).toMatchObject({ user: userInfo().username, host: hostname() });
    expect(tokyo.paid_by!.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const shown = await spawnGeo(['history', 'show', paris.analysis_id], { env });
    expect(shown.stderr).toContain('paid for by bob@desk-9 at 2026-01-01T00:00:00Z');
    const piped = (await spawnGeo(['history'], { env })).stdout.split('\n');
    expect(piped[0]).toMatch(/CHARGE\s+PAID BY$/);
    expect(piped.find((l) => l.includes('paris.jpg'))).toMatch(/paid \(sandbox\)\s+bob@desk-9$/);
    expect(piped.find((l) => l.includes('tokyo.jpg'))).toMatch(new RegExp(`paid \\(sandbox\\)\\s+${ME}$`));
  }, 60_000);

  it('on 80 columns PAID BY is a column of the table; on 60 it goes below the table, under each input', async () => {
    builtBinaryOrThrow();
    const env = dirs();
    expect((await spawnGeo(['--sandbox', 'locate', 'sample:paris', '-q'], { env })).code).toBe(0);
    const at80 = await table(env, 80);
    expect(at80.code).toBe(0);
    expect(tooWideLines(at80.raw, 80)).toEqual([]);
    const head80 = at80.rows.find((l) => l.includes('INPUT'))!;
    expect(head80).toMatch(/│ PAID BY\s*│$/);
    expect(at80.rows.find((l) => l.includes('paris.jpg') && l.includes('│'))).toContain(`│ ${ME.slice(0, 12)}`);
    const at60 = await table(env, 60);
    expect(at60.code).toBe(0);
    expect(tooWideLines(at60.raw, 60)).toEqual([]);
    expect(at60.rows.find((l) => l.includes('INPUT'))).not.toContain('PAID BY');
    expect(at60.rows.join('\n')).toContain(`paid by: ${ME}`);
  }, 60_000);
});

const db = postgresPerFile({ tcp: true });

describe('geo history: who paid (the team store, a real PostgreSQL)', () => {
  it('two analysts with their own roles: PAID BY names each one\'s role, --json and history show add the OS user and host; a row another role sends as someone else is recorded as the sender\'s', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    await freshStore(db.pg);
    const [ana, bo] = [db.pg.addRole('geo_ana'), db.pg.addRole('geo_bo')];
    const a = { ...dirs(), GEO_STORE_URL: ana };
    const b = { ...dirs(), GEO_STORE_URL: bo };
    expect((await spawnGeo(['--sandbox', 'locate', 'sample:paris', '-q'], { env: a })).code).toBe(0);
    // Machine b says it is someone else (USER, LOGNAME, HOSTNAME): the role its server authenticated is what is recorded.
    const spoofed = await spawnGeo(['--sandbox', 'locate', 'sample:tokyo', '-q'], { env: { ...b, USER: 'geo_ana', LOGNAME: 'geo_ana', HOSTNAME: 'laptop-a' } });
    expect(spoofed.code, spoofed.stderr).toBe(0);
    expect(db.pg.sql("SELECT input_path, paid_role FROM results ORDER BY id").trim().split('\n').map((l) => l.replace(/^.*\//, ''))).toEqual(['paris.jpg|geo_ana', 'tokyo.jpg|geo_bo']);

    // As geo_bo, straight to the server: a copy of ana's row claiming to be ana's, OS user and all.
    const copied = await asRole(bo, `INSERT INTO results (stored_at, sha256, input_path, origin, account, sandbox, request, status, charge, depth, city, country, latitude, longitude, confidence, body, record, content_sha, paid_user, paid_host, paid_role)
      SELECT stored_at, sha256, 'copy.jpg', origin, account, sandbox, request, status, charge, depth, city, country, latitude, longitude, confidence, body, record, 'forged', 'mallory', 'desk-9', 'geo_ana' FROM results WHERE input_path LIKE '%paris.jpg' RETURNING paid_role`);
    expect(copied).toEqual({ ok: true, rows: [{ paid_role: 'geo_bo' }] });
    // Nor can it rewrite who paid for ana's row: geo_bo may update a record, never paid_role.
    expect(await asRole(bo, "UPDATE results SET paid_role = 'geo_bo' WHERE input_path LIKE '%paris.jpg'")).toMatchObject({ ok: false, code: '42501' });

    for (const env of [a, b]) {
      const listed = await spawnGeo(['history', '--json', 'input,paid_by,analysis_id'], { env });
      expect(listed.code, listed.stderr).toBe(0);
      const rows = JSON.parse(listed.stdout) as Row[];
      const by = (name: string) => rows.find((x) => x.input.endsWith(name))!.paid_by;
      expect(by('paris.jpg')).toEqual({ role: 'geo_ana', user: userInfo().username, host: hostname(), at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) });
      expect(by('tokyo.jpg')).toMatchObject({ role: 'geo_bo', user: userInfo().username, host: hostname() });
      expect(by('copy.jpg')).toMatchObject({ role: 'geo_bo', user: 'mallory', host: 'desk-9' });
      const table = (await spawnGeo(['history'], { env })).stdout.split('\n');
      expect(table.find((l) => l.includes('paris.jpg'))).toMatch(/paid \(sandbox\)\s+geo_ana$/);
      expect(table.find((l) => l.includes('tokyo.jpg'))).toMatch(/paid \(sandbox\)\s+geo_bo$/);
      expect(table.find((l) => l.includes('copy.jpg'))).toMatch(/paid \(sandbox\)\s+geo_bo$/);
    }
    const paris = (JSON.parse((await spawnGeo(['history', '--json', 'input,analysis_id', '--search', 'paris'], { env: b })).stdout) as Row[])[0]!;
    const shown = await spawnGeo(['history', 'show', paris.analysis_id], { env: b });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stderr).toMatch(new RegExp(`paid for by geo_ana \\(${ME}\\) at \\d{4}-`));
    expect(shown.stderr).toContain('read from the team store');
  }, 90_000);
});
