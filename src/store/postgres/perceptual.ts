/**
 * The team store's perceptual hashes and their index (schema.ts migration 5; perceptual-rows.ts
 * says what they are, pdq-index.ts how the index is probed). A hash and its index rows are one
 * statement. The scan of older results is per host (pdq_scanned): a result's file can only be
 * read again on the machine that located it (results.paid_host), so each host looks at its own.
 */
import type { Pool } from 'pg';
import { type Candidate, chunkKeys, nearResults } from '../pdq-index.js';
import type { NearResult, Perceptual, PerceptualApi, ScannedResult } from '../perceptual-rows.js';
import type { ResultRow } from '../result-rows.js';
import { LIST_COLUMNS } from '../sqlite/results.js';
import { PAID_COLUMNS, type PaidColumns } from './seen.js';

type Guard = <T>(fn: () => Promise<T>) => Promise<T>;

/** A hash and its index rows, in one statement (push.ts copies a local file's with it too). */
export const PUT = `WITH p AS (INSERT INTO perceptual (sha256, pdq, quality, hashed_at) VALUES ($1, $2, $3, $4) ON CONFLICT (sha256) DO NOTHING RETURNING id)
  INSERT INTO pdq_index (chunk, image) SELECT k, p.id FROM p, unnest($5::int[]) AS k`;
const PAST_MARK = 'FROM results r WHERE r.id > greatest($2, coalesce((SELECT through FROM pdq_scanned WHERE host = $1), 0)) AND r.paid_host = $1 AND r.listed = 1 AND r.sha256 IS NOT NULL';
const HASHED = 'EXISTS (SELECT 1 FROM perceptual p WHERE p.sha256 = r.sha256)';

export class PgPerceptual implements PerceptualApi {
  constructor(
    private readonly pool: Pool,
    private readonly guard: Guard,
    private readonly now: () => number,
    private readonly host: () => string,
    /** The row without its paid columns, its payer remembered for history's PAID BY (seen.ts). */
    private readonly keepPaid: (r: ResultRow & PaidColumns) => ResultRow,
  ) {}

  put(sha256: string, p: Perceptual): Promise<void> {
    return this.guard(async () => {
      await this.pool.query(PUT, [sha256, p.pdq, p.quality, new Date(this.now()).toISOString(), chunkKeys(p.pdq)]);
    });
  }

  get(sha256: string): Promise<Perceptual | undefined> {
    return this.guard(async () => (await this.pool.query<Perceptual>('SELECT pdq, quality FROM perceptual WHERE sha256 = $1', [sha256])).rows[0]);
  }

  near(pdq: string, distance: number, limit: number): Promise<{ rows: NearResult[]; total: number }> {
    return nearResults({
      candidates: (keys) => this.guard(async () => (await this.pool.query<Candidate>('SELECT sha256, pdq, quality FROM perceptual WHERE id IN (SELECT image FROM pdq_index WHERE chunk = ANY($1::int[]))', [keys])).rows),
      rowsOf: (shas) => this.guard(async () => {
        const r = await this.pool.query<ResultRow & PaidColumns>(`SELECT ${LIST_COLUMNS}, ${PAID_COLUMNS} FROM results WHERE sha256 = ANY($1::text[]) AND listed = 1`, [shas]);
        return r.rows.map((row) => this.keepPaid(row));
      }),
    }, pdq, distance, limit);
  }

  afterMark(limit: number, after = 0): Promise<ScannedResult[]> {
    return this.guard(async () => (await this.pool.query<ScannedResult>(`SELECT r.id, r.sha256, r.input_path, ${HASHED} AS hashed ${PAST_MARK} ORDER BY r.id LIMIT $3`, [this.host(), after, limit])).rows);
  }

  unhashedCount(): Promise<number> {
    return this.guard(async () => Number((await this.pool.query<{ n: number }>(`SELECT count(DISTINCT r.sha256) AS n ${PAST_MARK} AND NOT ${HASHED}`, [this.host(), 0])).rows[0]?.n ?? 0));
  }

  scanned(through: number): Promise<void> {
    return this.guard(async () => {
      await this.pool.query('INSERT INTO pdq_scanned (host, through) VALUES ($1, $2) ON CONFLICT (host) DO UPDATE SET through = greatest(pdq_scanned.through, excluded.through)', [this.host(), through]);
    });
  }
}
