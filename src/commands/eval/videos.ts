/**
 * `geo eval clip.mp4 --truth truth.csv`: each video is located as `geo locate clip.mp4`
 * does it (its frames through the same batch engine, one batch per depth for all the videos), then
 * scored twice against the video's truth: every frame on its own, and the consensus, one answer
 * per video. Side by side, they show what the consensus buys.
 */
import type { Depth } from '../../api/schemas.js';
import type { BatchRecord } from '../../batch/types.js';
import type { Ctx } from '../../context.js';
import { UsageError } from '../../errors.js';
import { type EvalRow, rowOf } from '../../eval/evaluate.js';
import { haversineKm } from '../../places/distance.js';
import type { TruthPoint } from '../../eval/truth.js';
import type { ClusterJson } from '../../media/scene.js';
import { type PreparedVideo, prepareVideo, videoScene } from '../../media/video.js';
import type { EvalWork } from './batches.js';
import type { EvalImage } from './images.js';
import type { EvalSettings } from './options.js';

export interface EvalVideo extends EvalImage {
  prepared: PreparedVideo;
}

/** Frames chosen and extracted for every video (local and free), and the work the batches send. */
export async function prepareVideos(ctx: Ctx, s: EvalSettings, videos: readonly EvalImage[], images: number, say: (l: string) => void): Promise<{ videos: EvalVideo[]; work: EvalWork }> {
  if (images > 0) throw new UsageError('evaluate videos and photos in separate runs', 'geo eval clip.mp4 --truth truth.csv, then geo eval photos/');
  const prepared: EvalVideo[] = [];
  for (const v of videos) prepared.push({ ...v, prepared: await prepareVideo(ctx.env, { input: v.input, path: v.path, ...s.video }, { signal: ctx.signal, note: say, ...(ctx.children ? { host: ctx.children } : {}) }) });
  const frames = prepared.flatMap((v) => v.prepared.inputs);
  return { videos: prepared, work: { inputs: prepared.map((v) => v.path), frames, what: `${frames.length} frames of ${videos.length} video${videos.length === 1 ? '' : 's'}` } };
}

/** Rows of one depth's batch: each frame against its video's truth, then each video's consensus (marked). */
export function videoRows(videos: readonly EvalVideo[], records: readonly BatchRecord[], depth: Depth, s: EvalSettings): { frames: EvalRow[]; consensus: EvalRow[] } {
  const byInput = new Map(records.map((r) => [r.input, r]));
  const frames: EvalRow[] = [];
  const consensus: EvalRow[] = [];
  for (const v of videos) {
    for (const f of v.prepared.inputs) {
      const rec = byInput.get(f.input);
      if (rec) frames.push(rowOf(rec, v.truth, depth, s.correctWithinKm));
    }
    consensus.push(consensusRow(v.input, v.truth, videoScene(v.prepared, records, depth, s.agreeKm).consensus, depth, s.correctWithinKm, v.prepared.sha256));
  }
  return { frames, consensus };
}

/** A video's or a set's consensus as one answer: its confidence is the share of its answers that agree. */
export function consensusRow(input: string, truth: TruthPoint, c: ClusterJson | null, depth: Depth, correctWithinKm: number, sha256: string | null): EvalRow {
  const error = c ? haversineKm(truth.lat, truth.lng, c.lat, c.lng) : null;
  return {
    input, truth, estimate: c ? { lat: c.lat, lng: c.lng } : null, error_km: error, confidence: c ? c.agree / c.of : null,
    correct: error === null ? null : error <= correctWithinKm, depth, sha256,
    ...(c ? {} : { error: { code: 'no_consensus', message: 'nothing was answered with a location' } }),
  };
}
