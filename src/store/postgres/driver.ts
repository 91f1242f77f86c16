/**
 * node-postgres (`pg`, pure JavaScript: pg-native is never loaded), required on first use of a
 * postgres:// URL only: a geo that never sees one never loads it. Its errors become one StoreError
 * line that names the server with its password masked and says what to do; a server that cannot be
 * reached is `unreachable` (exit 6), whose hint names `--store local`.
 */
import { createRequire } from 'node:module';
import { Socket } from 'node:net';
import type { ClientConfig, Pool, PoolClient, PoolConfig } from 'pg';
import { StoreError } from '../../errors.js';
import { maskStoreUrl } from '../../config/team-store-url.js';
import { type LoginParams, passwordFileSource } from './password.js';
import { type VersionGate, gatedClient } from './version-gate.js';
import type { Env } from '../../config/env.js';

type PgModule = typeof import('pg');
let pg: PgModule | undefined;

function loadPg(): PgModule {
  return (pg ??= createRequire(import.meta.url)(typeof __GEO_PG__ === 'string' ? __GEO_PG__ : 'pg') as PgModule);
}

/**
 * In dist/cli.js, "./pg.cjs": node-postgres and its packages bundled into one file (src/build/build.ts),
 * so a team-store command does not resolve and read some forty files of node_modules. From source
 * (tsx), undefined: the package itself.
 */
declare const __GEO_PG__: string | undefined;

/** bigint (int8) and numeric as JavaScript numbers: counts and ms times stay far below 2^53. */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 || oid === 1700) return (v: string) => Number(v);
    return loadPg().types.getTypeParser(oid, format as 'text');
  },
};

/** How long a connection may take before the store counts as unreachable. */
export const CONNECT_TIMEOUT_MS = 5000;


/**
 * node-postgres's Client, with the password file read by geo (password.ts) when neither the URL
 * nor PGPASSWORD gave one: pg calls a password function only when the server asks for a password.
 */
function clientFor(env: Env): typeof import('pg').Client {
  const fromFile = passwordFileSource(env);
  return class extends loadPg().Client {
    constructor(config?: ClientConfig) {
      super(config);
      const self = this as unknown as { password: unknown };
      if (self.password === null || self.password === undefined || self.password === '') self.password = (p: LoginParams) => fromFile(p);
      // A connection the server drops while a command holds it between two queries (a server
      // stopped mid-batch) emits 'error' with no query to fail: the pool listens only to idle ones,
      // and an unheard 'error' would end geo with a stack. The next query on it fails, and says so.
      this.on('error', () => undefined);
    }
  };
}

/** The sockets each pool opened, for endPool(). */
const socketsOf = new WeakMap<Pool, Set<Socket>>();

/**
 * A pool on url (its password from the URL, PGPASSWORD or the password file: clientFor); given a
 * gate, each command's first query carries the schema check (version-gate.ts).
 */
export function openPool(url: string, max = 4, gate?: VersionGate, env: Env = {}): Pool {
  const { Pool: PoolCtor } = loadPg();
  const sockets = new Set<Socket>();
  // pg's own choice (lib/stream.js: a new net.Socket, upgraded to TLS when sslmode asks), made
  // here so that endPool() can let go of them.
  const stream = () => {
    const s = new Socket();
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
    return s;
  };
  const Client = clientFor(env);
  const config: PoolConfig = { connectionString: url, max, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, idleTimeoutMillis: 10_000, types, application_name: 'geo-cli', stream, Client };
  if (gate) Object.assign(config, { Client: gatedClient(Client, gate), pipeline: true });
  const pool = new PoolCtor(config);
  socketsOf.set(pool, sockets);
  // An idle connection the server dropped: the next query reconnects; never an uncaught error.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * Ends the pool: each connection says goodbye (Terminate) and closes its side. pool.end() resolves
 * then, but each socket kept the process alive until the server closed its side as well, after
 * its backend exited: 15-19 ms at the end of every team-store command on the bench's VM, for
 * nothing geo needs (every transaction was committed before). The sockets are unref'd so the
 * process ends at once; the kernel finishes the goodbye.
 */
export async function endPool(pool: Pool): Promise<void> {
  await pool.end().catch(() => undefined);
  for (const s of socketsOf.get(pool) ?? []) s.unref();
}

function passwordOf(url: string): string | undefined {
  try {
    const p = new URL(url).password;
    return p ? decodeURIComponent(p) : undefined;
  } catch {
    return undefined;
  }
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'ENOENT', 'EPIPE', '57P01', '57P03', '08001', '08006', '08004']);

/** The driver's error as one line a user can act on, the password never in it. */
export function pgError(err: unknown, url: string): StoreError {
  if (err instanceof StoreError) return err;
  const where = maskStoreUrl(url);
  const e = err as { code?: string; message?: string };
  const code = String(e?.code ?? '');
  let msg = String(e?.message ?? err).split(url).join(where);
  const password = passwordOf(url);
  if (password) msg = msg.split(password).join('***');
  // No password anywhere (password.ts): said in words, not as the driver's SCRAM error.
  if (code === 'no_password' || /client password must be a string/.test(msg)) {
    return new StoreError(`the team store ${where} asked for a password and none was given${code === 'no_password' ? `: ${msg}` : ''}`, 'denied',
      "put it in ~/.pgpass (HOST:PORT:DATABASE:USER:PASSWORD, chmod 600), set PGPASSWORD, or save the URL with it: geo config set store 'postgres://USER:PASSWORD@HOST/DB?…' (the password goes to the OS keyring)");
  }
  // Before the connection errors: a refused TLS handshake is not a network fault.
  if (/self.signed|certificate|SSL|TLS/i.test(msg)) return new StoreError(`the team store ${where}: TLS failed (${msg})`, 'unreachable', 'check sslmode and sslrootcert=FILE (the CA that signed the server\'s certificate)');
  if (UNREACHABLE.has(code) || /timeout|terminated|Connection terminated|connect/i.test(msg) && !code) {
    return new StoreError(`the team store ${where} cannot be reached (${msg})`, 'unreachable', 'check the network and the server, or run with --store local to use this machine\'s own store for this run');
  }
  // pg_hba.conf turned a connection without TLS away (a hostssl-only server): the password is not the problem.
  if (code === '28000' && /no encryption/.test(msg)) return new StoreError(`the team store ${where} takes TLS connections only (${msg})`, 'unreachable', 'add sslmode=verify-full&sslrootcert=FILE (the CA that signed the server\'s certificate) to the URL');
  if (code === '28P01' || code === '28000') return new StoreError(`the team store ${where} refused the login (${msg})`, 'denied', 'check the user and its password (geo config set store, ~/.pgpass or PGPASSWORD); --store local uses this machine\'s store');
  // insufficient_privilege: the role's grants (only the admin sets the budget, migrates, deletes).
  if (code === '42501') return new StoreError(`the team store ${where} refused this to the role logged in (${msg}); nothing was changed`, 'denied', 'only the team store\'s admin may do this; if analysts need it, the admin gives the grants in docs/store.md "Setting it up"');
  if (code === '42P01' || code === '42883') return new StoreError(`the team store ${where} has no geo schema yet (${msg})`, 'other', 'an admin runs: geo store migrate --store URL');
  return new StoreError(`the team store ${where}: ${msg}`, 'other');
}

/** fn inside BEGIN … COMMIT on one connection (ROLLBACK on any error), the connection handed back. */
export async function inTx<T>(pool: Pool, fn: (c: PoolClient) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    const out = await fn(c);
    await c.query('COMMIT');
    return out;
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    c.release();
  }
}
