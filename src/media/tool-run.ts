/**
 * One run of ffmpeg or ffprobe for a clip, bounded: in the clip's private folder (so a
 * later geo can find it if this one is killed: workdir.ts), with the time limits.ts gives it, and a
 * timeout told as one line, exit 2, that says the limit and where it comes from.
 */
import { UsageError } from '../errors.js';
import { type ChildHost, type ToolOutput, ToolTimeoutError, runTool } from './run-tool.js';
import type { Workdir } from './workdir.js';

/** What every tool run of one clip shares. */
export interface ToolRun {
  signal?: AbortSignal;
  host?: ChildHost;
  workdir?: Workdir;
}

export interface Bound {
  /** As the user named the clip. */
  input: string;
  /** "ffprobe", "ffmpeg (choosing frames)", … */
  what: string;
  timeoutMs: number;
  /** How the limit was reckoned, for the line. */
  why: string;
  onStderr?: (chunk: string) => void;
}

export async function runBounded(cmd: string, args: readonly string[], run: ToolRun, b: Bound): Promise<ToolOutput> {
  try {
    return await runTool(cmd, args, {
      timeoutMs: b.timeoutMs,
      tether: true,
      ...(run.signal ? { signal: run.signal } : {}),
      ...(run.host ? { host: run.host } : {}),
      ...(run.workdir ? { cwd: run.workdir.path, onSpawn: run.workdir.ran } : {}),
      ...(b.onStderr ? { onStderr: b.onStderr } : {}),
    });
  } catch (err) {
    if (!(err instanceof ToolTimeoutError)) throw err;
    throw new UsageError(
      `${b.input}: ${b.what} did not finish within ${Math.round(b.timeoutMs / 1000)} s (${b.why}), so geo stopped it and everything it started; nothing was sent`,
      `check that ${cmd} is a working ffmpeg (GEO_FFMPEG, GEO_FFPROBE); a clip that slow to read can be cut or scaled first (ffmpeg -i in.mp4 -vf scale=-2:1080 out.mp4)`,
    );
  }
}
