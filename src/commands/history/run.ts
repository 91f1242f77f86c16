/**
 * `geo history`: the store read back (src/store/): the local file, or a team's store.
 * No client is made, so no key is needed and nothing is charged. Every question is one indexed query, so it
 * answers as fast with a million results as with ten (bench/store.mjs).
 */
import type { Ctx } from '../../context.js';
import { UsageError } from '../../errors.js';
import { wholeNumber } from '../../flags.js';
import { expandSamples } from '../../files/samples.js';
import type { ProvenanceRecord } from '../../evidence/records.js';
import { type StoredScene, findResultsOrScene } from '../../media/find-scene.js';
import { agreeKmOf } from '../../media/options.js';
import type { HistoryRow } from '../../output/views/history.js';
import { findStored } from '../../store/find.js';
import type { StoredResult } from '../../store/index.js';
import { newestEntries, searchedEntries } from './entries.js';

export { historyRow, historyRowOf } from './rows.js';

export const DEFAULT_LIMIT = 50;

export function parseHistoryLimit(v: unknown): number {
  if (v === undefined) return DEFAULT_LIMIT;
  const n = /^\d+$/.test(String(v)) ? Number(v) : Number.NaN;
  if (!(n >= 1)) throw new UsageError(`--limit must be a whole number of at least 1, got "${String(v)}"`, `for example --limit ${DEFAULT_LIMIT}`);
  return n;
}

/**
 * The newest entries (or those matching --search): a lone result, or a video or a set with its
 * answers (entries.ts). `results`: how many stored results the entries hold; `total`: how many are stored.
 */
export async function runHistory(ctx: Pick<Ctx, 'storeApi'>, opts: { search?: string; limit?: unknown }): Promise<{ rows: HistoryRow[]; results: number; total: number; capped: boolean }> {
  const limit = parseHistoryLimit(opts.limit);
  const store = await ctx.storeApi();
  const held = (rows: HistoryRow[]) => rows.reduce((n, r) => n + (r.frames?.length ?? 1), 0);
  if (opts.search !== undefined) {
    const found = await store.search(opts.search, limit);
    const rows = await searchedEntries(store, found.rows);
    return { rows, results: held(rows), total: found.total, capped: found.capped };
  }
  const rows = await newestEntries(store, limit);
  return { rows, results: held(rows), total: await store.count(), capped: false };
}

/** --depth of history show: 1, 2 or 3. */
export const depthFlag = (v: unknown): number | undefined => wholeNumber(v, '--depth', 1, 3, 'for example --depth 3');

/**
 * What `geo history show REF` shows: a video or a photo set (its consensus drawn again from the
 * stored answers; media/find-scene.ts), else the newest stored result REF names (at --depth N).
 * A hex REF is an image's sha256 prefix first, then a batch's id (what `geo history` lists for a
 * video or a set).
 */
export async function runHistoryShowAny(ctx: Pick<Ctx, 'storeApi'>, given: string, opts: { depth?: unknown; agreeKm?: unknown } = {}): Promise<{ scene: StoredScene } | { result: ShownResult }> {
  // sample:NAME names the file shipped with geo, as it does for locate.
  const samples = given.startsWith('sample:') ? expandSamples([given]) : [given];
  if (samples.length !== 1) throw new UsageError(`history show takes one result, and ${given} names ${samples.length}`, 'name one sample: sample:paris');
  const ref = samples[0]!;
  if (ref.trim() === '') throw new UsageError('history show needs a result', 'an image file, a sha256 prefix or an analysis id; geo history lists them');
  const depth = depthFlag(opts.depth);
  const found = await findResultsOrScene(await ctx.storeApi(), ref, { agreeKm: agreeKmOf(opts), ...(depth !== undefined ? { depth } : {}) });
  return 'scene' in found ? found : { result: newestRun(ref, found.results, depth) };
}

export interface ShownResult {
  record: ProvenanceRecord;
  runs: number;
  stored: StoredResult;
}

/** The newest stored result `ref` names (at --depth N when given), and how many runs of it are stored. */
export async function runHistoryShow(ctx: Pick<Ctx, 'storeApi'>, ref: string, opts: { depth?: unknown } = {}): Promise<ShownResult> {
  if (ref.trim() === '') throw new UsageError('history show needs a result', 'an image file, a sha256 prefix or an analysis id; geo history lists them');
  const depth = depthFlag(opts.depth);
  return newestRun(ref, await findStored(await ctx.storeApi(), ref, { files: true }), depth);
}

function newestRun(ref: string, all: StoredResult[], depth: number | undefined): ShownResult {
  const depthOf = (s: StoredResult) => {
    const d = (s.record.response.body as { depth?: unknown } | undefined)?.depth ?? s.record.request?.depth;
    return typeof d === 'number' ? d : undefined;
  };
  const runs = depth === undefined ? all : all.filter((s) => depthOf(s) === depth);
  if (runs.length === 0) {
    const have = [...new Set(all.map(depthOf).filter((d) => d !== undefined))].sort();
    throw new UsageError(`no stored result of ${ref} at depth ${depth}`, `stored at depth ${have.join(', ') || 'unknown'}: geo history show ${ref} --depth ${have[0] ?? 1}`);
  }
  return { record: runs[0]!.record, runs: runs.length, stored: runs[0]! };
}
