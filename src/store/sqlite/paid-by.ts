/**
 * Who paid for each result on the local file (`geo history` says it on both engines).
 * The file keeps who reserved each idempotency key (spend: OS user, host, when; sqlite/budget.ts),
 * so a result whose key was reserved names that analyst at that time; a result stored without one
 * (imported, stored before spend existed, a replay of someone else's key) is this machine's user's,
 * at the time it was stored: the local file has one analyst.
 */
import type { Analyst } from '../api.js';
import type { Sql } from './sqlite.js';

export type PaidBy = Analyst & { at: string };

export function paidBy(sql: Sql, ids: readonly number[], me: Analyst): Map<number, PaidBy> {
  const out = new Map<number, PaidBy>();
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    const rows = sql.all<{ id: number; stored_at: string; os_user: string | null; host: string | null; at: number | null }>(
      `SELECT r.id, r.stored_at, s.os_user, s.host, s.at FROM results r LEFT JOIN spend s ON s.key = r.idem_key WHERE r.id IN (${part.map(() => '?').join(', ')})`,
      ...part,
    );
    for (const r of rows) {
      out.set(r.id, r.os_user !== null && r.host !== null && r.at !== null
        ? { user: r.os_user, host: r.host, at: new Date(r.at).toISOString().replace(/\.\d+Z$/, 'Z') }
        : { ...me, at: r.stored_at.replace(/\.\d+Z$/, 'Z') });
    }
  }
  return out;
}
