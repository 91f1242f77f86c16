/**
 * Runs the real CLI entry (src/cli.ts main) in-process with injected streams, TTY flags, env and
 * clock: the GitHub CLI way of testing commands. For the built binary, see spawnGeo().
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { main } from '../../src/cli.js';
import type { IO } from '../../src/output/io.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout as bytes, for binary formats (kmz); runCli only. */
  stdoutBytes?: Buffer;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  stdin?: string | Buffer;
  tty?: boolean | { stdin?: boolean; stdout?: boolean; stderr?: boolean };
  columns?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Ctrl-C: abort it while the command runs (default: never aborted). */
  signal?: AbortSignal;
}

/** A fresh, empty config folder for one test. */
export function tempConfigDir(): string {
  return mkdtempSync(join(tmpdir(), 'geo-test-'));
}

/** One "machine" of its own: a HOME with geo's config, data and state folders inside it. */
export function machineEnv(home = tempConfigDir()): { HOME: string; GEO_CONFIG_DIR: string; GEO_DATA_DIR: string; GEO_STATE_DIR: string } {
  return { HOME: home, GEO_CONFIG_DIR: join(home, 'config'), GEO_DATA_DIR: join(home, 'data'), GEO_STATE_DIR: join(home, 'state') };
}

export async function runCli(argv: string[], opts: RunOptions = {}): Promise<CliRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  const bytes: Buffer[] = [];
  stdout.on('data', (c: Buffer) => {
    bytes.push(c);
    out += c.toString('utf8');
  });
  stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const tty = typeof opts.tty === 'object' ? opts.tty : { stdin: Boolean(opts.tty), stdout: Boolean(opts.tty), stderr: Boolean(opts.tty) };
  const io: IO = {
    stdin: Readable.from(opts.stdin === undefined ? [] : [Buffer.from(opts.stdin)]),
    stdout,
    stderr,
    stdinIsTTY: Boolean(tty.stdin),
    stdoutIsTTY: Boolean(tty.stdout),
    stderrIsTTY: Boolean(tty.stderr),
    colorOut: false,
    colorErr: false,
    columns: opts.columns ?? 100,
  };
  const env = { HOME: tempConfigDir(), GEO_CONFIG_DIR: tempConfigDir(), PATH: process.env.PATH, ...opts.env };
  const code = await main(argv, {
    io,
    env,
    signal: opts.signal ?? new AbortController().signal,
    ...(opts.sleep ? { sleep: opts.sleep } : {}),
    ...(opts.now ? { now: opts.now } : {}),
  });
  await new Promise((r) => setImmediate(r));
  // Not enumerable: tests compare whole runs with toEqual({code, stdout, stderr}); binary output
  // (KMZ) is read from it explicitly.
  const run: CliRun = { code, stdout: out, stderr: err };
  Object.defineProperty(run, 'stdoutBytes', { value: Buffer.concat(bytes), enumerable: false });
  return run;
}

export const GEO_BIN = new URL('../../bin/geo.js', import.meta.url).pathname;

/**
 * One code-cache folder (bin/load-cli.js) for the binaries a test file spawns, so each run after the
 * first starts from the cache as a user's does; test/build/compile-cache.test.ts tests the cache.
 */
export const CODE_CACHE_DIR = mkdtempSync(join(tmpdir(), 'geo-test-code-cache-'));

/** A spawned binary's environment: fresh HOME and config folder, PATH, the shared code cache; `env` wins. */
export function binEnv(env: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return { HOME: tempConfigDir(), GEO_CONFIG_DIR: tempConfigDir(), GEO_CACHE_DIR: CODE_CACHE_DIR, PATH: process.env.PATH, ...env };
}

/** What a spawned child printed and how it ended (exit code, or -1 when a signal ended it). */
export function finished(child: ChildProcess): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr?.on('data', (c: Buffer) => (err += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout: out, stderr: err }));
  });
}

/** Spawns the built binary (bin/geo.js -> dist/) as a user would. */
export function spawnGeo(argv: string[], opts: { env?: Record<string, string | undefined>; stdin?: string | Buffer } = {}): Promise<CliRun> {
  const child = spawn(process.execPath, [GEO_BIN, ...argv], { env: binEnv(opts.env), stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end(opts.stdin ?? '');
  return finished(child);
}
