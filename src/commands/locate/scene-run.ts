/**
 * One scene as data (issue 23): a video's frames, or photos located --together, through the batch
 * engine as ordinary image jobs (every money rule applies: plan, consent, --max-credits, --dry-run,
 * the journal, never paying twice), then one consensus (media/consensus.ts). `geo locate` prints
 * it; `geo mcp` returns it.
 */
import type { BatchResult } from '../../batch/run.js';
import type { BatchEvent } from '../../batch/types.js';
import type { Ctx } from '../../context.js';
import type { RecordOrigin } from '../../local/store-types.js';
import type { Frames } from '../../media/frames.js';
import type { ClipInfo } from '../../media/probe.js';
import type { SceneJson } from '../../media/scene.js';
import { prepareVideo, setScene, videoScene } from '../../media/video.js';
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

export async function runScene(ctx: Ctx, run: LocateRun, scene: SceneSettings, deps: SceneDeps): Promise<SceneResult> {
  const batchOf = (extra: Partial<LocateRun['settings']['batch']>) => ({ ...run, settings: { ...run.settings, batch: { ...run.settings.batch, ...extra } } });
  const src = scene.source;
  if (src.kind === 'set') {
    let set: string | undefined;
    const onEvent = (e: BatchEvent) => {
      if (e.type === 'finished' && e.origin && 'set' in e.origin) set = (e.origin as Extract<RecordOrigin, { set: unknown }>).set.id;
      deps.onEvent?.(e);
    };
    const batch = await runLocate(ctx, batchOf({ together: true }), { ...deps, onEvent });
    return { batch, scene: setScene(set ?? 'set', batch.records, batch.plan.depth, scene.agreeKm) };
  }
  const video = await prepareVideo(ctx.env, src, { signal: deps.signal ?? ctx.signal, ...(deps.note ? { note: deps.note } : {}) });
  const batch = await runLocate(ctx, batchOf({ inputs: [src.input], frames: video.inputs }), deps);
  return { batch, frames: video.frames, clip: video.clip, scene: videoScene(video, batch.records, batch.plan.depth, scene.agreeKm) };
}
