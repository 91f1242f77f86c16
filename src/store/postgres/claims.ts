/**
 * Claims on the team store: the same decision as the local file's (sqlite/claims.ts
 * acquire), taken for every machine of the team at once.
 *
 * - The request's open claim is read with SELECT … FOR UPDATE inside the transaction: two
 *   machines asking at once queue on that row, and the second sees what the first decided.
 * - A new claim is one INSERT … ON CONFLICT DO NOTHING RETURNING: the partial unique index
 *   claims_one_open (schema.ts) admits one open claim per fingerprint, so of two machines that both
 *   found none, exactly one inserts; the other reads the winner's claim and waits for it.
 * - Leases are the server's clock (geo_now_ms()): a laptop whose clock is wrong neither steals a
 *   live claim nor keeps a dead one. An owner on another host is gone only when its lease ran
 *   out (a pid means nothing there); on this host its pid is probed too (Owner.mayHold).
 * - A takeover resends the claim's own key: the service replays a finished key free.
 */
import type { PoolClient } from 'pg';
import type { AcquireRequest, Acquired, ClaimRow } from '../api.js';
import { KEY_REUSED, LEASE_MS, type Owner, newKey, parseError } from '../sqlite/claims.js';

export const CLAIM_COLUMNS = 'key, fp, state, owner, lease_until, created_at, batch, input, result_id, error, credits, coalesce(lease_until > geo_now_ms(), false) AS leased';

type Q = Pick<PoolClient, 'query'>;

export async function claimByKey(c: Q, key: string, lock = false): Promise<ClaimRow | undefined> {
  return (await c.query<ClaimRow>(`SELECT ${CLAIM_COLUMNS} FROM claims WHERE key = $1${lock ? ' FOR UPDATE' : ''}`, [key])).rows[0];
}

export async function currentClaim(c: Q, fp: string): Promise<ClaimRow | undefined> {
  return (await c.query<ClaimRow>(`SELECT ${CLAIM_COLUMNS} FROM claims WHERE fp = $1 ORDER BY state = 'open' DESC, created_at DESC, seq DESC LIMIT 1`, [fp])).rows[0];
}

export async function currentClaims(c: Q, fps: readonly string[]): Promise<Map<string, ClaimRow>> {
  const out = new Map<string, ClaimRow>();
  for (let i = 0; i < fps.length; i += 500) {
    const rows = await c.query<ClaimRow>(
      `SELECT DISTINCT ON (fp) ${CLAIM_COLUMNS} FROM claims WHERE fp = ANY($1) ORDER BY fp, state = 'open' DESC, created_at DESC, seq DESC`,
      [fps.slice(i, i + 500)],
    );
    for (const r of rows.rows) out.set(r.fp, r);
  }
  return out;
}

/** The one step that decides who sends (sqlite/claims.ts acquire explains the order). */
export async function acquire(c: Q, fp: string, o: AcquireRequest & { owner: Owner }): Promise<Acquired> {
  const me = o.owner.id;
  const mine = o.key !== undefined ? await claimByKey(c, o.key, true) : undefined;
  if (mine && mine.fp !== fp) {
    return { kind: 'failed', key: mine.key, createdAt: mine.created_at, error: { code: KEY_REUSED, message: `the idempotency key ${mine.key} was already used for another request (another image or other fields)`, final: true } };
  }
  const open = (await c.query<ClaimRow>(`SELECT ${CLAIM_COLUMNS} FROM claims WHERE fp = $1 AND state = 'open' LIMIT 1 FOR UPDATE`, [fp])).rows[0];
  if (open) {
    if (open.owner !== null && open.owner !== me && o.owner.mayHold(open.owner, open.leased === true)) return { kind: 'wait', key: open.key };
    await c.query('UPDATE claims SET owner = $1, lease_until = geo_now_ms() + $2, updated_at = geo_now_ms() WHERE key = $3', [me, LEASE_MS, open.key]);
    return { kind: 'send', key: open.key, takeover: true, createdAt: open.created_at };
  }
  const cur = mine ?? (await currentClaim(c, fp));
  if (cur && (o.since === undefined || cur.created_at >= o.since)) {
    if (cur.state === 'answered' && cur.result_id !== null) return { kind: 'answered', key: cur.key, resultId: cur.result_id, batch: cur.batch, createdAt: cur.created_at };
    if (cur.state === 'failed') return { kind: 'failed', key: cur.key, error: parseError(cur.error), createdAt: cur.created_at };
  }
  if (mine) {
    // --fresh with the caller's own key: opened again, unless another machine opened this request meanwhile.
    const r = await c.query("UPDATE claims SET state = 'open', owner = $1, lease_until = geo_now_ms() + $2, updated_at = geo_now_ms() WHERE key = $3 AND NOT EXISTS (SELECT 1 FROM claims WHERE fp = $4 AND state = 'open') RETURNING key", [me, LEASE_MS, mine.key, fp]);
    if (r.rowCount === 1) return { kind: 'send', key: mine.key, takeover: true, createdAt: mine.created_at };
    return { kind: 'wait', key: mine.key };
  }
  const key = o.key ?? o.newKey ?? newKey();
  const ins = await c.query<{ created_at: number }>(
    "INSERT INTO claims (key, fp, state, owner, lease_until, created_at, updated_at, batch, input) VALUES ($1, $2, 'open', $3, geo_now_ms() + $4, geo_now_ms(), geo_now_ms(), $5, $6) ON CONFLICT DO NOTHING RETURNING created_at",
    [key, fp, me, LEASE_MS, o.batch ?? null, o.input ?? null],
  );
  if (ins.rows[0]) return { kind: 'send', key, takeover: false, createdAt: ins.rows[0].created_at };
  // Another machine opened this request between our read and our insert: its claim goes first.
  const winner = (await c.query<ClaimRow>(`SELECT ${CLAIM_COLUMNS} FROM claims WHERE fp = $1 AND state = 'open' LIMIT 1`, [fp])).rows[0];
  return { kind: 'wait', key: winner?.key ?? key };
}

export async function markAnswered(c: Q, key: string, resultId: number, credits: number): Promise<void> {
  await c.query("UPDATE claims SET state = 'answered', result_id = $1, credits = coalesce(credits, $2), owner = NULL, lease_until = NULL, updated_at = geo_now_ms() WHERE key = $3", [resultId, credits, key]);
}

export async function markFailed(c: Q, key: string, error: unknown): Promise<void> {
  await c.query("UPDATE claims SET state = 'failed', error = $1, owner = NULL, lease_until = NULL, updated_at = geo_now_ms() WHERE key = $2 AND state = 'open'", [JSON.stringify(error), key]);
}

export async function release(c: Q, key: string, owner: string): Promise<void> {
  await c.query("UPDATE claims SET owner = NULL, lease_until = NULL, updated_at = geo_now_ms() WHERE key = $1 AND owner = $2 AND state = 'open'", [key, owner]);
}

export async function releaseAll(c: Q, owner: string): Promise<void> {
  await c.query("UPDATE claims SET owner = NULL, lease_until = NULL, updated_at = geo_now_ms() WHERE owner = $1 AND state = 'open'", [owner]);
}

export async function renew(c: Q, owner: string): Promise<void> {
  await c.query("UPDATE claims SET lease_until = geo_now_ms() + $1 WHERE owner = $2 AND state = 'open'", [LEASE_MS, owner]);
}
