/**
 * PgBouncer in front of a test PostgreSQL (test/helpers/postgres.ts), in transaction pooling mode:
 * what a team with many analysts puts between geo and its server (docs/store.md "Many analysts: a
 * pooler"). Debian's `pgbouncer` binary, a config in a temporary folder, the server reached on its
 * Unix socket, clients on a loopback port; run as `nobody` when the tests run as root (PgBouncer
 * refuses root, as PostgreSQL does). Where it cannot start, startPgBouncer() says why (`skip`).
 */
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Postgres } from './postgres.js';

export interface PgBouncer {
  /** The analyst's URL through the pooler (TCP, loopback). */
  analystUrl: string;
  port: string;
  stop(): void;
}

const BIN = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((p) => existsSync(p));

/** The socket folder and port of `pg` (its adminUrl holds both). */
function serverOf(pg: Postgres): { dir: string; port: string } {
  const u = new URL(pg.adminUrl);
  return { dir: u.searchParams.get('host')!, port: u.searchParams.get('port')! };
}

const listening = (port: string) => new Promise<boolean>((resolve) => {
  const s = createConnection({ host: '127.0.0.1', port: Number(port) }, () => {
    s.destroy();
    resolve(true);
  });
  s.on('error', () => resolve(false));
});

export async function startPgBouncer(pg: Postgres): Promise<PgBouncer | { skip: string }> {
  if (!BIN) return { skip: 'no pgbouncer binary: install Debian\'s pgbouncer package' };
  const dir = mkdtempSync(join(tmpdir(), 'geo-pgbouncer-'));
  const root = process.getuid?.() === 0;
  const { dir: socketDir, port: serverPort } = serverOf(pg);
  const port = String(20000 + Math.floor(Math.random() * 20000));
  const ini = join(dir, 'pgbouncer.ini');
  writeFileSync(ini, [
    '[databases]',
    `geo = host=${socketDir} port=${serverPort} dbname=geo`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${join(dir, 'users.txt')}`,
    'pool_mode = transaction',
    'default_pool_size = 8',
    `logfile = ${join(dir, 'log')}`,
    `pidfile = ${join(dir, 'pid')}`,
    '',
  ].join('\n'));
  writeFileSync(join(dir, 'users.txt'), '"geo_analyst" ""\n"geo_admin" ""\n');
  if (root) for (const f of ['', 'pgbouncer.ini', 'users.txt']) chownSync(join(dir, f), 65534, 65534);
  const argv = root ? ['setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', '--', BIN, '-d', ini]] : [BIN, ['-d', ini]];
  const r = spawnSync(argv[0] as string, argv[1] as string[], { encoding: 'utf8', timeout: 30_000 });
  const stop = () => {
    try {
      process.kill(Number(readFileSync(join(dir, 'pid'), 'utf8')), 'SIGTERM');
    } catch {
      /* never started, or gone */
    }
    rmSync(dir, { recursive: true, force: true });
  };
  if (r.status !== 0) {
    stop();
    return { skip: `pgbouncer could not be started here (${(r.stderr || r.stdout || String(r.error)).trim().slice(0, 300)})` };
  }
  for (let i = 0; i < 100 && !(await listening(port)); i++) await new Promise((res) => setTimeout(res, 50));
  if (!(await listening(port))) {
    const log = existsSync(join(dir, 'log')) ? readFileSync(join(dir, 'log'), 'utf8').trim().split('\n').slice(-3).join(' / ') : '';
    stop();
    return { skip: `pgbouncer did not listen on 127.0.0.1:${port} (${log})` };
  }
  return { analystUrl: `postgres://geo_analyst@127.0.0.1:${port}/geo`, port, stop };
}

/**
 * A pooler for the file's tests in front of `db`'s server (postgresPerFile), started before them and
 * stopped after; `it` unset, and `skip` saying why, where it cannot start.
 */
export function pgbouncerPerFile(db: { pg?: Postgres }): { it?: PgBouncer; skip: string } {
  const pooler: { it?: PgBouncer; skip: string } = { skip: '' };
  beforeAll(async () => {
    if (!db.pg) return;
    const started = await startPgBouncer(db.pg);
    if ('skip' in started) pooler.skip = started.skip;
    else pooler.it = started;
  }, 60_000);
  afterAll(() => pooler.it?.stop());
  return pooler;
}
