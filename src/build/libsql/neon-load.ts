/**
 * What libsql's loader gets for `@neon-rs/load` in dist/libsql.cjs (src/build/build.ts, step 4).
 * libsql asks it for the platform's package name (`linux-x64-gnu`, …). The real one tells glibc from
 * musl with process.report.getReport(), ~6 ms of every command that opens the store on Node 20
 * (bench/store.mjs); detect-libc, which libsql loads anyway, reads the same answer from the ELF
 * interpreter of the running node. Every other platform, and load(), are the real module's.
 */
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { GLIBC, familySync } from 'detect-libc';

interface NeonLoad {
  currentTarget(): string;
  load(dir: string): unknown;
}

// createRequire: esbuild leaves this require alone, so it reaches the real package, not this file.
const real = (): NeonLoad => createRequire(import.meta.url)('@neon-rs/load') as NeonLoad;

export function currentTarget(): string {
  if (platform() === 'linux' && (arch() === 'x64' || arch() === 'arm64')) {
    return `linux-${arch()}-${familySync() === GLIBC ? 'gnu' : 'musl'}`;
  }
  return real().currentTarget();
}

export function load(dir: string): unknown {
  return real().load(dir);
}
