/**
 * The frames of a video and the photos of a set as the store holds them: each is a
 * result row of its own, marked by its provenance record's `video` or `set` field and filed under
 * the batch that sent it. `geo history` and `geo export` gather them back into one entry per video
 * or set, with these reads (no schema change: the marks are read from the record):
 * - newestTagged: rows newest first on the time index, each with its batch and mark, streamed, so
 *   history reads only as far as its entries need;
 * - tagsOf: the same marks for rows found another way (the full-text search);
 * - batchStarts: when each batch first ran. No answer of a batch is stored before its row is
 *   written (batch/run.ts saves it before sending), so a scan newest first that has passed that
 *   time has met every frame the batch stored;
 * - sinceInBatch: a batch's rows from that time on (the time index, then the batch column);
 * - resultsByIds: whole results, 500 ids a query, in id order.
 */
import { FULL_COLUMNS, type FullRow, LIST_COLUMNS, type ResultRow, type StoredResult, toStored } from './results.js';
import type { Sql } from './sqlite.js';

export interface Tag {
  id: number;
  batch: string | null;
  /** The record's `video` / `set` field as JSON text, or null. */
  video_json: string | null;
  set_json: string | null;
}
export type TaggedRow = ResultRow & Tag;

const TAGS = "batch, json_extract(record, '$.video') AS video_json, json_extract(record, '$.set') AS set_json";
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}
const marks = (n: number) => Array.from({ length: n }, () => '?').join(',');

/** Listed rows, newest first, one at a time (stop reading whenever enough were seen). */
export function newestTagged(sql: Sql): Generator<TaggedRow> {
  return sql.iterate<TaggedRow>(`SELECT ${LIST_COLUMNS}, ${TAGS} FROM results WHERE listed = 1 ORDER BY stored_at DESC, id DESC`);
}

export function tagsOf(sql: Sql, ids: readonly number[]): Map<number, Tag> {
  const out = new Map<number, Tag>();
  for (const c of chunks(ids)) for (const t of sql.all<Tag>(`SELECT id, ${TAGS} FROM results WHERE id IN (${marks(c.length)})`, ...c)) out.set(t.id, t);
  return out;
}

/** Batch id -> when it first ran (ms). */
export function batchStarts(sql: Sql, ids: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of chunks(ids)) for (const b of sql.all<{ id: string; created_at: number }>(`SELECT id, created_at FROM batches WHERE id IN (${marks(c.length)})`, ...c)) out.set(b.id, b.created_at);
  return out;
}

/** A batch's listed rows stored at or after `since` (ISO), newest first. */
export function sinceInBatch(sql: Sql, batch: string, since: string): TaggedRow[] {
  return sql.all<TaggedRow>(`SELECT ${LIST_COLUMNS}, ${TAGS} FROM results WHERE stored_at >= ? AND batch = ? AND listed = 1 ORDER BY stored_at DESC, id DESC`, since, batch);
}

export function resultsByIds(sql: Sql, ids: readonly number[]): StoredResult[] {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  return chunks(sorted).flatMap((c) => sql.all<FullRow>(`SELECT ${FULL_COLUMNS} FROM results WHERE id IN (${marks(c.length)}) ORDER BY id`, ...c).map(toStored));
}
