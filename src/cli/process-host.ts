/**
 * What geo's own process offers the commands: its streams, a probe for the store's claims and a
 * host for the tools it runs. Only src/cli.ts and bin/ touch `process` (DESIGN.md "Layers"): main() hands
 * its process in, so tests can hand in another.
 */
import { readFileSync } from 'node:fs';
import type { ChildHost } from '../media/run-tool.js';
import { type IO, fdIsTTY } from '../output/io.js';
import type { ProcessProbe } from '../store/index.js';

/** The parts of Node's `process` the probe and the child host use. */
export type HostProcess = Pick<NodeJS.Process, 'pid' | 'kill' | 'on'>;

/** The process's own streams, for a command run by geo itself (tests bring their own IO). */
export function terminalIO(proc: Pick<NodeJS.Process, 'stdin' | 'stdout' | 'stderr'>): IO {
  return {
    // A getter: Node builds process.stdin on first use (~4 ms on Node 20), and most commands never read it.
    get stdin() {
      return proc.stdin;
    },
    stdout: proc.stdout,
    stderr: proc.stderr,
    stdinIsTTY: fdIsTTY(0),
    stdoutIsTTY: Boolean(proc.stdout.isTTY),
    stderrIsTTY: Boolean(proc.stderr.isTTY),
    colorOut: false,
    colorErr: false,
    // Each stream is fitted to its own terminal; a redirected one borrows the other's width.
    columns: proc.stdout.columns || proc.stderr.columns || 100,
    errColumns: proc.stderr.columns || proc.stdout.columns || 100,
  };
}

/** A process's start time in clock ticks since boot (/proc/PID/stat field 22), '' where there is no /proc. */
function processStart(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

/** `proc` for the store's claims: a claim whose holder's pid is gone (or reused) is free. */
export function probeOf(proc: HostProcess): ProcessProbe {
  let start: string | undefined;
  return {
    pid: proc.pid,
    get start() {
      return (start ??= processStart(proc.pid));
    },
    alive(pid, started) {
      try {
        proc.kill(pid, 0);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
      }
      const now = started ? processStart(pid) : '';
      return !(now && now !== started);
    },
  };
}

/**
 * Tools (ffmpeg, ffprobe) run in process groups of their own (media/run-tool.ts): this kills a
 * group, and kills any still running when geo exits first (a second Ctrl-C exits at once).
 */
export function childHostOf(proc: HostProcess): ChildHost {
  const live = new Set<number>();
  let hooked = false;
  const killGroup = (pgid: number) => {
    try {
      proc.kill(-pgid, 'SIGKILL');
    } catch {
      try {
        proc.kill(pgid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
  };
  return {
    pid: proc.pid,
    alive: (pid) => {
      try {
        proc.kill(pid, 0);
        return true;
      } catch (err) {
        return (err as NodeJS.ErrnoException).code !== 'ESRCH';
      }
    },
    killGroup,
    track(pgid) {
      live.add(pgid);
      if (!hooked) {
        hooked = true;
        proc.on('exit', () => live.forEach(killGroup));
      }
      return () => live.delete(pgid);
    },
  };
}
