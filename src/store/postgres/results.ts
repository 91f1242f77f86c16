/**
 * Results on the team store: the local file's columns (sqlite/results.ts resultColumnsOf, one
 * function for both engines), who stored them (paid_role, the role the server authenticated,
 * written by its trigger whatever is sent: schema-roles.ts; paid_user and paid_host, what the
 * machine said; paid_at) and their words as a tsvector. Words are cut the way SQLite's unicode61 tokenizer cuts them (letters and digits, case
 * and diacritics folded) before PostgreSQL sees them, so `--search "img 001"` finds img_001.jpg on
 * both engines; the last word of a search is a prefix ("pari" finds Paris), as locally.
 */
import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
import type { Analyst, ResultRow, ReuseQuery, ReuseRef, StoredResult, Tag } from '../api.js';
import { PAID_COLUMNS, type Paid, type PaidColumns, type Seen, TAG_COLUMNS, paidOf } from './seen.js';
import { canonicalRequest } from '../canonical.js';
import { FULL_COLUMNS, type FullRow, LIST_COLUMNS, RESULT_COLUMNS, type ResultColumns, type SearchText, toStored } from '../sqlite/results.js';

type Q = Pick<PoolClient, 'query'>;

const COLS = RESULT_COLUMNS.split(', ') as Array<keyof ResultColumns>;
const EXTRA = ['content_sha', 'paid_user', 'paid_host'];
const n = COLS.length + EXTRA.length;
/**
 * The row and its words in one statement: a result is never stored without them. paid_at is the
 * server's now(), or when a pushed row was received (push.ts): set here, so no role needs UPDATE on it.
 */
const INSERT = `WITH r AS (INSERT INTO results (${[...COLS, ...EXTRA, 'paid_at'].join(', ')}) VALUES (${[...COLS, ...EXTRA].map((_, i) => `$${i + 1}`).join(', ')}, coalesce($${n + 1}::timestamptz, now())) ON CONFLICT DO NOTHING RETURNING id, listed)
  INSERT INTO results_search (id, listed, search) SELECT id, listed, to_tsvector('simple', $${n + 2}) FROM r RETURNING id`;

/** Letters and digits, lower case, diacritics removed: the words both engines index. */
export function words(text: string): string[] {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
}

export function searchDocument(s: SearchText): string {
  return words(`${s.input} ${s.places} ${s.reasoning} ${s.aid}`).join(' ');
}

/** What makes a row the same row wherever it was first stored (`geo store push` copies it once). */
export function contentSha(row: ResultColumns): string {
  return createHash('sha256').update(row.record).update('\0').update(row.raw ?? Buffer.alloc(0)).digest('hex');
}

/** The row stored, or the id it already has (same key, or same content): never twice. */
export async function storeRow(c: Q, row: ResultColumns, search: SearchText, who: Analyst, paidAt?: string): Promise<{ id: number; inserted: boolean }> {
  if (row.idem_key !== null) {
    const had = (await c.query<{ id: number }>('SELECT id FROM results WHERE idem_key = $1', [row.idem_key])).rows[0];
    if (had) return { id: had.id, inserted: false };
  }
  const sha = contentSha(row);
  const ins = await c.query<{ id: number }>(INSERT, [...COLS.map((k) => row[k]), sha, who.user, who.host, paidAt ?? null, searchDocument(search)]);
  if (ins.rows[0]) return { id: ins.rows[0].id, inserted: true };
  const r = await c.query<{ id: number }>('SELECT id FROM results WHERE content_sha = $1 OR (idem_key IS NOT NULL AND idem_key = $2)', [sha, row.idem_key]);
  return { id: r.rows[0]!.id, inserted: false };
}

export async function insertRow(c: Q, row: ResultColumns, search: SearchText, who: Analyst): Promise<number> {
  return (await storeRow(c, row, search, who)).id;
}

export async function newestRows<T extends ResultRow = ResultRow>(c: Q, limit: number, columns = LIST_COLUMNS): Promise<T[]> {
  return (await c.query<T>(`SELECT ${columns} FROM results WHERE listed = 1 ORDER BY stored_at DESC, id DESC LIMIT $1`, [limit])).rows;
}

/** The listed results' count as a column of a query: `geo history` lists a page and the count, in one round trip. */
export const LISTED_TOTAL = "(SELECT value FROM meta WHERE name = 'listed_results')";

export async function listedCount(c: Q): Promise<number> {
  return Number((await c.query<{ value: string }>(`SELECT ${LISTED_TOTAL} AS value`)).rows[0]?.value ?? 0);
}

/**
 * How far the team store counts a search's matches ("20 of 200+ matching"; the local file counts to
 * 10,000 from its FTS index alone). GIN cannot count without reading each match's heap row, and its
 * bitmap gathers every match before a LIMIT applies: at a million results, 62,500 Lisbons took
 * 120-150 ms to count to 1,001 however few were wanted (EXPLAIN ANALYZE, bench/team.mjs --keep).
 * Counted as the page is read instead (newest first, LIMIT cap + 1), the planner walks
 * results_search's primary key backwards for a common word and stops at the cap (11.7 ms to 201),
 * and takes the GIN bitmap for a rare one, which has few matches to gather (0.5-3 ms).
 */
export const PG_COUNT_CAP = 200;

/** A listed row with its tags and who paid (seen.ts: history asks for both next). */
export type SearchRow = ResultRow & Tag & PaidColumns;
export const SEARCH_COLUMNS = `${LIST_COLUMNS}, ${TAG_COLUMNS}, ${PAID_COLUMNS}`;

export async function searchRows(c: Q, text: string, limit: number, cap = PG_COUNT_CAP): Promise<{ rows: SearchRow[]; total: number; capped: boolean }> {
  // Never fewer than a page asks for: "--limit 500" counts to 500+.
  const countCap = Math.max(cap, limit);
  const w = words(text);
  if (w.length === 0) return { rows: await newestRows<SearchRow>(c, limit, SEARCH_COLUMNS), total: await listedCount(c), capped: false };
  const query = w.map((x, i) => (i === w.length - 1 ? `${x}:*` : x)).join(' <-> ');
  // One query, one walk of the matches (newest first, to the cap): they are counted, and the newest
  // of them are the page, listed as the local file lists them (sqlite/results.ts searchRows). A
  // second query to count walked the same matches again on another round trip: ~7 ms of a search.
  const found = (await c.query<SearchRow & { matched: string }>(
    `WITH m AS MATERIALIZED (SELECT id FROM results_search WHERE search @@ to_tsquery('simple', $1) AND listed = 1 ORDER BY id DESC LIMIT $2)
     SELECT ${SEARCH_COLUMNS}, (SELECT count(*) FROM m) AS matched FROM results WHERE id IN (SELECT id FROM m ORDER BY id DESC LIMIT $3) ORDER BY stored_at DESC, id DESC LIMIT $4`,
    [query, countCap + 1, limit * 2 + 10, limit],
  )).rows;
  // No match, no row: then the count is 0 too.
  const total = Number(found[0]?.matched ?? 0);
  const rows = found.map(({ matched: _, ...row }) => row);
  return { rows, total: Math.min(total, countCap), capped: total > countCap };
}

export async function getResult(c: Q, id: number): Promise<StoredResult | undefined> {
  const row = (await c.query<FullRow>(`SELECT ${FULL_COLUMNS} FROM results WHERE id = $1`, [id])).rows[0];
  return row ? toStored(row) : undefined;
}

/** `geo history show`'s look-ups: the results, each one's payer kept in `seen` (history show says who paid next). */
export async function bySha(c: Q, prefix: string, seen: Seen): Promise<StoredResult[]> {
  const p = prefix.toLowerCase();
  return (await c.query<FullRow & PaidColumns>(`SELECT ${FULL_COLUMNS}, ${PAID_COLUMNS} FROM results WHERE sha256 >= $1 AND sha256 < $2 AND listed = 1 ORDER BY id DESC`, [p, `${p}g`])).rows.map((r) => toStored(seen.keepPaid(r)));
}

export async function byAnalysisId(c: Q, id: string, seen: Seen): Promise<StoredResult[]> {
  return (await c.query<FullRow & PaidColumns>(`SELECT ${FULL_COLUMNS}, ${PAID_COLUMNS} FROM results WHERE analysis_id = $1 AND listed = 1 ORDER BY id DESC`, [id])).rows.map((r) => toStored(seen.keepPaid(r)));
}

export async function imagesWithPrefix(c: Q, prefix: string, n: number): Promise<string[]> {
  const p = prefix.toLowerCase();
  return (await c.query<{ sha256: string }>('SELECT DISTINCT sha256 FROM results WHERE sha256 >= $1 AND sha256 < $2 AND listed = 1 LIMIT $3', [p, `${p}g`, n])).rows.map((r) => r.sha256);
}

/** paid_by: null for the asker's own result (the role the server authenticated both times), else who paid: a colleague's is never "yours". */
const REUSE = "id, sha256, batch, stored_at, depth, analysis_id, (record::jsonb #>> '{sent,metadata}') AS sent_metadata, CASE WHEN paid_role = session_user THEN NULL ELSE coalesce(paid_role, paid_user || '@' || paid_host) END AS paid_by";
const REUSE_WHERE = "account = $2 AND origin = $3 AND request = $4 AND status = 200 AND usable = 1 AND listed = 1 AND stored_at >= $5";

export async function reusable(c: Q, q: ReuseQuery): Promise<ReuseRef | undefined> {
  const request = typeof q.request === 'string' ? q.request : canonicalRequest(q.request);
  const r = (await c.query<ReuseRef & { sha256?: string }>(`SELECT ${REUSE} FROM results WHERE sha256 = $1 AND ${REUSE_WHERE} ORDER BY id DESC LIMIT 1`, [q.sha256, q.account, q.origin, request, q.since ?? ''])).rows[0];
  if (!r) return undefined;
  const { sha256: _s, ...ref } = r;
  return ref;
}

export async function reusableMany(c: Q, shas: readonly string[], q: Omit<ReuseQuery, 'sha256'>): Promise<Map<string, ReuseRef>> {
  const out = new Map<string, ReuseRef>();
  const request = typeof q.request === 'string' ? q.request : canonicalRequest(q.request);
  for (let i = 0; i < shas.length; i += 500) {
    const rows = (await c.query<ReuseRef & { sha256: string }>(`SELECT ${REUSE} FROM results WHERE sha256 = ANY($1) AND ${REUSE_WHERE}`, [shas.slice(i, i + 500), q.account, q.origin, request, q.since ?? ''])).rows;
    for (const { sha256, ...r } of rows) if (!out.has(sha256) || out.get(sha256)!.id < r.id) out.set(sha256, r);
  }
  return out;
}

export async function paidBy(c: Q, ids: readonly number[]): Promise<Map<number, Paid>> {
  const out = new Map<number, Paid>();
  if (!ids.length) return out;
  const rows = await c.query<PaidColumns & { id: number }>(`SELECT id, ${PAID_COLUMNS} FROM results WHERE id = ANY($1)`, [[...ids]]);
  for (const r of rows.rows) out.set(r.id, paidOf(r));
  return out;
}
