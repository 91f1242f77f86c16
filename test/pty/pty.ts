/**
 * Drives the built binary in a pseudo-terminal (test/pty/run_in_pty.py), the way a person at a terminal
 * would: wait for a prompt on the screen, type, press Enter. stdout and stderr share the screen.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CODE_CACHE_DIR, GEO_BIN } from '../helpers/run-cli.js';

const PTY_PY = new URL('./run_in_pty.py', import.meta.url).pathname;
const DIST = new URL('../../dist/cli.js', import.meta.url).pathname;

const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(\u0007|\u001b\\)|\u001b[()][0-9A-B]|\u001b[=>]/g;
export const stripAnsi = (s: string) => s.replace(ANSI, '');

export const KEY = { enter: '\r', down: '\u001b[B', ctrlC: '\u0003' };

export interface PtySession {
  /** Keystrokes into the terminal. */
  type(text: string): void;
  /** Resolves once the screen (ANSI stripped) matches; rejects with the screen after timeoutMs. */
  waitFor(pattern: RegExp | string, timeoutMs?: number): Promise<void>;
  /** Everything shown so far, raw (with escape sequences) and stripped. */
  raw(): string;
  screen(): string;
  exit: Promise<number>;
}

export function builtBinaryOrThrow(): void {
  if (!existsSync(DIST)) throw new Error('dist/cli.js is missing: run `npm run build` before the pty tests');
}

/**
 * `stdoutFile`: geo's stdout goes to that file (`geo … > FILE`), stderr stays on the terminal, as in
 * the README's `geo locate DIR > results.ndjson`.
 */
export function spawnGeoInPty(argv: string[], env: Record<string, string | undefined>, size = { columns: 100, rows: 30 }, opts: { stdoutFile?: string } = {}): PtySession {
  const geo = [process.execPath, GEO_BIN, ...argv];
  const command = opts.stdoutFile === undefined ? geo : ['sh', '-c', 'f="$1"; shift; exec "$@" > "$f"', 'sh', opts.stdoutFile, ...geo];
  const child: ChildProcessWithoutNullStreams = spawn('python3', [PTY_PY, '--size', `${size.columns}x${size.rows}`, '--', ...command], {
    env: { TERM: 'xterm-256color', PATH: process.env.PATH, PYTHONDONTWRITEBYTECODE: '1', GEO_CACHE_DIR: CODE_CACHE_DIR, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let exited = false;
  const waiters = new Set<() => void>();
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString('utf8');
    for (const w of [...waiters]) w();
  });
  child.stderr.on('data', (c: Buffer) => (out += `[pty.py] ${c.toString('utf8')}`));
  const exit = new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      exited = true;
      resolve(code ?? -1);
      for (const w of [...waiters]) w();
    });
  });
  return {
    type: (text) => child.stdin.write(text),
    raw: () => out,
    screen: () => stripAnsi(out),
    exit,
    waitFor(pattern, timeoutMs = 20_000) {
      const matches = () => (typeof pattern === 'string' ? stripAnsi(out).includes(pattern) : pattern.test(stripAnsi(out)));
      return new Promise<void>((resolve, reject) => {
        if (matches()) return resolve();
        const timer = setTimeout(() => {
          waiters.delete(check);
          child.kill();
          reject(new Error(`timed out waiting for ${String(pattern)}; screen:\n${stripAnsi(out)}`));
        }, timeoutMs);
        const check = () => {
          const ok = matches();
          if (!ok && !exited) return;
          clearTimeout(timer);
          waiters.delete(check);
          if (ok) resolve();
          else reject(new Error(`exited before ${String(pattern)} appeared; screen:\n${stripAnsi(out)}`));
        };
        waiters.add(check);
      });
    },
  };
}
