/**
 * A real PostgreSQL for tests and benches (issue 32): Debian's binaries (initdb, pg_ctl; found
 * under /usr/lib/postgresql/<version>/bin or PG_BIN), a cluster in a temporary folder listening on
 * a Unix socket there (and on a loopback port only when asked: bench/team.mjs), started as an
 * unprivileged user when the tests run as root (PostgreSQL refuses root: the folder is given to
 * `nobody` and the binaries run through setpriv), stopped and removed by stop().
 *
 * Two roles, as docs/store.md "Setting it up" sets them up: geo_admin (owns the database, runs `geo store
 * migrate`) and geo_analyst (no DDL: the grants an analyst needs and no more). Where no cluster can
 * be started, startPostgres() says why (`skip`), and the tests skip with that reason.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll } from 'vitest';
import { join } from 'node:path';
import pg from 'pg';

export interface Postgres {
  /** The socket folder (host= in the URL). */
  dir: string;
  /** An admin's URL (DDL allowed: geo store migrate). */
  adminUrl: string;
  /** An analyst's URL (the least privileges docs/store.md documents). */
  analystUrl: string;
  /** A loopback TCP URL for the analyst, when started with { tcp: true }. */
  tcpUrl?: string;
  /** The socket URL of any role (one role per analyst: addRole). */
  urlOf(role: string): string;
  /** A login role of one analyst, granted geo_analyst (docs/store.md: one role per analyst). */
  addRole(role: string): string;
  /** psql-like one-off SQL as the admin (tests' outside observer). */
  sql(text: string): string;
  /** The server stopped as a crash would (pg_ctl stop -m immediate), its folder kept... */
  halt(): void;
  /** ...and started again on the same socket and port. */
  restart(): void;
  stop(): void;
}

function binDir(): string | undefined {
  if (process.env.PG_BIN && existsSync(join(process.env.PG_BIN, 'initdb'))) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : undefined;
}

/**
 * The analysts' grants, exactly as docs/store.md "Setting it up" gives them: run by the admin after
 * `geo store migrate` (they name geo's tables). What the commands need and no more: no DELETE,
 * no UPDATE of the budget, spend, schema_version or custody, no DDL.
 */
export const ANALYST_GRANTS = `
GRANT CONNECT ON DATABASE geo TO geo_analyst;
GRANT USAGE ON SCHEMA public TO geo_analyst;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO geo_analyst;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO geo_analyst;
GRANT INSERT ON results, results_search, claims, batches, file_hashes, cases, case_results, custody, timestamps, embedded, kept_files, perceptual, pdq_index, pdq_scanned, copy_links TO geo_analyst;
GRANT UPDATE ON claims, batches, file_hashes, timestamps, pdq_scanned TO geo_analyst;
GRANT UPDATE (record) ON results TO geo_analyst;
GRANT UPDATE (custody_entries, custody_head) ON cases TO geo_analyst;
GRANT EXECUTE ON FUNCTION geo_budget_now(), geo_budget_reserve(text, integer, text, text, text), geo_budget_finish(text, integer, text) TO geo_analyst;
`;

/** An empty schema for a test: then `geo store migrate` as the admin, then ANALYST_GRANTS (freshStore does all three). */
export const RESET_SCHEMA = 'DROP SCHEMA public CASCADE; CREATE SCHEMA public AUTHORIZATION geo_admin; GRANT USAGE ON SCHEMA public TO geo_analyst;';

/** The team store as an admin sets it up: an empty schema, migrated by the admin, the analysts' grants given. */
export async function freshStore(pg: Postgres): Promise<void> {
  pg.sql(RESET_SCHEMA);
  const { migrateStore } = await import('../../src/store/index.js');
  await migrateStore(pg.adminUrl);
  pg.sql(ANALYST_GRANTS);
}

export interface PostgresOptions {
  /** Listen on a loopback port as well (127.0.0.1; with tls, 127.0.0.2 too). */
  tcp?: boolean;
  /**
   * TLS on TCP, and only TLS (hostssl; hostnossl rejected): a CA made here with openssl signs a
   * certificate for IP 127.0.0.1 alone (caFile), so 127.0.0.2, the same server, is a name mismatch.
   */
  tls?: boolean;
}

/** The CA that signed the server's certificate, with { tls: true }. */
export type TlsPostgres = Postgres & { caFile: string; port: string };

/** A CA and a server certificate for IP 127.0.0.1 signed by it, in `dir` (openssl, as the server's owner reads them). */
function makeCertificates(dir: string, owner: number | undefined): { ca: string; cert: string; key: string } {
  const at = (f: string) => join(dir, f);
  const ssl = (...args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('ca.key'), '-out', at('ca.pem'), '-days', '2', '-subj', '/CN=geo test CA');
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('server.key'), '-out', at('server.csr'), '-subj', '/CN=127.0.0.1');
  writeFileSync(at('san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  ssl('x509', '-req', '-in', at('server.csr'), '-CA', at('ca.pem'), '-CAkey', at('ca.key'), '-CAcreateserial', '-out', at('server.pem'), '-days', '2', '-extfile', at('san.ext'));
  chmodSync(at('server.key'), 0o600);
  if (owner !== undefined) for (const f of ['server.key', 'server.pem']) chownSync(at(f), owner, owner);
  return { ca: at('ca.pem'), cert: at('server.pem'), key: at('server.key') };
}

export function startPostgres(o: PostgresOptions = {}): Postgres | { skip: string } {
  const bin = binDir();
  if (!bin) return { skip: 'no PostgreSQL binaries (initdb, pg_ctl): install Debian\'s postgresql package, or set PG_BIN' };
  const dir = mkdtempSync(join(tmpdir(), 'geo-pg-'));
  const root = process.getuid?.() === 0;
  // PostgreSQL never runs as root: as root, the cluster belongs to nobody.
  const as = (cmd: string, args: string[]) => (root ? ['setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', '--', join(bin, cmd), ...args]] : [join(bin, cmd), args]) as [string, string[]];
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = as(cmd, args);
    const r = spawnSync(file, argv, { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' }, timeout: 60_000 });
    if (r.status !== 0) throw new Error(`${cmd} failed: ${(r.stderr || r.stdout || String(r.error)).trim().slice(0, 400)}`);
    return r.stdout;
  };
  try {
    if (root) chownSync(dir, 65534, 65534);
    const data = join(dir, 'data');
    run('initdb', ['-D', data, '-U', 'geo_admin', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    const port = o.tcp ? String(20000 + Math.floor(Math.random() * 20000)) : '5432';
    const listen = o.tcp ? (o.tls ? '127.0.0.1,127.0.0.2' : '127.0.0.1') : '';
    let tlsFlags = '';
    let caFile: string | undefined;
    if (o.tls) {
      const c = makeCertificates(dir, root ? 65534 : undefined);
      caFile = c.ca;
      tlsFlags = ` -c ssl=on -c ssl_cert_file=${c.cert} -c ssl_key_file=${c.key}`;
      writeFileSync(join(data, 'pg_hba.conf'), 'local all all trust\nhostssl all all 127.0.0.0/8 trust\nhostnossl all all 127.0.0.0/8 reject\n');
    }
    const start = () => run('pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '60', '-o', `-k ${dir} -p ${port} -c listen_addresses='${listen}' -c fsync=off -c full_page_writes=off${tlsFlags}`, 'start']);
    start();
    const psql = (db: string, text: string) => run('psql', ['-h', dir, '-p', port, '-U', 'geo_admin', '-d', db, '-v', 'ON_ERROR_STOP=1', '-qAtc', text]);
    psql('postgres', 'CREATE DATABASE geo');
    psql('geo', 'CREATE ROLE geo_analyst LOGIN; GRANT CONNECT ON DATABASE geo TO geo_analyst; GRANT USAGE ON SCHEMA public TO geo_analyst;');
    const url = (user: string) => `postgres://${user}@localhost/geo?host=${encodeURIComponent(dir)}&port=${port}`;
    let stopped = false;
    return {
      dir,
      adminUrl: url('geo_admin'),
      analystUrl: url('geo_analyst'),
      urlOf: url,
      addRole(role) {
        psql('geo', `CREATE ROLE ${role} LOGIN IN ROLE geo_analyst`);
        return url(role);
      },
      ...(o.tcp ? { tcpUrl: `postgres://geo_analyst@127.0.0.1:${port}/geo` } : {}),
      ...(caFile ? { caFile, port } : {}),
      sql: (text) => psql('geo', text),
      halt: () => run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']),
      restart: start,
      stop() {
        if (stopped) return;
        stopped = true;
        try {
          run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
        } catch {
          /* already gone */
        }
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    try {
      execFileSync(...as('pg_ctl', ['-D', join(dir, 'data'), '-m', 'immediate', 'stop']), { stdio: 'ignore' });
    } catch {
      /* never started */
    }
    rmSync(dir, { recursive: true, force: true });
    return { skip: `PostgreSQL could not be started here (${err instanceof Error ? err.message : String(err)})` };
  }
}

/**
 * One PostgreSQL for a test file: started before its tests, stopped after them. `pg` is undefined
 * where none could start, and `skip` then says why (each test skips with that reason).
 */
export function postgresPerFile(o: PostgresOptions = {}): { pg?: Postgres; skip: string } {
  const db: { pg?: Postgres; skip: string } = { skip: '' };
  beforeAll(() => {
    const started = startPostgres(o);
    if ('skip' in started) db.skip = started.skip;
    else db.pg = started;
  }, 120_000);
  afterAll(() => db.pg?.stop());
  return db;
}

/**
 * One statement sent by node-postgres as the role of `url`, as any client of that role could send
 * it (psql, a script): its rows, or the server's refusal (SQLSTATE and message).
 */
export async function asRole(url: string, text: string, params: unknown[] = []): Promise<{ ok: true; rows: Array<Record<string, unknown>> } | { ok: false; code: string; message: string }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return { ok: true, rows: (await c.query(text, params)).rows };
  } catch (err) {
    const e = err as { code?: string; message?: string };
    return { ok: false, code: String(e.code), message: String(e.message) };
  } finally {
    await c.end();
  }
}
