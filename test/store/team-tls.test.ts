/**
 * A team store over TLS (issue 32, docs/store.md "A team store": `sslmode=verify-full` with
 * `sslrootcert=FILE` checks the server's certificate and its name). A real PostgreSQL that takes
 * TCP connections over TLS only (test/helpers/postgres.ts { tls: true }: hostssl, a CA made with
 * openssl, a certificate for 127.0.0.1 alone; the same server answers on 127.0.0.2, whose name the
 * certificate does not carry). Skipped, with the reason, where no cluster starts.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
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
});
