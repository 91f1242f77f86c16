/** The rows of `geo history` for lone results: from the store's columns, or from a whole record. */
import type { ResultRow, StoredResult } from '../../store/index.js';
import type { HistoryRow } from '../../output/views/history.js';

/** A history row's fields of a lone result (not a video or a set). */
export const LONE = { kind: 'result', frames: null, agree: null, of: null, spread_km: null } as const;

/** One row per stored result, from the store's columns (no record is parsed to list it). */
export function historyRow(r: ResultRow & { batch?: string | null }): HistoryRow {
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
    charge: r.charge === 'paid' || r.charge === 'replayed' || r.charge === 'reused_similar' ? r.charge : 'unknown',
    base_url: r.origin,
    sandbox: r.sandbox === 1,
    paid_by: null,
    ...LONE,
    batch: r.batch ?? null,
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
    charge: replayed === true ? 'replayed' : replayed === false ? 'paid' : 'unknown', base_url: str(r.cli?.base_url), sandbox: s.sandbox, paid_by: null,
    ...LONE, batch: s.batch,
  };
}
