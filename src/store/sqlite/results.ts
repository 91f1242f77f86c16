/**
 * Results: every paid answer, its raw bytes exactly as received, and its provenance record.
 *
 * A row keeps the record as JSON without the body (the raw bytes are the body; the parsed body is
 * stored beside them only when geo read it differently, e.g. "48.85" as 48.85), so a result costs
 * its raw size plus about a kilobyte. The columns are what history, search, reuse and export ask
 * by, each on an index: no question reads the whole store.
 */
import type { ProvenanceRecord, ResultBody, ResultColumns as AnswerColumns } from '../../evidence/record-types.js';
import { isResultBody, resultColumns } from '../../evidence/record-types.js';
import { bodyText, rawB64 } from '../../api/decode.js';
import { canonicalRequest } from '../canonical.js';
import type { Sql } from './sqlite.js';
import type { NewResult, ResultRow, ReuseQuery, ReuseRef, StoredResult } from '../result-rows.js';

export const LIST_COLUMNS = 'id, stored_at, input_path, sha256, city, neighborhood, country, address, latitude, longitude, confidence, depth, analysis_id, charge, origin, sandbox';

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The body as JSON text, unless it is exactly what parsing the raw text gives (then it is not kept twice). */
function bodyToKeep(body: unknown, raw: string | undefined): string | null {
  const mine = JSON.stringify(body);
  if (raw === undefined) return mine ?? null;
  try {
    return JSON.stringify(JSON.parse(raw)) === mine ? null : (mine ?? null);
  } catch {
    return mine ?? null;
  }
}

/**
 * A result's row, as both engines store it: every column, and the words the full-text index holds
 * (input path, place names, reasoning, analysis id). One function, so the local file and a team
 * store file the same answer under the same columns.
 */
export interface ResultColumns extends AnswerColumns {
  stored_at: string;
  sha256: string | null;
  input_path: string;
  origin: string;
  account: string | null;
  sandbox: number;
  request: string;
  idem_key: string | null;
  batch: string | null;
  status: number | null;
  usable: number;
  listed: number;
  charge: string;
  raw: Buffer | null;
  body: string | null;
  record: string;
  imported_from: string | null;
}
export const RESULT_COLUMNS = 'stored_at, sha256, input_path, analysis_id, origin, account, sandbox, request, idem_key, batch, status, usable, listed, charge, depth, city, neighborhood, country, address, latitude, longitude, confidence, raw, body, record, imported_from';

const COLS = RESULT_COLUMNS.split(', ') as Array<keyof ResultColumns>;
const INSERT_RESULT = `INSERT INTO results (${RESULT_COLUMNS}) VALUES (${COLS.map(() => '?').join(', ')})`;

export interface SearchText {
  input: string;
  places: string;
  reasoning: string;
  aid: string;
}

/** The words a stored body is found by (`geo history --search`). */
export function searchTextOf(inputPath: string, body: unknown): SearchText {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const loc = (typeof b.location === 'object' && b.location !== null ? b.location : {}) as Record<string, unknown>;
  const places = [loc.neighborhood, loc.city, loc.country, loc.address].filter((v) => typeof v === 'string').join(' ');
  return { input: inputPath, places, reasoning: text(b.reasoning) ?? '', aid: text(b.analysis_id) ?? '' };
}

export function resultColumnsOf(r: NewResult): { row: ResultColumns; search: SearchText } {
  const rec = r.record;
  // The BLOB is the body's bytes as received; raw_b64 (a record that kept bytes its text could not
  // give back) is not kept twice: it is made again from the BLOB when read.
  const { raw: rawText, raw_b64: rawBase64, body: _body, ...response } = rec.response;
  const raw = r.rawBytes ?? (rawBase64 !== undefined ? Buffer.from(rawBase64, 'base64') : rawText !== undefined ? Buffer.from(rawText, 'utf8') : null);
  const body = (rec.response.body ?? {}) as Record<string, unknown>;
  const col = resultColumns(body, rec.request);
  const slim = { ...rec, response };
  const replayed = rec.headers?.idempotent_replayed;
  const usable = rec.unusable === undefined && isResultBody(rec.response.body);
  const row: ResultColumns = {
    stored_at: rec.stored_at, sha256: rec.input.sha256 || null, input_path: rec.input.path ?? '', analysis_id: col.analysis_id, origin: r.origin ?? rec.cli?.base_url ?? '',
    account: rec.account ?? null, sandbox: r.sandbox ? 1 : 0, request: canonicalRequest(rec.request ?? {}), idem_key: r.unkeyed ? null : (rec.idempotency_key ?? null),
    batch: r.batch ?? null, status: rec.response.status ?? null, usable: usable ? 1 : 0, listed: r.listed ? 1 : 0,
    // A copy's reuse of an earlier answer (--reuse-similar) paid nothing and holds no answer: marked so.
    charge: rec.reused_similar ? 'reused_similar' : replayed === true ? 'replayed' : replayed === false ? 'paid' : 'unknown',
    depth: col.depth, city: col.city, neighborhood: col.neighborhood, country: col.country, address: col.address, latitude: col.latitude, longitude: col.longitude, confidence: col.confidence,
    raw, body: bodyToKeep(rec.response.body, raw ? bodyText(raw) : rawText), record: JSON.stringify(slim), imported_from: r.importedFrom ?? null,
  };
  return { row, search: searchTextOf(row.input_path, body) };
}

/** Writes one result; returns its id. An answer already stored under its idempotency key is not stored twice. */
export function insertResult(sql: Sql, r: NewResult): number {
  const { row, search } = resultColumnsOf(r);
  return sql.tx(() => {
    if (row.idem_key !== null) {
      const had = sql.one<{ id: number }>('SELECT id FROM results WHERE idem_key = ?', row.idem_key);
      if (had) return had.id;
    }
    const { lastInsertRowid: id } = sql.run(INSERT_RESULT, ...COLS.map((c) => row[c]));
    sql.run('INSERT INTO results_fts (rowid, input, places, reasoning, aid) VALUES (?, ?, ?, ?, ?)', id, search.input, search.places, search.reasoning, search.aid);
    return id;
  });
}

/** The EXIF check is computed after the answer is stored (it reads the file again): added here. */
export function setExif(sql: Sql, id: number, exif: unknown): void {
  const row = sql.one<{ record: string }>('SELECT record FROM results WHERE id = ?', id);
  if (!row) return;
  const rec = JSON.parse(row.record) as ProvenanceRecord;
  sql.run('UPDATE results SET record = ? WHERE id = ?', JSON.stringify({ ...rec, exif }), id);
}

export interface FullRow {
  id: number;
  record: string;
  raw: Buffer | null;
  body: string | null;
  sandbox: number;
  batch: string | null;
  listed: number;
}
export const FULL_COLUMNS = 'id, record, raw, body, sandbox, batch, listed';

/** The provenance record back, with the raw text and the parsed body. */
export function toStored(row: FullRow): StoredResult {
  const rec = JSON.parse(row.record) as ProvenanceRecord;
  const bytes = row.raw === null ? undefined : Buffer.from(row.raw);
  const raw = bytes === undefined ? undefined : bodyText(bytes);
  const b64 = rawB64(raw, bytes);
  let body: unknown = null;
  if (row.body !== null) body = JSON.parse(row.body);
  else if (raw !== undefined) {
    try {
      body = JSON.parse(raw);
    } catch {
      body = raw;
    }
  }
  // The sandbox column goes back onto the record, so every view and export reads it from the record
  // itself (evidence/simulated.ts); a record that says so already keeps saying so.
  const record = {
    ...rec, response: { ...rec.response, body: body as ResultBody, ...(raw !== undefined ? { raw } : {}), ...(b64 !== undefined ? { raw_b64: b64 } : {}) },
    ...(row.sandbox === 1 ? { sandbox: true } : {}),
  };
  return { id: row.id, record, sandbox: row.sandbox === 1 || rec.sandbox === true, batch: row.batch, listed: row.listed === 1, raw: row.raw === null ? null : Buffer.from(row.raw) };
}

export function getResult(sql: Sql, id: number): StoredResult | undefined {
  const row = sql.one<FullRow>(`SELECT ${FULL_COLUMNS} FROM results WHERE id = ?`, id);
  return row ? toStored(row) : undefined;
}

/** Listed results, newest first (by when each answer was received; imported ones keep their time). */
export function newestRows(sql: Sql, limit: number): ResultRow[] {
  return sql.all<ResultRow>(`SELECT ${LIST_COLUMNS} FROM results WHERE listed = 1 ORDER BY stored_at DESC, id DESC LIMIT ?`, limit);
}

/** How many listed results there are (kept by a trigger: no count over a million rows). */
export function listedCount(sql: Sql): number {
  return Number(sql.one<{ value: string }>("SELECT value FROM meta WHERE name = 'listed_results'")?.value ?? 0);
}

/**
 * How many results a search matches (at most the LIMIT): counted in the full-text index alone, less
 * the unlisted results (a small partial index, migration 6). Reading each match's row for its
 * `listed` column cost one random page read per match (10,000 at a million results).
 */
export const SEARCH_COUNT = 'SELECT count(*) AS n FROM (SELECT rowid FROM results_fts WHERE results_fts MATCH ? LIMIT ?) WHERE rowid NOT IN (SELECT id FROM results WHERE listed = 0)';

/**
 * Full-text search: the words of `text`, as one phrase whose last word may be a prefix ("pari"
 * finds Paris; "img 001" finds img_001.jpg), over input path, place names, reasoning and analysis
 * id. Newest first; `total` stops counting at `countCap`.
 */
export function searchRows(sql: Sql, text: string, limit: number, countCap = 10_000): { rows: ResultRow[]; total: number; capped: boolean } {
  const words = text.normalize('NFKC').split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  if (words.length === 0) return { rows: newestRows(sql, limit), total: listedCount(sql), capped: false };
  const match = `"${words.join(' ').replace(/"/g, '""')}"*`;
  const rows = sql.all<ResultRow>(
    `SELECT ${LIST_COLUMNS} FROM results WHERE id IN (SELECT rowid FROM results_fts WHERE results_fts MATCH ? ORDER BY rowid DESC LIMIT ?) AND listed = 1 ORDER BY stored_at DESC, id DESC`,
    match, limit * 2 + 10,
  ).slice(0, limit);
  const total = Number(sql.one<{ n: number }>(SEARCH_COUNT, match, countCap + 1)?.n ?? 0);
  return { rows, total: Math.min(total, countCap), capped: total > countCap };
}

/** Listed results of images whose sha256 starts with `prefix` (hex), newest first. */
export function bySha(sql: Sql, prefix: string): StoredResult[] {
  const p = prefix.toLowerCase();
  // A range, so the index answers a prefix: [p, p + 'g') holds every hex string starting with p.
  return sql.all<FullRow>(`SELECT ${FULL_COLUMNS} FROM results WHERE sha256 >= ? AND sha256 < ? AND listed = 1 ORDER BY id DESC`, p, `${p}g`).map(toStored);
}

export function byAnalysisId(sql: Sql, id: string): StoredResult[] {
  return sql.all<FullRow>(`SELECT ${FULL_COLUMNS} FROM results WHERE analysis_id = ? AND listed = 1 ORDER BY id DESC`, id).map(toStored);
}

/** The distinct images (sha256) whose hash starts with `prefix`, at most `n`. */
export function imagesWithPrefix(sql: Sql, prefix: string, n: number): string[] {
  const p = prefix.toLowerCase();
  return sql.all<{ sha256: string }>('SELECT DISTINCT sha256 FROM results WHERE sha256 >= ? AND sha256 < ? AND listed = 1 LIMIT ?', p, `${p}g`, n).map((r) => r.sha256);
}

/** The newest usable 200 answer for this image, request, service and account (reuse). */
export function reusable(sql: Sql, q: ReuseQuery): ReuseRef | undefined {
  return sql.one<ReuseRef>(
    `SELECT id, batch, stored_at, depth, analysis_id, json_extract(record, '$.sent.metadata') AS sent_metadata FROM results
     WHERE sha256 = ? AND account = ? AND origin = ? AND request = ? AND status = 200 AND usable = 1 AND listed = 1 AND stored_at >= ? ORDER BY id DESC LIMIT 1`,
    q.sha256, q.account, q.origin, typeof q.request === 'string' ? q.request : canonicalRequest(q.request), q.since ?? '',
  );
}

/** reusable() for many images at once, one query per 500 (a batch plan's look-up): sha256 -> newest answer. */
export function reusableMany(sql: Sql, shas: readonly string[], q: Omit<ReuseQuery, 'sha256'>): Map<string, ReuseRef> {
  const out = new Map<string, ReuseRef>();
  const request = typeof q.request === 'string' ? q.request : canonicalRequest(q.request);
  for (let i = 0; i < shas.length; i += 500) {
    const chunk = shas.slice(i, i + 500);
    const rows = sql.all<ReuseRef & { sha256: string }>(
      `SELECT id, sha256, batch, stored_at, depth, analysis_id, json_extract(record, '$.sent.metadata') AS sent_metadata FROM results
       WHERE sha256 IN (${chunk.map(() => '?').join(',')}) AND account = ? AND origin = ? AND request = ? AND status = 200 AND usable = 1 AND listed = 1 AND stored_at >= ?`,
      ...chunk, q.account, q.origin, request, q.since ?? '',
    );
    for (const r of rows) if (!out.has(r.sha256) || out.get(r.sha256)!.id < r.id) out.set(r.sha256, r);
  }
  return out;
}

/**
 * Every listed, usable result, oldest first, one row at a time; sandbox answers only when asked;
 * with latestPerImage, only each image's newest run (answers of URLs, which have no sha256, all).
 * The newest run per image is found from the sha256 index alone, its ids kept in one typed array
 * (8 bytes a result), then the rows are read in id order: memory does not grow with what the rows
 * hold, and SQLite builds no temporary table of a million entries.
 */
export function* iterateResults(sql: Sql, opts: { includeSandbox: boolean; latestPerImage?: boolean }): Generator<StoredResult> {
  const where = `listed = 1 AND usable = 1 ${opts.includeSandbox ? '' : 'AND sandbox = 0'}`;
  if (!opts.latestPerImage) {
    for (const row of sql.iterate<FullRow>(`SELECT ${FULL_COLUMNS} FROM results WHERE ${where} ORDER BY id`)) yield toStored(row);
    return;
  }
  let ids = new Float64Array(1024);
  let n = 0;
  const keep = (id: number) => {
    if (n === ids.length) {
      const grown = new Float64Array(ids.length * 2);
      grown.set(ids);
      ids = grown;
    }
    ids[n++] = id;
  };
  let sha: string | null = null;
  let newest = 0;
  for (const r of sql.iterate<{ sha256: string | null; id: number }>(`SELECT sha256, id FROM results WHERE ${where} ORDER BY sha256`)) {
    if (r.sha256 === null) keep(r.id);
    else if (r.sha256 !== sha) {
      if (sha !== null) keep(newest);
      sha = r.sha256;
      newest = r.id;
    } else if (r.id > newest) newest = r.id;
  }
  if (sha !== null) keep(newest);
  const sorted = ids.subarray(0, n).sort();
  for (let i = 0; i < n; i += 500) {
    const chunk = Array.from(sorted.subarray(i, i + 500));
    for (const row of sql.all<FullRow>(`SELECT ${FULL_COLUMNS} FROM results WHERE id IN (${chunk.map(() => '?').join(',')}) ORDER BY id`, ...chunk)) yield toStored(row);
  }
}

/** How many listed, usable sandbox results exist (export --all says how many it left out). */
export function sandboxCount(sql: Sql): number {
  return Number(sql.one<{ n: number }>('SELECT count(*) AS n FROM results WHERE listed = 1 AND usable = 1 AND sandbox = 1')?.n ?? 0);
}
