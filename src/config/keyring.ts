/**
 * The OS keyring, reached through bin/keyring-helper.js in a child process that is killed when it
 * does not answer within KEYRING_TIMEOUT_MS (why a child: see that file). Nothing here is loaded,
 * and no child is started, unless a key is read from or written to the keyring; a profile whose
 * key is in the file, GEO_API_KEY and --sandbox never start one (`geo credits` starts as fast as it
 * did). A call costs about 40 ms (a Node start and the binding; bench/ has the figures).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { platform } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../files/package-root.js';
import type { Env } from './env.js';

/** The keyring's service name for every geo key; the account names the profile (key-storage.ts). */
export const KEYRING_SERVICE = 'geo-cli';
export const KEYRING_TIMEOUT_MS = 3000;

/** The keyring did not answer, or there is none: `why` says which, in a few words. */
export class KeyringUnavailable extends Error {
  override readonly name = 'KeyringUnavailable';
  constructor(readonly why: string) {
    super(why);
  }
}

export type KeyringOp = { op: 'get' | 'delete' | 'probe'; account: string } | { op: 'set'; account: string; secret: string };
export type KeyringResult = { ok: true; value?: string | boolean | null } | { ok: false; error: string };

export interface KeyringDeps {
  env: Env;
  /** The Node that runs geo (process.execPath, from the Runtime). */
  execPath: string;
  timeoutMs?: number;
}

/**
 * On Linux the Secret Service is a D-Bus service: without a session bus there is none, and libdbus
 * would only say so after starting. Its own lookup: DBUS_SESSION_BUS_ADDRESS, else the bus socket
 * in $XDG_RUNTIME_DIR (autolaunch is compiled out of the binding).
 */
function noSessionBus(env: Env): string | undefined {
  if (platform() !== 'linux' || env.DBUS_SESSION_BUS_ADDRESS) return undefined;
  if (env.XDG_RUNTIME_DIR && existsSync(join(env.XDG_RUNTIME_DIR, 'bus'))) return undefined;
  return 'no D-Bus session bus for the Secret Service (DBUS_SESSION_BUS_ADDRESS is not set)';
}

/** Runs the operations in one child; throws KeyringUnavailable when no keyring answers in time. */
export async function keyringCall(deps: KeyringDeps, ops: readonly KeyringOp[]): Promise<KeyringResult[]> {
  const missing = noSessionBus(deps.env);
  if (missing) throw new KeyringUnavailable(missing);
  const helper = fileURLToPath(new URL('bin/keyring-helper.js', packageRoot()));
  const timeoutMs = deps.timeoutMs ?? KEYRING_TIMEOUT_MS;
  const answer = await new Promise<string>((resolve, reject) => {
    const child = spawn(deps.execPath, [helper], { env: deps.env, stdio: ['pipe', 'pipe', 'ignore'], windowsHide: true });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new KeyringUnavailable(`the OS keyring did not answer within ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (c: string) => (out += c));
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new KeyringUnavailable(`the keyring helper could not start (${(err as NodeJS.ErrnoException).code ?? err.message})`));
    });
    child.on('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
    // A killed child closes stdin under us: EPIPE is the timeout's business, not an error to throw.
    child.stdin.on('error', () => undefined);
    child.stdin.end(JSON.stringify({ service: KEYRING_SERVICE, ops }));
  });
  let parsed: { results?: KeyringResult[]; unavailable?: string };
  try {
    parsed = JSON.parse(answer) as typeof parsed;
  } catch {
    throw new KeyringUnavailable('the keyring helper gave no answer');
  }
  if (parsed.unavailable !== undefined) throw new KeyringUnavailable(oneLine(parsed.unavailable));
  if (!Array.isArray(parsed.results) || parsed.results.length !== ops.length) throw new KeyringUnavailable('the keyring helper gave no answer');
  return parsed.results.map((r) => (r.ok ? r : { ok: false, error: oneLine(r.error) }));
}

/** Binding messages can run over several lines; errors here are one line. */
const oneLine = (s: string) => String(s).replace(/\s+/g, ' ').trim().slice(0, 300);
