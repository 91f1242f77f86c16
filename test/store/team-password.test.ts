/**
 * Where a team store's password comes from, as a person meets it: a role whose login takes a
 * SCRAM password (pg_hba.conf), the built program against a real PostgreSQL
 * (test/helpers/postgres.ts; skipped with the reason where none starts). A password missing from
 * the URL, PGPASSWORD and ~/.pgpass is said in words, never as the driver's SCRAM error; ~/.pgpass
 * is read without the driver's deprecation warning; a password on the command line (--store URL)
 * works and says once that other users can read it, never printing it.
 */
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { passwordFromFile } from '../../src/store/postgres/password.js';
import { freshStore, postgresPerFile } from '../helpers/postgres.js';
import { machineEnv, spawnGeo } from '../helpers/run-cli.js';

const db = postgresPerFile();
const SECRET = 'pw-S3cret:with colon';

let made = false;

/** A role that logs in with a password only (made once: roles are the cluster's), a fresh store, and its URL without the password. */
async function passwordRole(): Promise<{ url: string; port: string; withPassword: string }> {
  const pg = db.pg!;
  await freshStore(pg);
  if (!made) {
    made = true;
    pg.sql(`CREATE ROLE geo_pw LOGIN PASSWORD '${SECRET}' IN ROLE geo_analyst`);
    const hba = pg.sql('SHOW hba_file').trim();
    writeFileSync(hba, `local geo geo_pw scram-sha-256\n${readFileSync(hba, 'utf8')}`);
    pg.sql('SELECT pg_reload_conf()');
  }
  const url = pg.urlOf('geo_pw');
  const u = new URL(url);
  u.password = encodeURIComponent(SECRET);
  return { url, port: new URL(url).searchParams.get('port')!, withPassword: u.toString() };
}

const home = () => ({ ...machineEnv(mkdtempSync(join(tmpdir(), 'geo-pw-'))), CI: '1' });

describe('a team store\'s password', () => {
  it('missing from the URL, PGPASSWORD and ~/.pgpass: one line in words (exit 3), never the driver\'s SCRAM error; a ~/.pgpass others can read is named; ~/.pgpass and PGPASSWORD work, without the driver\'s deprecation warning', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    const { url, port } = await passwordRole();
    const env = { ...home(), GEO_STORE_URL: url };
    for (const argv of [['store', 'status'], ['history'], ['store', 'migrate', '--store', url]]) {
      const r = await spawnGeo(argv, { env });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: the team store postgres:\/\/geo_pw@localhost\/geo\?\S+ asked for a password and none was given: the URL has none, PGPASSWORD is not set, and \S+\.pgpass does not exist — hint: put it in ~\/\.pgpass .*PGPASSWORD.*geo config set store/)]);
      expect(r.stderr).not.toMatch(/SASL|SCRAM|client password/);
    }

    const pgpass = join(env.HOME, '.pgpass');
    writeFileSync(pgpass, `# the team store\notherhost:5432:geo:geo_pw:nope\nlocalhost:${port}:geo:geo_pw:${SECRET.replace(/:/g, '\\:')}\n`);
    chmodSync(pgpass, 0o644);
    const open = await spawnGeo(['history'], { env });
    expect(open.code).toBe(3);
    expect(open.stderr).toContain(`${pgpass} is ignored: others can read it (chmod 600 ${pgpass})`);

    chmodSync(pgpass, 0o600);
    const read = await spawnGeo(['history', '--json'], { env });
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout.trim()).toBe('[]');
    expect(read.stderr).not.toMatch(/deprecat|pgpass|warning/i);

    const viaEnv = await spawnGeo(['store', 'status', '--json'], { env: { ...home(), GEO_STORE_URL: url, PGPASSWORD: SECRET } });
    expect(viaEnv.code, viaEnv.stderr).toBe(0);
    expect(viaEnv.stderr).toBe('');

    const wrong = await spawnGeo(['store', 'status'], { env: { ...home(), GEO_STORE_URL: url, PGPASSWORD: 'not-it' } });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toMatch(/refused the login .*password authentication failed/);
  }, 90_000);

  it('in --store URL on the command line: it works, and says once that any user of the machine can read it, naming GEO_STORE_URL and geo config set store; never the password', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    const { withPassword } = await passwordRole();
    const r = await spawnGeo(['--store', withPassword, 'history', '--json'], { env: home() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('[]');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toEqual([expect.stringMatching(/^warning: the store URL's password is on the command line \(--store\), where any user of this machine can read it; put the URL in GEO_STORE_URL, or save it with geo config set store/)]);
    expect(r.stderr).not.toContain('S3cret');
    // The same URL from the environment is not on the command line: nothing to say.
    const quiet = await spawnGeo(['history', '--json'], { env: { ...home(), GEO_STORE_URL: withPassword } });
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
  }, 60_000);

  it('a password file line matches as libpq matches it: * for any field, \\: and \\\\ escaped, a Unix socket as localhost', () => {
    const file = ['# comment', 'db.example.org:5432:geo:ana:first', '*:*:geo:bo:a\\:b\\\\c', 'localhost:6432:*:*:sock'].join('\n');
    expect(passwordFromFile(file, { host: 'db.example.org', port: 5432, database: 'geo', user: 'ana' })).toBe('first');
    expect(passwordFromFile(file, { host: 'db.example.org', port: 5433, database: 'geo', user: 'ana' })).toBeUndefined();
    expect(passwordFromFile(file, { host: 'elsewhere', port: '7', database: 'geo', user: 'bo' })).toBe('a:b\\c');
    expect(passwordFromFile(file, { host: '/run/postgresql', port: 6432, database: 'x', user: 'y' })).toBe('sock');
    expect(passwordFromFile(file, { host: 'db.example.org', database: 'geo', user: 'carol' })).toBeUndefined();
  });
});
