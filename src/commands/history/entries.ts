/**
 * `geo history` lists a video as one entry with its frames, and photos located --together as one
 * entry with its photos, instead of one unrelated row per answer. An entry's point is
 * the consensus of its answers (media/consensus.ts, as locate computed it, at the default
 * --agree-km), `agree` of `of` its answers agree, and its frames are listed inside it.
 *
 * Cost (bench/store.mjs): rows are read newest first on the time index as before, each with its
 * batch and mark (store/scenes.ts). Once the page holds --limit entries, reading goes on only while
 * a listed video or set may still have older answers: back to when its batch first ran, and at
 * most MAX_EXTRA rows. Then the answers of the listed videos and sets are read, 500 a query. No
 * query is made per row, and a history without videos reads exactly the rows it lists, plus one.
 */
import { haversineKm } from '../../places/distance.js';
import { consensus } from '../../media/consensus.js';
import { DEFAULT_AGREE_KM } from '../../media/options.js';
import { answerOf, clusterNumbers } from '../../media/scene.js';
import { parsedTag, tagSceneKey } from '../../media/find-scene.js';
import { membersOf, newestPerFrame, setOf, videoInput, videoOf } from '../../media/scene-records.js';
import type { HistoryFrame, HistoryRow } from '../../output/views/history.js';
import type { ResultRow, StoreApi, StoredResult, TaggedRow } from '../../store/index.js';
import { LONE, historyRow, historyRowOf } from './rows.js';
import { copyMarks } from './copies.js';

/** Rows read past a full page, at most, to complete its videos and sets. */
export const MAX_EXTRA = 10_000;

interface Group {
  key: string;
  /** Newest first. */
  rows: TaggedRow[];
}
type Slot = TaggedRow | Group;

/** The ISO time before which no answer of these groups was stored; null when there is none to wait for. */
async function floorOf(store: StoreApi, groups: readonly Group[]): Promise<string | null> {
  if (groups.length === 0) return null;
  const batches = groups.map((g) => g.rows[0]!.batch);
  const starts = await store.batchStarts([...new Set(batches.filter((b): b is string => b !== null))]);
  const known = batches.map((b) => (b === null ? undefined : starts.get(b)));
  // A batch the store does not know bounds nothing: read on, up to MAX_EXTRA rows.
  if (known.some((t) => t === undefined)) return '';
  return new Date(Math.min(...(known as number[]))).toISOString();
}

/** Entries as rows come: a lone result, or a video's (set's) group that later rows of it join. */
class Page {
  readonly slots: Slot[] = [];
  readonly groups = new Map<string, Group>();

  /** The row joins its video's (set's) entry when that is open; else, when there is room, starts one. False when neither. */
  add(row: TaggedRow, room: boolean): boolean {
    const key = tagSceneKey(row);
    const open = key === undefined ? undefined : this.groups.get(key);
    if (open) open.rows.push(row);
    else if (!room) return false;
    else if (key === undefined) this.slots.push(row);
    else {
      const g = { key, rows: [row] };
      this.groups.set(key, g);
      this.slots.push(g);
    }
    return true;
  }
}

/** The newest `limit` entries: a lone result, or a video or a set with all its answers. */
export async function newestEntries(store: StoreApi, limit: number): Promise<HistoryRow[]> {
  const page = new Page();
  let floor: string | null | undefined;
  let extra = 0;
  for await (const row of store.newestTagged()) {
    if (page.add(row, page.slots.length < limit)) continue;
    floor ??= await floorOf(store, [...page.groups.values()]);
    if (floor === null || row.stored_at < floor || ++extra > MAX_EXTRA) break;
  }
  return entriesOf(store, page.slots);
}

/** Rows the full-text search found, as entries: a video's entry holds its frames that match. */
export async function searchedEntries(store: StoreApi, rows: readonly ResultRow[]): Promise<HistoryRow[]> {
  const tags = await store.tagsOf(rows.map((r) => r.id));
  const page = new Page();
  for (const r of rows) page.add({ ...r, ...(tags.get(r.id) ?? { batch: null, video_json: null, set_json: null }) }, true);
  return entriesOf(store, page.slots);
}

async function entriesOf(store: StoreApi, slots: readonly Slot[]): Promise<HistoryRow[]> {
  const grouped = slots.filter((s): s is Group => 'key' in s);
  const byId = new Map((await store.resultsByIds(grouped.flatMap((g) => g.rows.map((r) => r.id)))).map((s) => [s.id, s]));
  // Who paid: one query for the page (a video's or a set's entry: its newest answer's analyst).
  const ids = slots.map((s) => ('key' in s ? s.rows[0]!.id : s.id));
  const paid = await store.paidBy(ids);
  // Copies of earlier results are marked (a lone result only: a video's frames are its own).
  const copies = await copyMarks(store, slots.flatMap((s) => ('key' in s ? [] : [s.id])));
  return slots.map((s, i) => {
    const copy = 'key' in s ? undefined : copies.get(s.id);
    return { ...('key' in s ? groupEntry(s, byId) : historyRow(s)), paid_by: paid.get(ids[i]!) ?? null, ...(copy ? { copy_of: copy } : {}) };
  });
}

function charge(rows: readonly TaggedRow[]): HistoryRow['charge'] {
  if (rows.some((r) => r.charge === 'paid')) return 'paid';
  return rows.every((r) => r.charge === 'replayed') ? 'replayed' : 'unknown';
}

function groupEntry(g: Group, byId: ReadonlyMap<number, StoredResult>): HistoryRow {
  const newest = g.rows[0]!;
  const kept = newestPerFrame(g.rows.flatMap((r) => byId.get(r.id) ?? []), (s) => s.record);
  const members = membersOf(kept.map((s) => s.record));
  const c = consensus(members.flatMap((m) => answerOf(m) ?? []), DEFAULT_AGREE_KM);
  const clusters = c.clusters.map((k, i) => clusterNumbers(k, i + 1, c.n));
  const top = clusters[0];
  const rows = kept.map(historyRowOf);
  const frames: HistoryFrame[] = kept.map((s, i) => {
    const r = rows[i]!;
    const v = videoOf(s.record.video);
    return {
      index: i, t_s: v ? v.t_ms / 1000 : null, input: r.input, sha256: r.sha256, stored_at: r.stored_at, latitude: r.latitude, longitude: r.longitude,
      confidence: r.confidence, analysis_id: r.analysis_id, charge: r.charge, cluster: clusters.find((k) => k.frames.includes(i))?.rank ?? null,
    };
  });
  // The place: the words of the agreeing answer nearest the consensus point.
  const distance = (i: number) => (top && rows[i]!.latitude !== null ? haversineKm(top.lat, top.lng, rows[i]!.latitude!, rows[i]!.longitude!) : Infinity);
  const near = top ? rows[[...top.frames].sort((a, b) => distance(a) - distance(b))[0]!] : undefined;
  const v = videoOf(parsedTag(newest.video_json));
  return {
    stored_at: newest.stored_at, input: v ? videoInput(newest.input_path) : (setOf(parsedTag(newest.set_json))?.id ?? ''), sha256: v?.sha256 ?? '',
    city: near?.city ?? '', neighborhood: near?.neighborhood ?? '', country: near?.country ?? '', address: near?.address ?? '',
    latitude: top?.lat ?? null, longitude: top?.lng ?? null, confidence: null, depth: newest.depth, analysis_id: null,
    charge: charge(g.rows), base_url: newest.origin, sandbox: g.rows.some((r) => r.sandbox === 1), paid_by: null,
    ...LONE, kind: v ? 'video' : 'set', frames, agree: top?.agree ?? null, of: top ? c.n : null, spread_km: top?.spread_km ?? null, batch: newest.batch,
  };
}
