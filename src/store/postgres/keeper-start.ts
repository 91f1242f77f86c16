/**
 * The geo side of the connection keeper (keeper.ts): where a store's keeper listens, how long it
 * stays (GEO_STORE_KEEP), and starting one. A command uses a keeper it finds; a command that finds
 * none connects directly, as before, and starts one for the commands after it, so the first
 * command costs what it always did and the next ones find a warm backend.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stateDir } from '../../config/paths.js';
import { packageRoot } from '../../files/package-root.js';
import { parseDuration } from '../../flags.js';

type Env = Readonly<Record<string, string | undefined>>;
import { KEEPER_PID, KEEPER_STARTING, keeperSocket } from './keeper.js';

export const DEFAULT_KEEP_MS = 5 * 60_000;

/** Where a store's keeper is, how long it stays, and start(): a keeper launched for it. */
export interface KeeperPlan {
  dir: string;
  lingerMs: number;
  start(): void;
}

/** GEO_STORE_KEEP: how long a keeper stays after the last command (default 5m); 0 or off: none. */
export function keepMs(env: Env): number {
  const v = env.GEO_STORE_KEEP?.trim().toLowerCase();
  if (v === undefined || v === '') return DEFAULT_KEEP_MS;
  if (v === '0' || v === 'off' || v === 'no' || v === 'false') return 0;
  return parseDuration(v, 'GEO_STORE_KEEP', 'how long geo keeps team-store connections open after a command, such as 5m (the default); 0 keeps none') ?? DEFAULT_KEEP_MS;
}

/**
 * One folder per user and login: a hash of the store URL (it may hold the password) and of what
 * the keeper's login reads of the environment (keeperEnv: PGUSER, PGPASSWORD …), so a run as
 * another database user, or with another password, never gets a backend logged in for the first.
 * In geo's state folder; a Unix socket's path is at most 107 bytes, so a deep state folder gives
 * way to one in the temporary folder, named by the user's id. The keeper makes it 0700 (keeper.ts).
 */
export function keeperDir(env: Env, url: string): string {
  const id = createHash('sha256').update(JSON.stringify([url, Object.entries(keeperEnv(env)).sort()])).digest('hex').slice(0, 16);
  const dir = join(stateDir(env), 'keepers', id);
  if (Buffer.byteLength(keeperSocket(dir)) <= 100) return dir;
  return join(tmpdir(), `geo-keepers-${userInfo().uid}`, id);
}

/** The pid in a keeper's folder (its pid file), for `geo store status`. */
export function keeperPid(dir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dir, KEEPER_PID), 'utf8'));
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** The keeper's socket when one is there to try (a stale one is found out on connect, index.ts). */
export function keptAt(plan: KeeperPlan | undefined): string | undefined {
  return plan && existsSync(keeperSocket(plan.dir)) ? plan.dir : undefined;
}

/**
 * What the keeper's login reads of the environment, and nothing else: libpq's variables (PGPASSWORD,
 * PGSSLROOTCERT …, as node-postgres reads them), HOME (~/.pgpass) and the user's name, the CA
 * settings TLS honours. Never GEO_API_KEY: a process that lives for minutes holds no API key.
 */
export function keeperEnv(env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v !== undefined && (/^PG[A-Z_]+$/.test(k) || ['HOME', 'USER', 'LOGNAME', 'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR'].includes(k))) out[k] = v;
  }
  return out;
}

/**
 * Starts a keeper, detached, unless another process started one in the last ten seconds (a lock
 * file made exclusively: eight `geo locate` at once start one keeper, not eight). The URL, password
 * included, goes to it on stdin, never in argv.
 */
export function keeperPlan(env: Env, url: string, execPath: string): KeeperPlan | undefined {
  const lingerMs = keepMs(env);
  if (lingerMs === 0) return undefined;
  const dir = keeperDir(env, url);
  return {
    dir,
    lingerMs,
    start() {
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        const lock = join(dir, KEEPER_STARTING);
        try {
          writeFileSync(lock, '', { flag: 'wx', mode: 0o600 });
        } catch {
          if (Date.now() - statSync(lock).mtimeMs < 10_000) return;
          rmSync(lock, { force: true });
          writeFileSync(lock, '', { flag: 'wx', mode: 0o600 });
        }
        const helper = fileURLToPath(new URL('bin/store-keeper.js', packageRoot()));
        const child = spawn(execPath, [helper], { detached: true, stdio: ['pipe', 'ignore', 'ignore'], env: keeperEnv(env), windowsHide: true });
        child.on('error', () => undefined);
        child.stdin?.on('error', () => undefined);
        child.stdin?.end(JSON.stringify({ url, dir, lingerMs }));
        child.unref();
      } catch {
        // A keeper is a speed-up: a folder that cannot be made leaves geo connecting directly.
      }
    },
  };
}
