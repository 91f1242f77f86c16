/**
 * What `geo eval` sends, and how its answers are scored: images (one batch per
 * depth), or the frames of videos (one batch per depth for all of them), or, with --together, sets
 * of photos (one batch per set and depth). Each kind's inputs are checked and their truths found
 * before anything is planned; the rows come back per image, and per video or set its consensus.
 */
import type { Ctx } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { EvalRow } from '../../eval/evaluate.js';
import { rowOf } from '../../eval/evaluate.js';
import type { Truth } from '../../eval/truth.js';
import type { DepthRun, EvalWork } from './batches.js';
import { type EvalImage, selectImages } from './images.js';
import type { EvalSettings } from './options.js';
import { selectSets, setRows, setWorks } from './sets.js';
import { prepareVideos, videoRows } from './videos.js';

type Say = (line: string) => void;

export interface Scored {
  rows: EvalRow[];
  /** One row per video or set: its consensus. */
  consensus?: EvalRow[];
  kind?: 'video' | 'set';
}

export interface Work {
  works: EvalWork[];
  score(runs: readonly DepthRun[]): Scored;
}

/** One row per image and depth, in depth then input order, named as the user named the image. */
function rowsOf(runs: readonly DepthRun[], images: readonly EvalImage[], correctWithinKm: number): EvalRow[] {
  const byPath = new Map(images.map((i) => [i.path, i]));
  return runs.flatMap(({ depth, result }) => result.records.flatMap((rec) => {
    const img = byPath.get(rec.input);
    return img ? [{ ...rowOf(rec, img.truth, depth, correctWithinKm), input: img.input }] : [];
  }));
}

function listAside(say: Say, sel: { unusable: Array<{ input: string; why: string }>; untruthed: Array<{ input: string; why: string }> }): void {
  for (const u of sel.unusable) say(`skipped ${u.input}: ${u.why}; not sent`);
  for (const u of sel.untruthed) say(`no truth: ${u.input}: ${u.why}; skipped, not sent`);
}

export async function evalWork(ctx: Ctx, s: EvalSettings, cwd: string, truth: Truth | undefined, say: Say): Promise<Work> {
  if (s.together) {
    const sel = await selectSets(s.inputs, { cwd, ...(truth ? { truth } : {}) });
    listAside(say, sel);
    if (sel.sets.length === 0) throw new UsageError('no set of photos has a known position: nothing to evaluate, nothing sent', 'each folder needs a row of --truth naming it: folder,lat,lng');
    return {
      works: setWorks(sel.sets),
      score: (runs) => {
        const bySet = runs.map((r) => setRows(sel.sets[r.work]!, r.result.records, r.depth, s));
        return { rows: bySet.flatMap((b) => b.photos), consensus: bySet.map((b) => b.consensus), kind: 'set' };
      },
    };
  }
  const sel = await selectImages(s.inputs, { cwd, ...(s.fromFile !== undefined ? { fromFile: s.fromFile } : {}), ...(truth ? { truth } : {}) });
  listAside(say, sel);
  if (sel.images.length === 0 && sel.videos.length === 0) throw new UsageError('no image has a known position: nothing to evaluate, nothing sent', 'images need EXIF GPS, or give --truth FILE (CSV file,lat,lng or GeoJSON)');
  if (sel.videos.length > 0) {
    const videos = await prepareVideos(ctx, s, sel.videos, sel.images.length, say);
    return {
      works: [videos.work],
      score: (runs) => {
        const byDepth = runs.map((r) => videoRows(videos.videos, r.result.records, r.depth, s));
        return { rows: byDepth.flatMap((b) => b.frames), consensus: byDepth.flatMap((b) => b.consensus), kind: 'video' };
      },
    };
  }
  return {
    works: [{ inputs: sel.images.map((i) => i.path), what: `${sel.images.length} image${sel.images.length === 1 ? '' : 's'}` }],
    score: (runs) => ({ rows: rowsOf(runs, sel.images, s.correctWithinKm) }),
  };
}
