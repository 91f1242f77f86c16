/**
 * One scene as data (issue 23): a video's frames, or photos located --together, through the batch
 * engine as ordinary image jobs (every money rule applies: plan, consent, --max-credits, --dry-run,
 * the journal, never paying twice), then one consensus (media/consensus.ts). `geo locate` prints
 * it; `geo mcp` and `geo eval` use it too.
 */
import type { BatchResult } from '../../batch/run.js';
import type { BatchEvent, BatchRecord } from '../../batch/types.js';
import type { FrameInput } from '../../batch/sources.js';
import type { Ctx } from '../../context.js';
import { sha256File } from '../../local/files.js';
import type { RecordOrigin } from '../../local/store-types.js';
import { findTools } from '../../media/ffmpeg.js';
import { type Frames, framesOf } from '../../media/frames.js';
import { clock } from '../../media/clock.js';
import { type ClipInfo, probeClip } from '../../media/probe.js';
import { type SceneJson, type SceneMember, buildScene } from '../../media/scene.js';
import { type LocateDeps, type LocateRun, runLocate } from './run.js';
import type { SceneSettings } from './scene-options.js';

export interface SceneResult {
  batch: BatchResult;
  scene: SceneJson;
  /** The video's frames (bytes included: the report and the KMZ show them). */
  frames?: Frames;
  clip?: ClipInfo;
}

export interface SceneDeps extends LocateDeps {
  /** Lines for stderr: what the clip is, which frames were chosen. */
  note?: (line: string) => void;
}

/** `clip.mp4#t=4.000`: a W3C media fragment, the name a frame goes by in records and output. */
export function frameName(input: string, tMs: number): string {
  return `${input}#t=${(tMs / 1000).toFixed(3)}`;
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "6 candidates (1 first, 1 cut, 4 interval) · 2 near-duplicates dropped · 4 frames to send". */
export function choiceLine(f: Frames): string {
  const by = (w: string) => f.frames.filter((x) => x.why === w).length;
  const dup = f.dropped.filter((d) => d.why === 'duplicate').length;
  const cap = f.dropped.filter((d) => d.why === 'cap').length;
  const kinds = [`${by('first')} first`, count(by('cut'), 'cut'), `${by('interval')} interval`].join(', ');
  return [`${count(f.candidates, 'candidate frame')}`, ...(dup ? [`${count(dup, 'near-duplicate')} dropped`] : []), ...(cap ? [`${cap} over --max-frames dropped`] : []), `${count(f.frames.length, 'frame')} to send (${kinds})`].join(' · ');
}

export async function runScene(ctx: Ctx, run: LocateRun, scene: SceneSettings, deps: SceneDeps): Promise<SceneResult> {
  const signal = deps.signal ?? ctx.signal;
  const depth = (r: BatchResult) => r.plan.depth;
  const origins = new Map<string, RecordOrigin>();
  const onEvent = (e: BatchEvent) => {
    if (e.type === 'finished' && e.origin) origins.set(e.record.input, e.origin);
    deps.onEvent?.(e);
  };
  const src = scene.source;
  if (src.kind === 'set') {
    const batch = await runLocate(ctx, { ...run, settings: { ...run.settings, batch: { ...run.settings.batch, together: true } } }, { ...deps, onEvent });
    // One member per image: a copy of a photo under another name is the same answer, counted once.
    const firsts = new Map<string, BatchRecord>();
    for (const r of batch.records) if (r.sha256 !== null && !firsts.has(r.sha256)) firsts.set(r.sha256, r);
    const members: SceneMember[] = [...firsts.values()].map((record, index) => ({ index, input: record.input, record }));
    const set = [...origins.values()].find((o): o is Extract<RecordOrigin, { set: unknown }> => 'set' in o);
    return { batch, scene: buildScene({ kind: 'set', input: set?.set.id ?? 'set', depth: depth(batch), agreeKm: scene.agreeKm, members }) };
  }
  const tools = await findTools(ctx.env, `locating the video ${src.input}`);
  const clip = await probeClip(tools, src.input, src.path, src.maxDurationMs, signal);
  deps.note?.(`${src.input}: ${clock(clip.durationMs)}, ${clip.width}×${clip.height} ${clip.codec}; choosing frames (ffmpeg ${tools.version})`);
  const [frames, sha256] = await Promise.all([framesOf(tools, src.input, src.path, clip, src.frames, signal), sha256File(src.path)]);
  deps.note?.(`${src.input}: ${choiceLine(frames)}`);
  const inputs: FrameInput[] = frames.frames.map((f) => ({ input: frameName(src.input, f.tMs), bytes: f.bytes, origin: { video: { path: src.path, sha256, t_ms: f.tMs, index: f.index } } }));
  const batch = await runLocate(ctx, { ...run, settings: { ...run.settings, batch: { ...run.settings.batch, inputs: [src.input], frames: inputs } } }, { ...deps, onEvent });
  const byInput = new Map<string, BatchRecord>(batch.records.map((r) => [r.input, r]));
  const members: SceneMember[] = frames.frames.map((f) => {
    const input = frameName(src.input, f.tMs);
    const record = byInput.get(input);
    const spans = frames.spans.get(f.index);
    return { index: f.index, input, tMs: f.tMs, why: f.why, ...(record ? { record } : {}), ...(spans ? { spans } : {}) };
  });
  return {
    batch, frames, clip,
    scene: buildScene({
      kind: 'video', input: src.input, sha256, durationMs: clip.durationMs, choice: { ...src.frames, candidates: frames.candidates },
      depth: depth(batch), agreeKm: scene.agreeKm, members, dropped: frames.dropped,
    }),
  };
}
