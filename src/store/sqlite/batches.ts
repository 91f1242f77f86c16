/**
 * Batches: a command's identity, so `geo locate --resume ID` can run it again. The head holds the
 * inputs as named, the folder they are relative to, the request fields, the service and the
 * account; a --fresh run adds `fresh_since` (answers older than that are not this batch's). The
 * keys and the answers are not here: they are the claims' and the results' (claims.ts), found by
 * fingerprint whichever command made them.
 */
import type { Sql } from './sqlite.js';
import type { BatchRow } from '../claim-rows.js';

export function saveBatch(sql: Sql, id: string, head: Record<string, unknown>, now: number): void {
  sql.run(
    'INSERT INTO batches (id, head, created_at, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET head = excluded.head, updated_at = excluded.updated_at',
    id, JSON.stringify(head), now, now,
  );
}

/** Batches whose id starts with `prefix` (at most `n`, newest first). */
export function findBatches(sql: Sql, prefix: string, n = 5): BatchRow[] {
  const p = prefix.toLowerCase();
  return sql
    .all<{ id: string; head: string; created_at: number; updated_at: number }>('SELECT id, head, created_at, updated_at FROM batches WHERE id >= ? AND id < ? ORDER BY updated_at DESC LIMIT ?', p, `${p}g`, n)
    .map((r) => ({ ...r, head: JSON.parse(r.head) as Record<string, unknown> }));
}
