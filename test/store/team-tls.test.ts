/**
 * A team store over TLS (issue 32, docs/store.md "A team store": `sslmode=verify-full` with
 * `sslrootcert=FILE` checks the server's certificate and its name). A real PostgreSQL that takes
 * TCP connections over TLS only (test/helpers/postgres.ts { tls: true }: hostssl, a CA made with
 * openssl, a certificate for 127.0.0.1 alone; the same server answers on 127.0.0.2, whose name the
 * certificate does not carry). The connection keeper logs in over TLS as geo does (src/store/postgres/keeper.ts).
 * Skipped, with the reason, where no cluster starts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ANALYST_GRANTS, type TlsPostgres, postgresPerFile } from '../helpers/postgres.js';
import { spawnGeo } from '../helpers/run-cli.js';

const db = postgresPerFile({ tcp: true, tls: true });
const dirs = () => ({ GEO_DATA_DIR: mkdtempSync(join(tmpdir(), 'geo-tls-data-')), GEO_STATE_DIR: mkdtempSync(join(tmpdir(), 'geo-tls-state-')), CI: '1' });

describe('a team store over TLS', () => {
  it('verify-full with the CA: locate and history go through; without TLS the server refuses; another CA or another name is a TLS failure (exit 6)', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    const pg = db.pg as TlsPostgres;
    const url = (host: string, query: string) => `postgres://geo_analyst@${host}:${pg.port}/geo${query}`;
    const verified = url('127.0.0.1', `?sslmode=verify-full&sslrootcert=${encodeURIComponent(pg.caFile)}`);
    expect((await spawnGeo(['store', 'migrate', '--store', pg.adminUrl], { env: dirs() })).code).toBe(0);
    pg.sql(ANALYST_GRANTS);

    const env = { ...dirs(), GEO_STORE_URL: verified };
    const located = await spawnGeo(['--sandbox', 'locate', 'sample:paris', '--json'], { env });
    expect(located.code, located.stderr).toBe(0);
    const listed = await spawnGeo(['history', '--json', 'input'], { env: { ...dirs(), GEO_STORE_URL: verified } });
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([{ input: expect.stringMatching(/paris\.jpg$/) }]);
    // The server took those over TLS: a connection without it is turned away (hostnossl reject).
    const plain = await spawnGeo(['store', 'status', '--store', url('127.0.0.1', '?sslmode=disable')], { env: dirs() });
    expect(plain.code).toBe(6);
    expect(plain.stderr).toMatch(/takes TLS connections only .*no encryption.*hint: add sslmode=verify-full&sslrootcert=FILE/s);

    // Another CA, which never signed this server: the certificate is not trusted.
    const other = join(mkdtempSync(join(tmpdir(), 'geo-tls-ca-')), 'other-ca.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${other}.key`, '-out', other, '-days', '2', '-subj', '/CN=another CA'], { stdio: 'ignore' });
    const otherCa = await spawnGeo(['store', 'status', '--store', url('127.0.0.1', `?sslmode=verify-full&sslrootcert=${encodeURIComponent(other)}`)], { env: dirs() });
    expect(otherCa.code).toBe(6);
    expect(otherCa.stderr).toMatch(/TLS failed .*sslrootcert/s);
    // The right CA, another name for the same server: verify-full checks the name too.
    const otherName = await spawnGeo(['store', 'status', '--store', url('127.0.0.2', `?sslmode=verify-full&sslrootcert=${encodeURIComponent(pg.caFile)}`)], { env: dirs() });
    expect(otherName.code).toBe(6);
    expect(otherName.stderr).toMatch(/TLS failed .*(altnames|does not match).*sslrootcert/s);
    expect(pg.sql('SELECT count(*) FROM results').trim()).toBe('1');
  }, 90_000);

  it('with the connection keeper: it logs in over TLS as geo would, and the next command is served by its backend (ssl true in pg_stat_ssl)', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    const pg = db.pg as TlsPostgres;
    const verified = `postgres://geo_analyst@127.0.0.1:${pg.port}/geo?sslmode=verify-full&sslrootcert=${encodeURIComponent(pg.caFile)}`;
    const state = mkdtempSync(join(tmpdir(), 'geo-tls-state-'));
    // One HOME for both commands, as on a person's machine: the keeper is per login, and HOME (~/.pgpass) is part of it.
    const env = { ...dirs(), HOME: mkdtempSync(join(tmpdir(), 'geo-tls-home-')), GEO_STATE_DIR: state, GEO_STORE_URL: verified, GEO_STORE_KEEP: '30s' };
    expect((await spawnGeo(['store', 'migrate', '--store', pg.adminUrl], { env: dirs() })).code).toBe(0);
    expect((await spawnGeo(['history'], { env })).code).toBe(0);
    const pidFile = () => join(state, 'keepers', readdirSync(join(state, 'keepers'))[0]!, 'keeper.pid');
    for (let i = 0; i < 100 && !(existsSync(join(state, 'keepers')) && existsSync(pidFile())); i++) await new Promise((r) => setTimeout(r, 50));
    const pid = Number(readFileSync(pidFile(), 'utf8'));
    try {
      const kept = "SELECT count(*) FROM pg_stat_activity a JOIN pg_stat_ssl s USING (pid) WHERE a.application_name = 'geo-cli (kept)' AND s.ssl";
      for (let i = 0; i < 50 && pg.sql(kept).trim() === '0'; i++) await new Promise((r) => setTimeout(r, 100));
      expect(pg.sql(kept).trim()).toBe('1');
      // One connection left for the role: the next command is served by the kept backend or not at all.
      pg.sql('ALTER ROLE geo_analyst CONNECTION LIMIT 1');
      const listed = await spawnGeo(['history', '--json', 'input'], { env });
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout)).toEqual([{ input: expect.stringMatching(/paris\.jpg$/) }]);
    } finally {
      pg.sql('ALTER ROLE geo_analyst CONNECTION LIMIT -1');
      process.kill(pid, 'SIGTERM');
    }
  }, 60_000);
});
