/**
 * `geo locate clip.mp4` and `geo locate a.jpg b.jpg --together`: which inputs make one
 * scene, and the flags that only mean something for one. Everything here is checked before a frame
 * is decoded or a byte sent (exit 2).
 */
import { resolve } from 'node:path';
import { isUrlInput } from '../../batch/inputs.js';
import type { HeadLine } from '../../batch/journal.js';
import { UsageError } from '../../errors.js';
import type { FrameOptions } from '../../media/frames.js';
import { VIDEO_FLAGS, agreeKmOf, videoOptions } from '../../media/options.js';
import { type VideoKind, checkNamedVideo, videoKindOf } from '../../media/sniff.js';

export { DEFAULT_AGREE_KM } from '../../media/options.js';

export type SceneSource =
  | { kind: 'video'; input: string; path: string; container: VideoKind; frames: FrameOptions; maxDurationMs: number }
  | { kind: 'set' };

export interface SceneSettings {
  source: SceneSource;
  agreeKm: number;
  /** The inputs to run: the video as named, or the photos. */
  inputs: string[];
}

const SCENE_FLAGS = Object.keys(VIDEO_FLAGS) as Array<keyof typeof VIDEO_FLAGS>;
const FLAG_NAME: Record<string, string> = { ...VIDEO_FLAGS, agreeKm: '--agree-km' };

/** The videos among the inputs (local files whose bytes say video), by position. */
async function videosAmong(inputs: readonly string[]): Promise<Array<{ input: string; path: string; kind: VideoKind }>> {
  const out = [];
  for (const input of inputs) {
    if (input === '-' || isUrlInput(input) || input.trim() === '') continue;
    const path = resolve(input);
    const kind = await videoKindOf(path);
    if (kind) out.push({ input, path, kind });
    else await checkNamedVideo(input, path);
  }
  return out;
}

/**
 * The scene this command locates, or undefined for an ordinary locate. `--resume ID` (or FILE)
 * alone of a video's batch reruns that video (its head names it).
 */
export async function sceneOf(inputs: string[], opts: Record<string, unknown>, headOf: (resume: string) => Promise<HeadLine | undefined>): Promise<SceneSettings | undefined> {
  let named = inputs;
  if (named.length === 0 && typeof opts.resume === 'string') {
    const head = await headOf(opts.resume);
    if (head && head.args.length === 1 && (await videosAmong(head.args.map((a) => resolve(head.cwd, a)))).length === 1) named = [resolve(head.cwd, head.args[0]!)];
  }
  const videos = await videosAmong(named);
  const together = Boolean(opts.together);
  const agreeKm = agreeKmOf(opts);
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
  const { frames, maxDurationMs } = videoOptions(opts);
  return { source: { kind: 'video', input: v.input, path: v.path, container: v.kind, frames, maxDurationMs }, agreeKm, inputs: [v.input] };
}
