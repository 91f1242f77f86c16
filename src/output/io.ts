/**
 * The streams a command writes to, and whether they are terminals. Injected through Ctx so every
 * command runs in tests with fake TTY flags (GitHub CLI's iostreams).
 */
import { fstatSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import type * as Tty from 'node:tty';
import { lazyBuiltin } from '../lazy/builtin.js';
import { type Env, isCI } from '../config/env.js';

export interface IO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Colour on stdout / stderr, decided once by decideColor(). */
  colorOut: boolean;
  colorErr: boolean;
  /** Width of stdout's terminal: tables and views printed on stdout. */
  columns: number;
  /**
   * Width of stderr's terminal: progress, spinners and notes are drawn there (with stdout
   * redirected to a file, stdout's width is not the screen's). Defaults to `columns`.
   */
  errColumns?: number;
}

/**
 * `io` with some fields replaced. Not a spread: the process's IO reads stdin through a getter
 * (src/cli/process-host.ts terminalIO), and a spread would build process.stdin for commands that never read it.
 */
export function withIO(io: IO, patch: Partial<IO>): IO {
  return Object.defineProperties({ ...patch } as IO, Object.fromEntries(Object.entries(Object.getOwnPropertyDescriptors(io)).filter(([k]) => !(k in patch))));
}

const tty = lazyBuiltin<typeof Tty>('node:tty');

/**
 * Whether `fd` is a terminal, without building its stream. Only a character device can be one, and
 * node:tty (which loads net, ~8 ms on Node 20) is asked only then: a pipe or a file is answered by fstat.
 */
export function fdIsTTY(fd: number): boolean {
  try {
    return fstatSync(fd).isCharacterDevice() && tty().isatty(fd);
  } catch {
    return false;
  }
}

/** The width lines on stderr are fitted to: stderr's own terminal. */
export function stderrColumns(io: Pick<IO, 'columns' | 'errColumns'>): number {
  return io.errColumns ?? io.columns;
}

// The environment's shape is config's (config/env.ts); the callers of io name it from here too.
export type { Env };

/**
 * clig.dev and gh: --no-color and NO_COLOR (any value) turn colour off, TERM=dumb too;
 * FORCE_COLOR=0 off, FORCE_COLOR=1+ on even without a TTY; otherwise colour only on a TTY.
 */
export function decideColor(isTTY: boolean, env: Env, noColorFlag: boolean): boolean {
  if (noColorFlag) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  if (env.TERM === 'dumb') return false;
  return isTTY;
}

/** Interactive only on a terminal, outside CI, and unless --no-input. */
export function canPrompt(io: IO, env: Env, noInput: boolean): boolean {
  return noPromptReason(io, env, noInput) === undefined;
}

/** Why nothing may be asked here, in words for a refusal; undefined when a prompt is possible. */
export function noPromptReason(io: IO, env: Env, noInput: boolean): string | undefined {
  if (noInput) return '--no-input';
  if (isCI(env)) return 'CI is set';
  if (!io.stdinIsTTY) return 'stdin is not a terminal';
  if (!io.stderrIsTTY) return 'stderr is not a terminal';
  return undefined;
}

/** Spinners and live progress: stderr is a terminal, not CI, not dumb, not quiet. */
export function canAnimate(io: IO, env: Env, quiet: boolean): boolean {
  return !quiet && io.stderrIsTTY && !isCI(env) && env.TERM !== 'dumb';
}

/**
 * Accessible mode (gh's GH_ACCESSIBLE_PROMPTER): GEO_ACCESSIBLE set to anything but
 * "", 0 or false, or `geo config set accessible true`. No spinner and no line redrawn in place
 * (a screen reader reads every redraw), progress as plain lines, questions that do not redraw.
 */
export function isAccessible(env: Env, configured: string | undefined): boolean {
  const v = env.GEO_ACCESSIBLE;
  if (v !== undefined && v !== '') return v !== '0' && v.toLowerCase() !== 'false';
  return configured === 'true';
}
