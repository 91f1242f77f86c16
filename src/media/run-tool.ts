/**
 * Runs ffmpeg or ffprobe: arguments as an array (no shell, so a path with spaces, quotes or a
 * leading dash is one argument), stdin closed, stdout kept as bytes, stderr as text (its tail).
 *
 * Bounded: every run has a timeout (limits.ts says how long), and a run that passes it,
 * or is cancelled, is killed with its whole process group: the tool is spawned detached (a group
 * of its own), so a wrapper script's children go with it, and nothing it started outlives geo.
 * Killing a group takes process.kill(-pgid), which only cli.ts may touch: it lends that here as a
 * ChildHost (with a hook that kills what is still running if geo exits before the tool does). A
 * geo killed with SIGKILL runs no hook: a long run is tethered to it instead (TETHER below).
 */
import { spawn } from 'node:child_process';
import { platform } from 'node:os';

export interface ToolOutput {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/** What media needs of the process geo runs in (cli.ts builds it; tests may too). */
export interface ChildHost {
  /** This process's pid: it names the temporary folders (workdir.ts). */
  pid: number;
  /** Whether a pid still runs. */
  alive(pid: number): boolean;
  /** SIGKILL to the group `pgid` (a detached child's pid), or to that process alone where groups are not. */
  killGroup(pgid: number): void;
  /** Kill `pgid` when geo exits before it does; the returned function forgets it. */
  track(pgid: number): () => void;
}

export interface RunToolOptions {
  signal?: AbortSignal;
  onStderr?: (chunk: string) => void;
  /** Killed (with its group) past this; rejects with ToolTimeoutError. */
  timeoutMs?: number;
  host?: ChildHost;
  cwd?: string;
  /** The child's pid, once spawned (workdir.ts writes it down for a later run to find). */
  onSpawn?: (pid: number) => void;
  /** Ends with geo even when geo is killed with SIGKILL (TETHER): for runs as long as a clip. */
  tether?: boolean;
}

/** A tool that did not finish within its time: killed, with everything it started. */
export class ToolTimeoutError extends Error {
  override readonly name = 'ToolTimeoutError';
  constructor(readonly cmd: string, readonly timeoutMs: number) {
    super(`${cmd} did not finish within ${Math.round(timeoutMs / 1000)} s`);
  }
}

/** stderr beyond this is cut from the front: ffmpeg's log of a long clip is long; errors come last. */
const STDERR_TAIL = 4 * 1024 * 1024;

/** Windows has no process groups to signal; there the tool is killed alone. */
const GROUPS = platform() !== 'win32';

/**
 * A tool that ends with geo, even when geo is killed with SIGKILL and no exit hook runs: it runs
 * under a small sh whose standard input is a pipe only geo holds the other end of. When geo is
 * gone the pipe reads end-of-file, and the shell kills its process group: the tool and whatever it
 * started. ffmpeg itself notices nothing (it ignores SIGPIPE and a failed -progress write, and
 * reading the clip from stdin would cost seeking). Arguments pass through "$@", never a command line.
 */
const TETHER = 'exec 3<&0; "$@" 3<&- </dev/null & c=$!; { while read -r _; do :; done; kill -KILL 0; } <&3 >/dev/null 2>&1 & exec 3<&-; wait $c';

export function runTool(cmd: string, args: readonly string[], opts: RunToolOptions = {}): Promise<ToolOutput> {
  return new Promise((resolve, reject) => {
    const { signal, host } = opts;
    if (signal?.aborted) return reject(signal.reason);
    const tethered = Boolean(opts.tether) && GROUPS;
    const [file, argv] = tethered ? ['/bin/sh', ['-c', TETHER, 'geo-tool', cmd, ...args]] : [cmd, [...args]];
    const child = spawn(file, argv, { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true, detached: GROUPS, ...(opts.cwd ? { cwd: opts.cwd } : {}) });
    // Untethered, its stdin reads end-of-file at once; tethered, geo holds it open to the end.
    if (!tethered) child.stdin.end();
    const pid = child.pid;
    const untrack = pid !== undefined && host && GROUPS ? host.track(pid) : () => false;
    if (pid !== undefined) opts.onSpawn?.(pid);
    const out: Buffer[] = [];
    let err = '';
    let settled = false;
    const kill = () => {
      if (pid !== undefined && host && GROUPS) host.killGroup(pid);
      else child.kill('SIGKILL');
    };
    const end = (fn: () => void, killIt: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (killIt) kill();
      // The tether's pipe: closed once the run is over (its group is gone by now, or goes on EOF).
      child.stdin.destroy();
      untrack();
      fn();
    };
    // Ctrl-C kills the group; the run ends the way any cancelled command does (exit 130), not as a tool failure.
    const onAbort = () => end(() => reject(signal!.reason), true);
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = opts.timeoutMs === undefined ? undefined : setTimeout(() => end(() => reject(new ToolTimeoutError(cmd, opts.timeoutMs!)), true), opts.timeoutMs);
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => {
      const s = c.toString('utf8');
      opts.onStderr?.(s);
      err += s;
      if (err.length > STDERR_TAIL) err = err.slice(err.length - STDERR_TAIL / 2);
    });
    child.on('error', (e) => end(() => reject(e), false));
    // 'close': the tool exited and its output pipes are drained. Whatever it left running in its
    // group goes with it (a pid stays reserved while a group bears its number, so this reaches
    // nothing else; an empty group is simply not found).
    child.on('close', (code) => end(() => resolve({ code, stdout: Buffer.concat(out), stderr: err }), true));
  });
}
