/**
 * Frames out of a clip with ffmpeg, in two passes:
 * 1. one decode of the whole clip proposes candidates with ffmpeg's own `select` filter: the first
 *    frame, a scene score above --scene (a cut), or --every seconds since the last candidate; each
 *    comes out as a 9×8 grey thumbnail (its perceptual hash) and its pts and scene score are
 *    printed by the `metadata` filter. choose.ts then drops near-duplicates and applies the cap.
 * 2. a second decode writes exactly the chosen frames (selected by pts, so nothing is rounded) as
 *    JPEG into a private temporary folder, which is removed afterwards (workdir.ts: also by the next
 *    geo when this one was killed).
 * Each pass is bounded (limits.ts): a timeout proportional to the clip, and the decoder
 * told the pixel limit (-max_pixels), so a stream that grows past it mid-clip stops there.
 * Same clip, same ffmpeg, same options: the same bytes (-bitexact), so a rerun after a crash sends
 * frames with the same sha256s and the journal answers them without paying twice.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { MAX_DECODE_PIXELS } from '../image/dimensions.js';
import { type Candidate, type Choice, type Chosen, chooseFrames, differenceHash } from './choose.js';
import type { Tools } from './ffmpeg.js';
import { passTimeoutMs, passTimeoutWhy } from './limits.js';
import { type ClipInfo, fileArg, lastLine, refuseOversize } from './probe.js';
import { type ToolRun, runBounded } from './tool-run.js';

export interface FrameOptions {
  /** At least one candidate every this many seconds (--every, default 10). */
  everyS: number;
  /** Scene score (0-1) above which a frame is a cut (--scene, default 0.3). */
  scene: number;
  maxFrames: number;
}

export const DEFAULT_FRAME_OPTIONS: FrameOptions = { everyS: 10, scene: 0.3, maxFrames: 12 };

export interface VideoFrame extends Chosen {
  bytes: Buffer;
  sha256: string;
}

export interface Frames extends Omit<Choice, 'frames'> {
  frames: VideoFrame[];
  /** How many candidates pass 1 proposed. */
  candidates: number;
}

const THUMB = 72;
const QUIET = ['-hide_banner', '-nostdin', '-nostats'];
/** Before -i: the decoder refuses a frame above the pixel limit images have. */
const BOUNDED_INPUT = ['-max_pixels', String(MAX_DECODE_PIXELS)];

const bound = (input: string, clip: ClipInfo, what: string) => ({ input, what: `ffmpeg (${what})`, timeoutMs: passTimeoutMs(clip), why: passTimeoutWhy(clip) });

/** Pass 1's stderr: `frame:N pts:P pts_time:T` then `lavfi.scene_score=S`, per candidate. */
export class CandidateLog {
  readonly entries: Array<{ pts: number; time: number; score: number }> = [];
  private rest = '';

  push(chunk: string): void {
    const lines = (this.rest + chunk).split('\n');
    this.rest = lines.pop() ?? '';
    for (const l of lines) {
      const f = /\bframe:\s*\d+\s+pts:\s*(-?\d+)\s+pts_time:\s*(-?[\d.e+-]+)/.exec(l);
      if (f) this.entries.push({ pts: Number(f[1]), time: Number(f[2]), score: 0 });
      const s = /lavfi\.scene_score=([\d.e+-]+)/.exec(l);
      const last = this.entries[this.entries.length - 1];
      if (s && last) last.score = Number(s[1]);
    }
  }
}

async function candidatesOf(tools: Tools, input: string, absPath: string, clip: ClipInfo, o: FrameOptions, run: ToolRun): Promise<Candidate[]> {
  const select = `select='isnan(prev_selected_t)+gt(scene,${o.scene})+gte(t-prev_selected_t,${o.everyS})'`;
  const log = new CandidateLog();
  const out = await runBounded(tools.ffmpeg, [
    ...QUIET, '-loglevel', 'info', ...BOUNDED_INPUT, '-i', fileArg(absPath), '-map', '0:v:0', '-an', '-sn', '-dn',
    '-vf', `${select},metadata=print:key=lavfi.scene_score,scale=9:8:flags=area,format=gray`, ...tools.passthrough, '-f', 'rawvideo', 'pipe:1',
  ], run, { ...bound(input, clip, 'choosing frames'), onStderr: (c) => log.push(c) });
  log.push('\n');
  const n = Math.floor(out.stdout.length / THUMB);
  // ffprobe said the frames fit, the decoder met larger ones (-max_pixels): said as the limit it is.
  if (out.code !== 0) refuseOversize(input, out.stderr);
  if (out.code !== 0 || n === 0) throw new UsageError(`${input}: no frame could be decoded (${lastLine(out.stderr)}); nothing was sent`, 'the video stream is damaged or in a codec this ffmpeg lacks; check that the file plays');
  if (log.entries.length !== n) throw new UsageError(`${input}: ffmpeg's account of the frames did not add up (${log.entries.length} timestamps for ${n} frames); nothing was sent`, 'try another ffmpeg (GEO_FFMPEG)');
  const t0 = log.entries[0]!.time;
  return log.entries.map((e, i) => ({
    pts: e.pts,
    tMs: Math.round((e.time - t0) * 1000),
    hash: differenceHash(out.stdout.subarray(i * THUMB, (i + 1) * THUMB)),
    why: i === 0 ? 'first' : e.score > o.scene ? 'cut' : 'interval',
  }));
}

async function extract(tools: Tools, input: string, absPath: string, clip: ClipInfo, chosen: readonly Chosen[], run: ToolRun): Promise<Buffer[]> {
  // The clip's own folder (video.ts opens it, and removes it), or one of this call's.
  const own = run.workdir ? undefined : await mkdtemp(join(tmpdir(), 'geo-frames-'));
  const dir = run.workdir?.path ?? own!;
  const frame = (f: string) => /^\d{6}\.jpg$/.test(f);
  try {
    const select = `select='${chosen.map((c) => `eq(pts,${c.pts})`).join('+')}'`;
    const out = await runBounded(tools.ffmpeg, [
      ...QUIET, '-loglevel', 'error', ...BOUNDED_INPUT, '-i', fileArg(absPath), '-map', '0:v:0', '-an', '-sn', '-dn', '-vf', select, ...tools.passthrough,
      '-c:v', 'mjpeg', '-q:v', '2', '-pix_fmt', 'yuvj420p', '-fflags', '+bitexact', '-flags:v', '+bitexact', '-f', 'image2', '-start_number', '0', join(dir, '%06d.jpg'),
    ], run, bound(input, clip, 'writing the chosen frames'));
    const files = (await readdir(dir)).filter(frame).sort();
    if (out.code !== 0 || files.length !== chosen.length) throw new UsageError(`${input}: ffmpeg wrote ${files.length} of the ${chosen.length} chosen frames (${lastLine(out.stderr)}); nothing was sent`, 'the video stream may be damaged; check that the file plays');
    return await Promise.all(files.map((f) => readFile(join(dir, f))));
  } finally {
    if (own) await rm(own, { recursive: true, force: true });
    // In the clip's folder, no frame outlives this call, whatever happened (a timeout, Ctrl-C).
    else await Promise.all((await readdir(dir).catch(() => [] as string[])).filter(frame).map((f) => rm(join(dir, f), { force: true })));
  }
}

export async function framesOf(tools: Tools, input: string, absPath: string, clip: ClipInfo, o: FrameOptions, run: ToolRun = {}): Promise<Frames> {
  const candidates = await candidatesOf(tools, input, absPath, clip, o, run);
  const choice = chooseFrames(candidates, { maxFrames: o.maxFrames, durationMs: clip.durationMs });
  const bytes = await extract(tools, input, absPath, clip, choice.frames, run);
  const frames = choice.frames.map((f, i) => ({ ...f, bytes: bytes[i]!, sha256: createHash('sha256').update(bytes[i]!).digest('hex') }));
  return { ...choice, frames, candidates: candidates.length };
}
