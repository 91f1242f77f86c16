/**
 * The local file's perceptual hashes and their index (schema.ts migration 8; perceptual-rows.ts
 * says what they are, pdq-index.ts how the index is probed). Synchronous, as the rest of the
 * file's store; the engine (engine.ts) gives it the asynchronous interface.
 */
import { type Candidate, chunkKeys, nearResults } from '../pdq-index.js';
import type { NearResult, Perceptual, PerceptualApi, ScannedResult } from '../perceptual-rows.js';
import type { ResultRow } from '../result-rows.js';
import { LIST_COLUMNS } from './results.js';
import type { Sql } from './sqlite.js';

/** meta's row for the scan of older results: every result up to this id has been looked at. */
const MARK = 'pdq_scanned_through';
const PAST_MARK = 'FROM results r WHERE r.id > ? AND r.listed = 1 AND r.sha256 IS NOT NULL';
const HASHED = 'EXISTS (SELECT 1 FROM perceptual p WHERE p.sha256 = r.sha256)';

type Guard = <T>(fn: () => T) => T;

export class SqlitePerceptual {
  constructor(private readonly sql: Sql, private readonly guard: Guard, private readonly now: () => number) {}

  /** The hash and its 16 index rows, in one transaction; many at once for bulk loads (bench/store.mjs). */
  put(rows: ReadonlyArray<{ sha256: string } & Perceptual>): void {
    const at = new Date(this.now()).toISOString();
    this.guard(() => this.sql.tx(() => {
      for (const r of rows) {
        const ins = this.sql.run('INSERT INTO perceptual (sha256, pdq, quality, hashed_at) VALUES (?, ?, ?, ?) ON CONFLICT(sha256) DO NOTHING', r.sha256, r.pdq, r.quality, at);
        if (ins.changes === 0) continue;
        for (const k of chunkKeys(r.pdq)) this.sql.run('INSERT INTO pdq_index (chunk, image) VALUES (?, ?)', k, ins.lastInsertRowid);
      }
    }));
  }

  get(sha256: string): Perceptual | undefined {
    return this.guard(() => this.sql.one<Perceptual>('SELECT pdq, quality FROM perceptual WHERE sha256 = ?', sha256));
  }

  near(pdq: string, distance: number, limit: number): Promise<{ rows: NearResult[]; total: number }> {
    return nearResults({
      candidates: async (keys) => this.guard(() => this.sql.all<Candidate>(`SELECT sha256, pdq, quality FROM perceptual WHERE id IN (SELECT image FROM pdq_index WHERE chunk IN (${marks(keys.length)}))`, ...keys)),
      rowsOf: async (shas) => this.guard(() => this.sql.all<ResultRow>(`SELECT ${LIST_COLUMNS} FROM results WHERE sha256 IN (${marks(shas.length)}) AND listed = 1`, ...shas)),
    }, pdq, distance, limit);
  }

  private mark(): number {
    return Number(this.sql.one<{ value: string }>('SELECT value FROM meta WHERE name = ?', MARK)?.value ?? 0);
  }
  afterMark(limit: number, after = 0): ScannedResult[] {
    return this.guard(() => this.sql.all<Omit<ScannedResult, 'hashed'> & { hashed: number }>(`SELECT r.id, r.sha256, r.input_path, ${HASHED} AS hashed ${PAST_MARK} ORDER BY r.id LIMIT ?`, Math.max(after, this.mark()), limit))
      .map((r) => ({ ...r, hashed: r.hashed === 1 }));
  }
  unhashedCount(): number {
    return this.guard(() => Number(this.sql.one<{ n: number }>(`SELECT count(DISTINCT r.sha256) AS n ${PAST_MARK} AND NOT ${HASHED}`, this.mark())?.n ?? 0));
  }
  scanned(through: number): void {
    this.guard(() => this.sql.run('INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value WHERE CAST(value AS INTEGER) < CAST(excluded.value AS INTEGER)', MARK, String(through)));
  }

  /** The asynchronous interface (api.ts) over these. */
  api(): PerceptualApi {
    return {
      put: async (sha256, p) => this.put([{ sha256, ...p }]),
      get: async (sha256) => this.get(sha256),
      near: (pdq, d, limit) => this.near(pdq, d, limit),
      afterMark: async (limit, after) => this.afterMark(limit, after),
      unhashedCount: async () => this.unhashedCount(),
      scanned: async (through) => this.scanned(through),
    };
  }
}

const marks = (n: number) => Array(n).fill('?').join(', ');
