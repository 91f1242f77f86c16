/**
 * How long ffmpeg and ffprobe may run, and how large a clip's frames may be. Each is
 * known before the work starts, so a tool that hangs (a broken GEO_FFMPEG, a file that makes a
 * decoder spin) ends with one line instead of holding geo forever, and a clip of 144 MP frames is
 * refused from ffprobe's answer before a single frame is decoded, as an image of that size is.
 *
 * Timeouts (generous: on the 2-core build machine a 1080p30 clip decodes with scene scores at about
 * 17x real time, so the limit is hit by a hang, not by a slow machine):
 *   ffmpeg -version          10 s
 *   ffprobe                  10 s + 1 s per 100 MB of the file (what it may read of it)
 *   each ffmpeg pass         10 s + 2 s per second of clip, scaled by its pixel rate against 1080p
 *                            at 30 fps (never below 1): 10 s + 2 x seconds x max(1, w x h x fps / (1920 x 1080 x 30))
 */
import { MAX_DECODE_PIXELS, tooManyPixels } from '../image/dimensions.js';
import { UsageError } from '../errors.js';
import { clock } from './clock.js';

/** What the limits read of a clip (probe.ts ClipInfo has these and more). */
export interface ClipSize {
  durationMs: number;
  width: number;
  height: number;
  /** 0 when the stream does not say. */
  fps: number;
}

export const VERSION_TIMEOUT_MS = 10_000;
const BASE_MS = 10_000;
const PROBE_MS_PER_100MB = 1000;
const PASS_MS_PER_SECOND = 2000;
/** 1080p at 30 frames a second: the pixel rate one second of clock per second of clip is scaled by. */
const REFERENCE_PIXEL_RATE = 1920 * 1080 * 30;

export function probeTimeoutMs(fileBytes: number): number {
  return BASE_MS + Math.ceil(fileBytes / 100e6) * PROBE_MS_PER_100MB;
}

/** A pass's pixel rate against 1080p30 (fps the stream does not state counts as 30). */
function load(clip: ClipSize): number {
  return Math.max(1, (clip.width * clip.height * (clip.fps > 0 ? clip.fps : 30)) / REFERENCE_PIXEL_RATE);
}

export function passTimeoutMs(clip: ClipSize): number {
  return Math.round(BASE_MS + (clip.durationMs / 1000) * PASS_MS_PER_SECOND * load(clip));
}

/** "10 s + 2 s per second of 1080p30-equivalent video (0:09 of 320×180 at 25 fps)", for the line of a timeout. */
export function passTimeoutWhy(clip: ClipSize): string {
  const fps = clip.fps > 0 ? `${Math.round(clip.fps * 100) / 100} fps` : 'an unstated frame rate';
  return `10 s + 2 s per second of 1080p30-equivalent video: ${clock(clip.durationMs)} of ${clip.width}×${clip.height} at ${fps}`;
}

/**
 * A clip whose frames pass the pixel limit images have (MAX_DECODE_PIXELS) is refused before any
 * decode: ffmpeg's own memory for one decoded 144 MP frame (~400 MB, a frame and its references)
 * is the cost, and scaling after the decoder cannot lower it. ffprobe and every ffmpeg decode get
 * the same limit (-max_pixels: probe.ts, frames.ts), so neither decodes such a frame, and a stream
 * that grows past it mid-clip stops there (bench/video.mjs: 827 MB before, 105 MB now).
 */
export function checkClipPixels(input: string, clip: Pick<ClipSize, 'width' | 'height'>): void {
  const big = tooManyPixels({ width: clip.width, height: clip.height });
  if (!big) return;
  throw new UsageError(
    `${input}: the video's frames are ${big}, above the ${MAX_DECODE_PIXELS / 1e6} MP geo decodes; nothing was sent`,
    'scale the clip down first, e.g. ffmpeg -i in.mp4 -vf scale=-2:2160 out.mp4',
  );
}
