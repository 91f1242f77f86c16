/**
 * The flags of a video or a photo set, read the same way by `geo locate` and `geo eval`:
 * one line naming the flag, the range and what was given (exit 2), before a frame is decoded.
 */
import { UsageError } from '../errors.js';
import { parseDuration, wholeNumber } from '../flags.js';
import { DEFAULT_FRAME_OPTIONS, type FrameOptions } from './frames.js';

export const DEFAULT_AGREE_KM = 25;
export const DEFAULT_MAX_DURATION_MS = 2 * 3600 * 1000;
/** One request per frame: more than this is a batch of photos, not a look at a clip. */
export const MAX_FRAMES = 100;

/** The option names (commander's camelCase) and their flags. */
export const VIDEO_FLAGS = { every: '--every', scene: '--scene', maxFrames: '--max-frames', maxDuration: '--max-duration' } as const;

/** A decimal number within [min, max] (or (min, max] with exclusiveMin). */
export function decimal(v: unknown, flag: string, min: number, max: number, hint: string, exclusiveMin = false): number | undefined {
  if (v === undefined) return undefined;
  const s = String(v).trim();
  const n = /^(\d+(\.\d*)?|\.\d+)$/.test(s) ? Number(s) : Number.NaN;
  const range = exclusiveMin ? `above ${min} and at most ${max}` : `from ${min} to ${max}`;
  if (!(exclusiveMin ? n > min : n >= min) || !(n <= max)) throw new UsageError(`${flag} must be a number ${range}, got "${String(v)}"`, hint);
  return n;
}

export function agreeKmOf(opts: Record<string, unknown>): number {
  return decimal(opts.agreeKm, '--agree-km', 0, 20_000, 'answers this close (great-circle) agree; default 25', true) ?? DEFAULT_AGREE_KM;
}

/** --every, --scene, --max-frames and --max-duration. */
export function videoOptions(opts: Record<string, unknown>): { frames: FrameOptions; maxDurationMs: number } {
  const hint = (what: string) => `${what}; see geo locate --help, "Videos"`;
  const d = DEFAULT_FRAME_OPTIONS;
  return {
    frames: {
      everyS: decimal(opts.every, '--every', 0, 3600, hint('at least one frame every this many seconds (default 10)'), true) ?? d.everyS,
      scene: decimal(opts.scene, '--scene', 0, 1, hint('a frame whose scene score (0-1) is above this is a cut (default 0.3)'), true) ?? d.scene,
      maxFrames: wholeNumber(opts.maxFrames, '--max-frames', 1, MAX_FRAMES, hint('frames sent at most (default 12)')) ?? d.maxFrames,
    },
    maxDurationMs: parseDuration(opts.maxDuration, '--max-duration', 'the default is 2h') ?? DEFAULT_MAX_DURATION_MS,
  };
}
