/**
 * Runs ffmpeg or ffprobe: arguments as an array (no shell, so a path with spaces, quotes or a
 * leading dash is one argument), stdin closed, stdout kept as bytes, stderr as text (its tail),
 * and the child killed when the run is cancelled.
 */
import { spawn } from 'node:child_process';

export interface ToolOutput {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/** stderr beyond this is cut from the front: ffmpeg's log of a long clip is long; errors come last. */
const STDERR_TAIL = 4 * 1024 * 1024;

export function runTool(cmd: string, args: readonly string[], opts: { signal?: AbortSignal; onStderr?: (chunk: string) => void } = {}): Promise<ToolOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true, ...(opts.signal ? { signal: opts.signal } : {}) });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => {
      const s = c.toString('utf8');
      opts.onStderr?.(s);
      err += s;
      if (err.length > STDERR_TAIL) err = err.slice(err.length - STDERR_TAIL / 2);
    });
    // Ctrl-C kills the child; the run ends the way any cancelled command does (exit 130), not as a tool failure.
    child.on('error', (err) => reject(opts.signal?.aborted ? opts.signal.reason : err));
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr: err }));
  });
}
