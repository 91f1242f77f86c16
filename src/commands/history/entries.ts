/**
 * `geo history` lists a video as one entry with its frames, and photos located --together as one
 * entry with its photos (issue 23), instead of one unrelated row per answer. An entry's point is
 * the consensus of its answers (media/consensus.ts, as locate computed it, at the default
 * --agree-km), `agree` of `of` its answers agree, and its frames are listed inside it.
 *
 * Cost (bench/store.mjs): rows are read newest first on the time index as before, each with its
 * batch and mark (store/scenes.ts). Once the page holds --limit entries, reading goes on only while
 * a listed video or set may still have older answers: back to when its batch first ran, and at
 * most MAX_EXTRA rows. Then the answers of the listed videos and sets are read, 500 a query. No
 * query is made per row, and a history without videos reads exactly the rows it lists, plus one.
 */
import { haversineKm } from '../../local/distance.js';
import { consensus } from '../../media/consensus.js';
import { DEFAULT_AGREE_KM } from '../../media/options.js';
import { answerOf, clusterNumbers } from '../../media/scene.js';
import { membersOf, newestPerFrame, sceneKey, setOf, videoInput, videoOf } from '../../media/stored.js';
import type { HistoryFrame, HistoryRow } from '../../output/views/history.js';
import type { ResultRow, Store, StoredResult, Tag, TaggedRow } from '../../store/index.js';
import { LONE, historyRow, historyRowOf } from './rows.js';

/** Rows read past a full page, at most, to complete its videos and sets. */
export const MAX_EXTRA = 10_000;

interface Group {
  key: string;
  /** Newest first. */
  rows: TaggedRow[];
}
type Slot = TaggedRow | Group;

function parsed(json: string | null): unknown {
  try {
    return json === null ? undefined : (JSON.parse(json) as unknown);
  } catch {
    return undefined;
  }
}
const keyOf = (t: Tag) => sceneKey(t.batch, parsed(t.video_json), parsed(t.set_json));

/** The ISO time before which no answer of these groups was stored; null when there is none to wait for. */
function floorOf(store: Store, groups: readonly Group[]): string | null {
  if (groups.length === 0) return null;
  const batches = groups.map((g) => g.rows[0]!.batch);
  const starts = store.batchStarts([...new Set(batches.filter((b): b is string => b !== null))]);
  const known = batches.map((b) => (b === null ? undefined : starts.get(b)));
  // A batch the store does not know bounds nothing: read on, up to MAX_EXTRA rows.
  if (known.some((t) => t === undefined)) return '';
  return new Date(Math.min(...(known as number[]))).toISOString();
}

/** The newest `limit` entries: a lone result, or a video or a set with all its answers. */
export function newestEntries(store: Store, limit: number): HistoryRow[] {
  const slots: Slot[] = [];
  const groups = new Map<string, Group>();
  let floor: string | null | undefined;
  let extra = 0;
  for (const row of store.newestTagged()) {
    const key = keyOf(row);
    const open = key === undefined ? undefined : groups.get(key);
    if (open) open.rows.push(row);
    else if (slots.length < limit) {
      const slot = key === undefined ? row : { key, rows: [row] };
      if (key !== undefined) groups.set(key, slot as Group);
      slots.push(slot);
    } else {
      floor ??= floorOf(store, [...groups.values()]);
      if (floor === null || row.stored_at < floor || ++extra > MAX_EXTRA) break;
    }
  }
  return entriesOf(store, slots);
}

/** Rows the full-text search found, as entries: a video's entry holds its frames that match. */
export function searchedEntries(store: Store, rows: readonly ResultRow[]): HistoryRow[] {
  const tags = store.tagsOf(rows.map((r) => r.id));
  const slots: Slot[] = [];
  const groups = new Map<string, Group>();
  for (const r of rows) {
    const row = { ...r, ...(tags.get(r.id) ?? { batch: null, video_json: null, set_json: null }) } as TaggedRow;
    const key = keyOf(row);
    const open = key === undefined ? undefined : groups.get(key);
    if (open) open.rows.push(row);
    else if (key === undefined) slots.push(row);
    else {
      const g = { key, rows: [row] };
      groups.set(key, g);
      slots.push(g);
    }
  }
  return entriesOf(store, slots);
}

function entriesOf(store: Store, slots: readonly Slot[]): HistoryRow[] {
  const grouped = slots.filter((s): s is Group => 'key' in s);
  const byId = new Map(store.resultsByIds(grouped.flatMap((g) => g.rows.map((r) => r.id))).map((s) => [s.id, s]));
  return slots.map((s) => ('key' in s ? groupEntry(s, byId) : historyRow(s)));
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
  const v = videoOf(parsed(newest.video_json));
  return {
    stored_at: newest.stored_at, input: v ? videoInput(newest.input_path) : (setOf(parsed(newest.set_json))?.id ?? ''), sha256: v?.sha256 ?? '',
    city: near?.city ?? '', neighborhood: near?.neighborhood ?? '', country: near?.country ?? '', address: near?.address ?? '',
    latitude: top?.lat ?? null, longitude: top?.lng ?? null, confidence: null, depth: newest.depth, analysis_id: null,
    charge: charge(g.rows), base_url: newest.origin, sandbox: g.rows.some((r) => r.sandbox === 1),
    ...LONE, kind: v ? 'video' : 'set', frames, agree: top?.agree ?? null, of: top ? c.n : null, spread_km: top?.spread_km ?? null, batch: newest.batch,
  };
}
