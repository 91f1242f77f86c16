/**
 * `geo eval scene1/ scene2/ --together --truth truth.csv`: each folder is a set of
 * photos of one scene, located as `geo locate scene1/ --together` does it (one batch per set and
 * depth, so the same batch as locate's and its answers are reused both ways), then scored twice
 * against the set's truth, a row of the truth file naming the folder: every photo on its own, and
 * the set's consensus, one answer per set. Side by side, they show what the consensus buys.
 */
import { resolve } from 'node:path';
import type { Depth } from '../../api/schemas.js';
import { expandInputs } from '../../batch/inputs.js';
import type { BatchRecord } from '../../batch/types.js';
import { UsageError } from '../../errors.js';
import { type EvalRow, rowOf } from '../../eval/evaluate.js';
import type { Truth } from '../../eval/truth.js';
import { setScene } from '../../media/video.js';
import type { EvalWork } from './batches.js';
import { type EvalImage, unusableReason } from './images.js';
import type { EvalSettings } from './options.js';
import { consensusRow } from './videos.js';

export interface EvalSet extends EvalImage {
  /** Its photos, each scored against the set's truth. */
  photos: EvalImage[];
}

const HINT = 'geo eval --together takes folders, one per scene, each named by a row of --truth (folder,lat,lng)';

/** The sets (folders) with a truth row, each with its photos; the others listed with why. */
export async function selectSets(args: readonly string[], opts: { cwd: string; truth?: Truth }): Promise<{ sets: EvalSet[]; untruthed: Array<{ input: string; why: string }>; unusable: Array<{ input: string; why: string }> }> {
  if (!opts.truth) throw new UsageError('a set\'s true position comes from --truth FILE: a row naming its folder', HINT);
  const sets: EvalSet[] = [];
  const untruthed: Array<{ input: string; why: string }> = [];
  const unusable: Array<{ input: string; why: string }> = [];
  for (const arg of args) {
    const expanded = await expandInputs([arg], { cwd: opts.cwd });
    if (expanded.entries.some((e) => e.kind !== 'path' || !e.walked)) throw new UsageError(`${arg} is not a folder: with --together, each folder is one set of photos`, HINT);
    const path = resolve(opts.cwd, arg);
    const hit = opts.truth.lookup(path);
    if (!hit) {
      untruthed.push({ input: arg, why: 'no row of the --truth file names this folder' });
      continue;
    }
    const truth = { lat: hit.lat, lng: hit.lng };
    const photos: EvalImage[] = [];
    unusable.push(...expanded.skipped.map((s) => ({ input: s.path, why: s.reason })));
    for (const e of expanded.entries) {
      if (e.kind !== 'path') continue;
      const why = await unusableReason(e.path);
      if (why === undefined) photos.push({ input: e.input, path: e.path, truth });
      else unusable.push({ input: e.input, why });
    }
    if (photos.length > 0) sets.push({ input: arg, path, truth, photos });
  }
  return { sets, untruthed, unusable };
}

/** One batch per set (and depth): `geo locate FOLDER --together`. */
export function setWorks(sets: readonly EvalSet[]): EvalWork[] {
  return sets.map((s) => ({ inputs: [s.path], together: true, what: `${s.photos.length} photos of ${s.input}` }));
}

/** Rows of one set's batch at one depth: each photo against the set's truth, then the set's consensus. */
export function setRows(set: EvalSet, records: readonly BatchRecord[], depth: Depth, s: EvalSettings): { photos: EvalRow[]; consensus: EvalRow } {
  const byPath = new Map(records.map((r) => [r.input, r]));
  const photos = set.photos.flatMap((p) => {
    const rec = byPath.get(p.path);
    return rec ? [{ ...rowOf(rec, set.truth, depth, s.correctWithinKm), input: p.input }] : [];
  });
  const c = setScene(set.input, records.filter((r) => set.photos.some((p) => p.path === r.input)), depth, s.agreeKm).consensus;
  return { photos, consensus: consensusRow(set.input, set.truth, c, depth, s.correctWithinKm, null) };
}
