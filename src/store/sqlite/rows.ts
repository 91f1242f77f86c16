/**
 * The local file's rows exactly as stored, for `geo store push` (store/push.ts copies them into a
 * team store column for column: a record's text, its raw bytes and a custody line are never
 * rebuilt, so hashes stay what they were) and the counts `geo store status` shows.
 */
import { keptFile } from './kept-files.js';
import type { KeptFile } from '../kept-rows.js';
import type { BatchRow, ClaimRow } from '../claim-rows.js';
import type { CaseRow, TimestampRow } from '../case-rows.js';
import type { CopyLink } from '../copy-links.js';
import { allCopyLinks } from './copy-links.js';
import { RESULT_COLUMNS, type ResultColumns } from './results.js';
import type { Sql } from './sqlite.js';

export type StoredRow = ResultColumns & { id: number };
export type CaseRecord = Omit<CaseRow, 'results'>;
export interface LinkRow {
  case_id: string;
  result_id: number;
  linked_at: string;
}

export class SqliteRows {
  constructor(
    private readonly sql: Sql,
    private readonly guard: <T>(fn: () => T) => T,
  ) {}

  schemaVersion(): number {
    return this.guard(() => Number(this.sql.one<{ user_version: number }>('PRAGMA user_version')?.user_version ?? 0));
  }

  counts(): { results: number; openClaims: number; cases: number; custodyEntries: number } {
    return this.guard(() => {
      const n = (q: string) => Number(this.sql.one<{ n: number }>(q)?.n ?? 0);
      return {
        results: Number(this.sql.one<{ value: string }>("SELECT value FROM meta WHERE name = 'listed_results'")?.value ?? 0),
        openClaims: n("SELECT count(*) AS n FROM claims WHERE state = 'open'"),
        cases: n('SELECT count(*) AS n FROM cases'),
        custodyEntries: n('SELECT count(*) AS n FROM custody'),
      };
    });
  }

  /** Results in id order, 500 a query after `after` (memory does not grow with the store). */
  results(after: number): StoredRow[] {
    // BLOBs as Buffers, whatever the binding hands back.
    return this.guard(() => this.sql.all<StoredRow>(`SELECT id, ${RESULT_COLUMNS} FROM results WHERE id > ? ORDER BY id LIMIT 500`, after).map((r) => ({ ...r, raw: r.raw === null ? null : Buffer.from(r.raw) })));
  }
  claims(): ClaimRow[] {
    return this.guard(() => this.sql.all<ClaimRow>('SELECT key, fp, state, owner, lease_until, created_at, batch, input, result_id, error, credits FROM claims ORDER BY created_at, rowid'));
  }
  batches(): Array<Omit<BatchRow, 'head'> & { head: string }> {
    return this.guard(() => this.sql.all('SELECT id, head, created_at, updated_at FROM batches ORDER BY created_at'));
  }
  cases(): CaseRecord[] {
    return this.guard(() => this.sql.all<CaseRecord>('SELECT id, name, description, team, created_at, service, service_id, service_note, custody_entries, custody_head FROM cases ORDER BY created_at, id'));
  }
  custody(caseId: string): Array<{ seq: number; line: string }> {
    return this.guard(() => this.sql.all('SELECT seq, line FROM custody WHERE case_id = ? ORDER BY seq', caseId));
  }
  links(): LinkRow[] {
    return this.guard(() => this.sql.all<LinkRow>('SELECT case_id, result_id, linked_at FROM case_results ORDER BY rowid'));
  }
  embedded(): Array<{ sha256: string; read_at: string; metadata: string; c2pa: string }> {
    return this.guard(() => this.sql.all('SELECT sha256, read_at, metadata, c2pa FROM embedded ORDER BY sha256'));
  }
  /** The kept files' sha256s; their bytes are read one at a time (keptFile), never all at once. */
  keptShas(): string[] {
    return this.guard(() => this.sql.all<{ sha256: string }>('SELECT sha256 FROM kept_files ORDER BY sha256').map((r) => r.sha256));
  }
  keptFile(sha256: string): KeptFile | undefined {
    return this.guard(() => keptFile(this.sql, sha256));
  }
  perceptual(): Array<{ sha256: string; pdq: string; quality: number; hashed_at: string }> {
    return this.guard(() => this.sql.all('SELECT sha256, pdq, quality, hashed_at FROM perceptual ORDER BY id'));
  }
  copyLinks(): CopyLink[] {
    return this.guard(() => allCopyLinks(this.sql));
  }
  timestamps(): TimestampRow[] {
    return this.guard(() => this.sql.all<TimestampRow>('SELECT id, case_id, head, seq, tsa, state, requested_at, attempts, last_error, reply, ca_pem, gen_time, stamped_at FROM timestamps ORDER BY id').map((r) => ({ ...r, reply: r.reply === null ? null : Buffer.from(r.reply) })));
  }
}
