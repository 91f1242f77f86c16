/**
 * A video made ready for the batch engine, and its answers made into a scene. Shared by
 * `geo locate clip.mp4` and `geo eval clip.mp4`: ffmpeg found, the clip probed, its frames chosen
 * and extracted (frames.ts), each frame an in-memory image job named `clip.mp4#t=4.000` (a W3C
 * media fragment) carrying its origin; afterwards the records become the scene (scene.ts).
 */
import type { FrameInput } from '../batch/sources.js';
import type { BatchRecord } from '../batch/types.js';
import { sha256File } from '../files/read.js';
import { clock } from './clock.js';
import { findTools } from './ffmpeg.js';
import { type FrameOptions, type Frames, framesOf } from './frames.js';
import { type ClipInfo, probeClip } from './probe.js';
import type { ChildHost } from './run-tool.js';
import type { ToolRun } from './tool-run.js';
import { openWorkdir } from './workdir.js';
import { type SceneJson, type SceneMember, buildScene } from './scene.js';

export interface VideoSource {
  /** As the user named it. */
  input: string;
  /** Absolute. */
  path: string;
  frames: FrameOptions;
  maxDurationMs: number;
}

export interface PreparedVideo {
  source: VideoSource;
  clip: ClipInfo;
  frames: Frames;
  sha256: string;
  /** What the batch sends: one image per chosen frame. */
  inputs: FrameInput[];
}

export function frameName(input: string, tMs: number): string {
  return `${input}#t=${(tMs / 1000).toFixed(3)}`;
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "6 candidate frames · 2 near-duplicates dropped · 4 frames to send (1 first, 1 cut, 2 interval)". */
export function choiceLine(f: Frames): string {
  const by = (w: string) => f.frames.filter((x) => x.why === w).length;
  const dup = f.dropped.filter((d) => d.why === 'duplicate').length;
  const cap = f.dropped.filter((d) => d.why === 'cap').length;
  const kinds = [`${by('first')} first`, count(by('cut'), 'cut'), `${by('interval')} interval`].join(', ');
  return [count(f.candidates, 'candidate frame'), ...(dup ? [`${count(dup, 'near-duplicate')} dropped`] : []), ...(cap ? [`${cap} over --max-frames dropped`] : []), `${count(f.frames.length, 'frame')} to send (${kinds})`].join(' · ');
}

/**
 * Everything local and free before the plan: exit 2 with one line for a clip that cannot be read.
 * ffprobe and ffmpeg run bounded in the clip's own folder (tool-run.ts, workdir.ts),
 * removed when this returns or throws; a folder an earlier, killed geo left is removed first.
 */
export async function prepareVideo(env: Record<string, string | undefined>, v: VideoSource, opts: { signal?: AbortSignal; note?: (line: string) => void; host?: ChildHost } = {}): Promise<PreparedVideo> {
  const tools = await findTools(env, `locating the video ${v.input}`, opts.host);
  const workdir = opts.host ? await openWorkdir(opts.host) : undefined;
  const run: ToolRun = { ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.host ? { host: opts.host } : {}), ...(workdir ? { workdir } : {}) };
  let clip: ClipInfo;
  let frames: Frames;
  let sha256: string;
  try {
    clip = await probeClip(tools, v.input, v.path, v.maxDurationMs, run);
    opts.note?.(`${v.input}: ${clock(clip.durationMs)}, ${clip.width}×${clip.height} ${clip.codec}; choosing frames (ffmpeg ${tools.version})`);
    [frames, sha256] = await Promise.all([framesOf(tools, v.input, v.path, clip, v.frames, run), sha256File(v.path)]);
  } finally {
    await workdir?.remove();
  }
  opts.note?.(`${v.input}: ${choiceLine(frames)}`);
  const inputs = frames.frames.map((f) => ({
    input: frameName(v.input, f.tMs), bytes: f.bytes,
    origin: { video: { path: v.path, sha256, t_ms: f.tMs, index: f.index, why: f.why, spans_ms: frames.spans.get(f.index) ?? [], duration_ms: clip.durationMs } },
  }));
  return { source: v, clip, frames, sha256, inputs };
}

/** The scene of a video from the batch's records (matched by frame name). */
export function videoScene(p: PreparedVideo, records: readonly BatchRecord[], depth: number, agreeKm: number): SceneJson {
  const byInput = new Map(records.map((r) => [r.input, r]));
  const members: SceneMember[] = p.frames.frames.map((f) => {
    const input = frameName(p.source.input, f.tMs);
    const record = byInput.get(input);
    const spans = p.frames.spans.get(f.index);
    return { index: f.index, input, tMs: f.tMs, why: f.why, ...(record ? { record } : {}), ...(spans ? { spans } : {}) };
  });
  return buildScene({
    kind: 'video', input: p.source.input, sha256: p.sha256, durationMs: p.clip.durationMs, choice: { ...p.source.frames, candidates: p.frames.candidates },
    depth, agreeKm, members, dropped: p.frames.dropped,
  });
}

/** The scene of photos located together: one member per image (a copy under another name counts once). */
export function setScene(id: string, records: readonly BatchRecord[], depth: number, agreeKm: number): SceneJson {
  const firsts = new Map<string, BatchRecord>();
  for (const r of records) if (r.sha256 !== null && !firsts.has(r.sha256)) firsts.set(r.sha256, r);
  const members: SceneMember[] = [...firsts.values()].map((record, index) => ({ index, input: record.input, record }));
  return buildScene({ kind: 'set', input: id, depth, agreeKm, members });
}
