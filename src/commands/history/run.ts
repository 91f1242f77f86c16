/**
 * `geo history`: the store read back (src/store/). Only the local database is read: no client is
 * made, so no key is needed and nothing is charged. Every question is one indexed query, so it
 * answers as fast with a million results as with ten (bench/store.mjs).
 */
import type { Ctx } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { ProvenanceRecord } from '../../local/store.js';
import { findStored } from '../../store/find.js';
import type { ResultRow, StoredResult } from '../../store/index.js';
import type { HistoryRow } from '../../output/views/history.js';
import { wholeNumber } from '../../flags.js';

export const DEFAULT_LIMIT = 50;

export function parseHistoryLimit(v: unknown): number {
  if (v === undefined) return DEFAULT_LIMIT;
  const n = /^\d+$/.test(String(v)) ? Number(v) : Number.NaN;
  if (!(n >= 1)) throw new UsageError(`--limit must be a whole number of at least 1, got "${String(v)}"`, `for example --limit ${DEFAULT_LIMIT}`);
  return n;
}

/** One row per stored result, from the store's columns (no record is parsed to list it). */
export function historyRow(r: ResultRow): HistoryRow {
  return {
    stored_at: r.stored_at,
    input: r.input_path,
    sha256: r.sha256 ?? '',
    city: r.city ?? '',
    neighborhood: r.neighborhood ?? '',
    country: r.country ?? '',
    address: r.address ?? '',
    latitude: r.latitude,
    longitude: r.longitude,
    confidence: r.confidence,
    depth: r.depth,
    analysis_id: r.analysis_id,
    charge: r.charge === 'paid' || r.charge === 'replayed' ? r.charge : 'unknown',
    base_url: r.origin,
    sandbox: r.sandbox === 1,
  };
}

/** The same row from a whole record (geo mcp's history tool shows the one it found). */
export function historyRowOf(s: StoredResult): HistoryRow {
  const r = s.record;
  const body = (r.response?.body ?? {}) as unknown as Record<string, unknown>;
  const loc = (body.location ?? {}) as Record<string, unknown>;
  const str = (v: unknown): string => (typeof v === 'string' ? v : '');
  const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const replayed = r.headers?.idempotent_replayed;
  return {
    stored_at: str(r.stored_at), input: str(r.input?.path), sha256: str(r.input?.sha256), city: str(loc.city), neighborhood: str(loc.neighborhood), country: str(loc.country), address: str(loc.address),
    latitude: num(loc.latitude), longitude: num(loc.longitude), confidence: num(body.confidence), depth: num(body.depth) ?? num(r.request?.depth),
    analysis_id: typeof body.analysis_id === 'string' ? body.analysis_id : null,
    charge: replayed === true ? 'replayed' : replayed === false ? 'paid' : 'unknown', base_url: str(r.cli?.base_url), sandbox: s.sandbox,
  };
}

export async function runHistory(ctx: Pick<Ctx, 'store'>, opts: { search?: string; limit?: unknown }): Promise<{ rows: HistoryRow[]; total: number; capped: boolean }> {
  const limit = parseHistoryLimit(opts.limit);
  const store = ctx.store();
  if (opts.search !== undefined) {
    const found = store.search(opts.search, limit);
    return { rows: found.rows.map(historyRow), total: found.total, capped: found.capped };
  }
  return { rows: store.newest(limit).map(historyRow), total: store.count(), capped: false };
}

/** The newest stored result `ref` names (at --depth N when given), and how many runs of it are stored. */
export async function runHistoryShow(ctx: Pick<Ctx, 'store'>, ref: string, opts: { depth?: unknown } = {}): Promise<{ record: ProvenanceRecord; runs: number; stored: StoredResult }> {
  if (ref.trim() === '') throw new UsageError('history show needs a result', 'an image file, a sha256 prefix or an analysis id; geo history lists them');
  const depth = wholeNumber(opts.depth, '--depth', 1, 3, 'for example --depth 3');
  const all = await findStored(ctx.store(), ref, { files: true });
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
