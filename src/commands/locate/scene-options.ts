/**
 * `geo locate clip.mp4` and `geo locate a.jpg b.jpg --together` (issue 23): which inputs make one
 * scene, and the flags that only mean something for one. Everything here is checked before a frame
 * is decoded or a byte sent (exit 2).
 */
import { resolve } from 'node:path';
import { isUrlInput } from '../../batch/inputs.js';
import { readJournalState } from '../../batch/journal.js';
import { UsageError } from '../../errors.js';
import { wholeNumber } from '../../flags.js';
import { DEFAULT_FRAME_OPTIONS, type FrameOptions } from '../../media/frames.js';
import { type VideoKind, videoKindOf } from '../../media/sniff.js';

export const DEFAULT_AGREE_KM = 25;
export const DEFAULT_MAX_DURATION_MS = 2 * 3600 * 1000;
/** One request per frame: more than this is a batch of photos, not a look at a clip. */
export const MAX_FRAMES = 100;

export type SceneSource =
  | { kind: 'video'; input: string; path: string; container: VideoKind; frames: FrameOptions; maxDurationMs: number }
  | { kind: 'set' };

export interface SceneSettings {
  source: SceneSource;
  agreeKm: number;
  /** The inputs to run: the video as named, or the photos. */
  inputs: string[];
}

/** A decimal number within [min, max] (seconds, km, a score). */
function decimal(v: unknown, flag: string, min: number, max: number, hint: string, exclusiveMin = false): number | undefined {
  if (v === undefined) return undefined;
  const s = String(v).trim();
  const n = /^(\d+(\.\d*)?|\.\d+)$/.test(s) ? Number(s) : Number.NaN;
  const range = exclusiveMin ? `above ${min} and at most ${max}` : `from ${min} to ${max}`;
  if (!(exclusiveMin ? n > min : n >= min) || !(n <= max)) throw new UsageError(`${flag} must be a number ${range}, got "${String(v)}"`, hint);
  return n;
}

/** "2h", "90m", "45s", "1h30m" or plain seconds. */
export function parseDuration(v: unknown, flag: string): number | undefined {
  if (v === undefined) return undefined;
  const s = String(v).trim().toLowerCase();
  const m = /^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m)?(?:(\d+(?:\.\d+)?)s?)?$/.exec(s);
  const ms = m && s !== '' ? (Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0)) * 1000 : Number.NaN;
  if (!(ms > 0)) throw new UsageError(`${flag} must be a length such as 2h, 90m, 45s or 1h30m, got "${String(v)}"`, 'the default is 2h');
  return ms;
}

const SCENE_FLAGS = ['every', 'scene', 'maxFrames', 'maxDuration'] as const;
const FLAG_NAME: Record<string, string> = { every: '--every', scene: '--scene', maxFrames: '--max-frames', maxDuration: '--max-duration', agreeKm: '--agree-km' };

/** The videos among the inputs (local files whose bytes say video), by position. */
async function videosAmong(inputs: readonly string[]): Promise<Array<{ input: string; path: string; kind: VideoKind }>> {
  const out = [];
  for (const input of inputs) {
    if (input === '-' || isUrlInput(input) || input.trim() === '') continue;
    const path = resolve(input);
    const kind = await videoKindOf(path);
    if (kind) out.push({ input, path, kind });
  }
  return out;
}

/**
 * The scene this command locates, or undefined for an ordinary locate. `--resume FILE` alone of a
 * video's journal reruns that video (its head names it).
 */
export async function sceneOf(inputs: string[], opts: Record<string, unknown>): Promise<SceneSettings | undefined> {
  let named = inputs;
  if (named.length === 0 && typeof opts.resume === 'string') {
    const head = (await readJournalState(resolve(opts.resume)))?.head;
    if (head && head.args.length === 1 && (await videosAmong(head.args.map((a) => resolve(head.cwd, a)))).length === 1) named = [resolve(head.cwd, head.args[0]!)];
  }
  const videos = await videosAmong(named);
  const together = Boolean(opts.together);
  const agreeKm = decimal(opts.agreeKm, '--agree-km', 0, 20_000, 'frames whose answers are this close (great-circle) agree; default 25', true) ?? DEFAULT_AGREE_KM;
  if (videos.length === 0 && !together) {
    const stray = [...SCENE_FLAGS, 'agreeKm'].find((k) => opts[k] !== undefined);
    if (stray) throw new UsageError(`${FLAG_NAME[stray]} applies to a video or to photos located --together`, 'name a video file, or add --together');
    return undefined;
  }
  if (videos.length > 0 && (named.length > 1 || opts.fromFile !== undefined)) {
    throw new UsageError(`locate one video at a time: ${videos[0]!.input} was given with other inputs`, 'run geo locate once per clip (for f in *.mp4; do geo locate "$f"; done); photos of one scene go together with --together');
  }
  for (const [flag, bad] of [['--idempotency-key', opts.idempotencyKey], ['--async', opts.async], ['--min-confidence', opts.minConfidence]] as const) {
    if (bad !== undefined && bad !== false) throw new UsageError(`${flag} does not apply to ${videos.length ? 'a video' : '--together'}: it names one answer, and this is a consensus of many`, videos.length ? 'each frame gets its own key in the journal' : 'leave out --together to locate the photos one by one');
  }
  if (videos.length === 0) {
    const stray = SCENE_FLAGS.find((k) => opts[k] !== undefined);
    if (stray) throw new UsageError(`${FLAG_NAME[stray]} applies to a video, not to photos located --together`);
    return { source: { kind: 'set' }, agreeKm, inputs };
  }
  const v = videos[0]!;
  const hint = (what: string) => `${what}; see geo locate --help, "Videos"`;
  const frames: FrameOptions = {
    everyS: decimal(opts.every, '--every', 0, 3600, hint('at least one frame every this many seconds (default 10)'), true) ?? DEFAULT_FRAME_OPTIONS.everyS,
    scene: decimal(opts.scene, '--scene', 0, 1, hint('a frame whose scene score (0-1) is above this is a cut (default 0.3)'), true) ?? DEFAULT_FRAME_OPTIONS.scene,
    maxFrames: wholeNumber(opts.maxFrames, '--max-frames', 1, MAX_FRAMES, hint('frames sent at most (default 12)')) ?? DEFAULT_FRAME_OPTIONS.maxFrames,
  };
  const maxDurationMs = parseDuration(opts.maxDuration, '--max-duration') ?? DEFAULT_MAX_DURATION_MS;
  return { source: { kind: 'video', input: v.input, path: v.path, container: v.kind, frames, maxDurationMs }, agreeKm, inputs: [v.input] };
}
