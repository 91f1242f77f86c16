/**
 * A team's budget on the team store: one row (budget) with the cap, the period and what
 * it spent and holds in flight, and one row per idempotency key reserved against it (spend).
 *
 * reserve: `UPDATE budget SET reserved = reserved + c WHERE spent + reserved + c <= cap RETURNING`
 * takes the row's lock, so of many machines reserving the last credits at once exactly those that
 * fit get through; the rest are told the budget and who spent it. settle moves the reservation to
 * what the service charged (its answered depth, api/charge.ts); release lets it all go when the
 * service did not charge (502, 503, content_blocked, a 504's refund). A key resent after its
 * process died keeps its reservation: the service charges a key once. The period (UTC) is the
 * server's: date_trunc(per, now(), 'UTC').
 */
import type { Pool } from 'pg';
import type { Analyst, Budget, BudgetApi, BudgetPeriod, Reserved, Spend } from '../api.js';
import { inTx } from './driver.js';

type Guard = <T>(fn: () => Promise<T>) => Promise<T>;
type Row = { cap: number; per: BudgetPeriod; since: string; spent: number; reserved: number };

const VIEW = "cap, per, to_char(period_start AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') AS since, spent, reserved";
/** The row moved on to the current period (spent starts again at 0); reservations in flight stay held. */
const ROLL = "UPDATE budget SET period_start = date_trunc(per, now(), 'UTC'), spent = 0 WHERE id = 1 AND period_start < date_trunc(per, now(), 'UTC')";

export class PgBudget implements BudgetApi {
  constructor(
    private readonly pool: Pool,
    private readonly guard: Guard,
  ) {}

  get(): Promise<Budget | undefined> {
    return this.guard(async () => {
      await this.pool.query(ROLL);
      return (await this.pool.query<Row>(`SELECT ${VIEW} FROM budget WHERE id = 1`)).rows[0];
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
    }));
  }

  clear(): Promise<void> {
    return this.guard(async () => {
      await this.pool.query('DELETE FROM budget');
    });
  }

  reserve(key: string, credits: number, who: Analyst & { caseId?: string }): Promise<Reserved> {
    return this.guard(() => inTx(this.pool, async (c): Promise<Reserved> => {
      if ((await c.query("SELECT 1 FROM spend WHERE key = $1 AND state <> 'released' FOR UPDATE", [key])).rowCount) return { ok: true };
      await c.query(ROLL);
      const fit = await c.query('UPDATE budget SET reserved = reserved + $1 WHERE id = 1 AND spent + reserved + $1 <= cap RETURNING id', [credits]);
      if (fit.rowCount === 0) {
        const b = (await c.query<Row>(`SELECT ${VIEW} FROM budget WHERE id = 1`)).rows[0];
        if (b) return { ok: false, budget: b };
      }
      await c.query(
        "INSERT INTO spend (key, os_user, host, case_id, reserved, charged, state) VALUES ($1, $2, $3, $4, $5, NULL, 'reserved') ON CONFLICT (key) DO UPDATE SET at = now(), reserved = excluded.reserved, charged = NULL, state = 'reserved'",
        [key, who.user, who.host, who.caseId ?? null, credits],
      );
      return { ok: true };
    }));
  }

  private finish(key: string, charged: number, state: 'settled' | 'released'): Promise<void> {
    return this.guard(() => inTx(this.pool, async (c) => {
      const r = (await c.query<{ reserved: number }>("UPDATE spend SET state = $2, charged = $3, at = now() WHERE key = $1 AND state = 'reserved' RETURNING reserved", [key, state, charged])).rows[0];
      if (!r) return;
      await c.query(ROLL);
      await c.query('UPDATE budget SET reserved = greatest(0, reserved - $1), spent = spent + $2 WHERE id = 1', [r.reserved, charged]);
    }));
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
      return { byAnalyst: await q("os_user || '@' || host"), byCase: await q('case_id') };
    });
  }
}
