/**
 * A team's budget on the team store: one row (budget) with the cap, the period and what
 * it spent and holds in flight, and one row per idempotency key reserved against it (spend).
 *
 * Only the admin writes either table (schema-roles.ts): `set` and `clear` are the admin's, and an
 * analyst's role is refused by the server (said in one line, exit 3). Analysts reserve and settle
 * through the admin's functions, each one statement: geo_budget_reserve runs `UPDATE budget SET
 * reserved = reserved + c WHERE spent + reserved + c <= cap`, which takes the row's lock, so of
 * many machines reserving the last credits at once exactly those that fit get through; the rest
 * are told the budget and who spent it. geo_budget_finish moves the reservation to what the service
 * charged (its answered depth, api/charge.ts), or lets it all go when the service did not charge
 * (502, 503, content_blocked, a 504's refund). A key resent after its process died keeps its
 * reservation: the service charges a key once. The period (UTC) is the server's:
 * date_trunc(per, now(), 'UTC'), rolled over by geo_budget_now(). Who spent is the role the server
 * authenticated (spend.analyst); the OS user and host ride along as details.
 */
import type { Pool } from 'pg';
import { StoreError } from '../../errors.js';
import type { Analyst, Budget, BudgetApi, BudgetPeriod, Reserved, Spend } from '../api.js';
import { inTx } from './driver.js';

type Guard = <T>(fn: () => Promise<T>) => Promise<T>;
type Row = { cap: number; per: BudgetPeriod; since: string; spent: number; reserved: number };

const VIEW = "cap, per, to_char(period_start AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') AS since, spent, reserved";
/** The admin's alone: an analyst's role gets the server's 42501 (insufficient_privilege), said as such. */
const ADMIN_ONLY = (what: string) => (err: unknown): never => {
  const e = err as { code?: string; message?: string };
  if (e.code === '42501') throw new StoreError(`only the team store's admin can ${what}; nothing was changed (the server said: ${e.message ?? 'permission denied'})`, 'denied', 'ask whoever runs the team\'s PostgreSQL: they run it with the role that owns geo\'s tables (--store \'postgres://ADMIN@HOST/DB\')');
  throw err;
};

export class PgBudget implements BudgetApi {
  constructor(
    private readonly pool: Pool,
    private readonly guard: Guard,
  ) {}

  get(): Promise<Budget | undefined> {
    return this.guard(async () => {
      // Rolled over to the current period (spent starts again at 0) by the admin's function; reservations in flight stay held.
      return (await this.pool.query<Row>(`SELECT ${VIEW} FROM geo_budget_now()`)).rows[0];
    });
  }

  set(cap: number, per: BudgetPeriod): Promise<Budget> {
    return this.guard(() => inTx(this.pool, async (c) => {
      const r = await c.query<Row>(
        `INSERT INTO budget (id, cap, per, period_start, spent, reserved)
         SELECT 1, $1, $2, date_trunc($2, now(), 'UTC'),
           (SELECT coalesce(sum(charged), 0) FROM spend WHERE state = 'settled' AND at >= date_trunc($2, now(), 'UTC')),
           (SELECT coalesce(sum(reserved), 0) FROM spend WHERE state = 'reserved')
         ON CONFLICT (id) DO UPDATE SET cap = excluded.cap, per = excluded.per, period_start = excluded.period_start, spent = excluded.spent, reserved = excluded.reserved
         RETURNING ${VIEW}`,
        [cap, per],
      );
      return r.rows[0]!;
    }).catch(ADMIN_ONLY('set the budget')));
  }

  clear(): Promise<void> {
    return this.guard(async () => {
      await this.pool.query('DELETE FROM budget').catch(ADMIN_ONLY('lift the budget'));
    });
  }

  reserve(key: string, credits: number, who: Analyst & { caseId?: string }): Promise<Reserved> {
    return this.guard(async (): Promise<Reserved> => {
      const fit = (await this.pool.query<{ ok: boolean }>('SELECT geo_budget_reserve($1, $2, $3, $4, $5) AS ok', [key, credits, who.caseId ?? null, who.user, who.host])).rows[0]?.ok;
      if (fit) return { ok: true };
      const b = (await this.pool.query<Row>(`SELECT ${VIEW} FROM budget WHERE id = 1`)).rows[0];
      return b ? { ok: false, budget: b } : { ok: true };
    });
  }

  private finish(key: string, charged: number, state: 'settled' | 'released'): Promise<void> {
    return this.guard(async () => {
      await this.pool.query('SELECT geo_budget_finish($1, $2, $3)', [key, charged, state]);
    });
  }

  settle(key: string, charged: number): Promise<void> {
    return this.finish(key, charged, 'settled');
  }

  release(key: string): Promise<void> {
    return this.finish(key, 0, 'released');
  }

  spend(): Promise<{ byAnalyst: Spend[]; byCase: Spend[] }> {
    return this.guard(async () => {
      const q = async (by: string) => (await this.pool.query<Spend>(
        `SELECT ${by} AS who, coalesce(sum(charged), 0) AS credits, count(*)::int AS requests FROM spend
         WHERE state = 'settled' AND at >= date_trunc(coalesce((SELECT per FROM budget WHERE id = 1), 'month'), now(), 'UTC') AND ${by} IS NOT NULL
         GROUP BY 1 ORDER BY 2 DESC, 1`,
      )).rows;
      // The role that reserved; a row from before roles were recorded names the OS user and host it has.
      return { byAnalyst: await q("coalesce(analyst, os_user || '@' || host)"), byCase: await q('case_id') };
    });
  }
}
