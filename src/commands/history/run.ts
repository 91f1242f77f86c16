/**
 * `geo history`: the provenance store read back (src/local/store.ts). Only local files are read:
 * no client is made, so no key is needed and nothing is charged.
 */
import { dataDir } from '../../config/paths.js';
import type { Ctx } from '../../context.js';
import { UsageError } from '../../errors.js';
import { type ProvenanceRecord, listRecords } from '../../local/store.js';
import { findStored, newestFirst, searchRecords } from '../../local/store-search.js';
import type { HistoryRow } from '../../output/views/history.js';

export const DEFAULT_LIMIT = 50;
type Warn = (line: string) => void;

export function parseHistoryLimit(v: unknown): number {
  if (v === undefined) return DEFAULT_LIMIT;
  const n = /^\d+$/.test(String(v)) ? Number(v) : Number.NaN;
  if (!(n >= 1)) throw new UsageError(`--limit must be a whole number of at least 1, got "${String(v)}"`, `for example --limit ${DEFAULT_LIMIT}`);
  return n;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** One row per record; every field read defensively (records are files, and may gain fields). */
export function historyRow(r: ProvenanceRecord): HistoryRow {
  const body = (r.response?.body ?? {}) as unknown as Record<string, unknown>;
  const loc = (body.location ?? {}) as Record<string, unknown>;
  const replayed = r.headers?.idempotent_replayed;
  return {
    stored_at: str(r.stored_at),
    input: str(r.input?.path),
    sha256: str(r.input?.sha256),
    city: str(loc.city),
    neighborhood: str(loc.neighborhood),
    country: str(loc.country),
    address: str(loc.address),
    latitude: num(loc.latitude),
    longitude: num(loc.longitude),
    confidence: num(body.confidence),
    depth: num(body.depth) ?? num(r.request?.depth) ?? null,
    analysis_id: typeof body.analysis_id === 'string' ? body.analysis_id : null,
    charge: replayed === true ? 'replayed' : replayed === false ? 'paid' : 'unknown',
    base_url: str(r.cli?.base_url),
  };
}

export async function runHistory(ctx: Pick<Ctx, 'env'>, opts: { search?: string; limit?: unknown }, warn: Warn): Promise<{ rows: HistoryRow[]; total: number }> {
  const limit = parseHistoryLimit(opts.limit);
  const all = await listRecords(dataDir(ctx.env), { all: true }, (f, why) => warn(`skipped ${f}: ${why}`));
  const found = newestFirst(opts.search !== undefined ? searchRecords(all, opts.search) : all);
  return { rows: found.slice(0, limit).map(historyRow), total: found.length };
}

/** The newest stored record `ref` names, and how many runs of it are stored. */
export async function runHistoryShow(ctx: Pick<Ctx, 'env'>, ref: string, warn: Warn): Promise<{ record: ProvenanceRecord; runs: number }> {
  if (ref.trim() === '') throw new UsageError('history show needs a result', 'an image file, a sha256 prefix or an analysis id; geo history lists them');
  const recs = newestFirst(await findStored(dataDir(ctx.env), ref, (f, why) => warn(`skipped ${f}: ${why}`), { files: true }));
  return { record: recs[0]!, runs: recs.length };
}
