/**
 * What ffprobe says of a clip before any frame is decoded: its length and its video stream. Each
 * way a clip can be unusable is one line, exit 2, nothing sent: not readable as
 * a video (a corrupt container), no video stream (audio only), zero length, longer than
 * --max-duration; and frames above the pixel limit images have (limits.ts), or an
 * ffprobe that does not answer within its time.
 */
import { stat } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { MAX_DECODE_PIXELS } from '../image/dimensions.js';
import type { Tools } from './ffmpeg.js';
import { clock } from './clock.js';
import { checkClipPixels, probeTimeoutMs } from './limits.js';
import { type ToolRun, runBounded } from './tool-run.js';

export interface ClipInfo {
  durationMs: number;
  width: number;
  height: number;
  codec: string;
  /** Frames per second as the stream declares it (0 when it does not say). */
  fps: number;
}

/** The last line ffmpeg or ffprobe wrote that says something (its error), for messages. */
export function lastLine(stderr: string): string {
  const lines = stderr.split(/\r?\n/).map((l) => l.replace(/^\[[^\]]*\]\s*/, '').trim()).filter(Boolean);
  return lines[lines.length - 1] ?? 'no reason given';
}

/** `file:` keeps a name holding a colon from being read as a protocol (ffmpeg's own advice). */
export function fileArg(absPath: string): string {
  return `file:${absPath}`;
}

function rate(s: unknown): number {
  const m = typeof s === 'string' ? /^(\d+)(?:\/(\d+))?$/.exec(s) : null;
  if (!m) return 0;
  const d = m[2] === undefined ? 1 : Number(m[2]);
  return d > 0 ? Number(m[1]) / d : 0;
}

interface Probe {
  format?: { duration?: string };
  streams?: Array<{ codec_type?: string; codec_name?: string; width?: number; height?: number; duration?: string; avg_frame_rate?: string; r_frame_rate?: string; disposition?: { attached_pic?: number } }>;
}

/**
 * ffmpeg's and ffprobe's own words for a frame past -max_pixels ("Picture size 12000x12000 exceeds
 * specified max pixel count"): refused as the pixel limit it is (limits.ts), whichever tool met it.
 */
export function refuseOversize(input: string, stderr: string): void {
  const big = /Picture size (\d+)x(\d+) exceeds specified max pixel count/.exec(stderr);
  if (big) checkClipPixels(input, { width: Number(big[1]), height: Number(big[2]) });
}

export async function probeClip(tools: Tools, input: string, absPath: string, maxDurationMs: number, run: ToolRun = {}): Promise<ClipInfo> {
  const timeoutMs = probeTimeoutMs((await stat(absPath)).size);
  const why = `10 s + 1 s per 100 MB of the file`;
  // ffprobe decodes a frame or two to describe the stream: told the pixel limit, it stops before
  // a frame past it is decoded (a 144 MP frame cost ffprobe ~390 MB), and names its size.
  const out = await runBounded(tools.ffprobe, ['-max_pixels', String(MAX_DECODE_PIXELS), '-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', fileArg(absPath)], run, { input, what: 'ffprobe', timeoutMs, why });
  refuseOversize(input, out.stderr);
  let p: Probe = {};
  try {
    p = JSON.parse(out.stdout.toString('utf8')) as Probe;
  } catch {
    /* judged below */
  }
  if (out.code !== 0 || !p.format) throw new UsageError(`${input}: not a video ffmpeg can read (${lastLine(out.stderr)}); nothing was sent`, 'check the file plays; a partial download or a damaged file cannot be read');
  // A cover picture (attached_pic) in an audio file is a "video" stream of one still: not a clip.
  const v = (p.streams ?? []).find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const seconds = Number(p.format.duration ?? v?.duration);
  const durationMs = Number.isFinite(seconds) ? Math.round(seconds * 1000) : 0;
  // A container with nothing in it (an empty recording) is a zero-length clip, not an audio file.
  const empty = durationMs <= 0 && (p.streams ?? []).length === 0;
  if (!v && !empty) throw new UsageError(`${input}: the file has no video stream (${(p.streams ?? []).map((s) => s.codec_type).join(', ')}); nothing was sent`, 'give a video, or the photos themselves');
  if (!v || durationMs <= 0) throw new UsageError(`${input}: the clip is zero seconds long; nothing was sent`, 'give a clip with at least one frame');
  if (durationMs > maxDurationMs) {
    throw new UsageError(`${input}: the clip is ${clock(durationMs)} long, above --max-duration ${clock(maxDurationMs)}; nothing was sent`, 'raise --max-duration, or cut the part you need first (ffmpeg -ss START -to END -i in.mp4 -c copy part.mp4)');
  }
  const clip = { durationMs, width: v.width ?? 0, height: v.height ?? 0, codec: v.codec_name ?? 'unknown', fps: rate(v.avg_frame_rate) || rate(v.r_frame_rate) };
  checkClipPixels(input, clip);
  return clip;
}
