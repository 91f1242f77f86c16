/**
 * The budget on the local file (schema.ts migration 4; the team store's is postgres/budget.ts):
 * every step in one BEGIN IMMEDIATE transaction, so of two processes reserving the last credits
 * at once only one fits. One reservation per idempotency key: a key resent after its process died
 * keeps the reservation it had (the service charges a key once, api-spec.md "States and transitions").
 */
import type { Analyst, Budget, BudgetApi, BudgetPeriod, Reserved, Spend } from '../api.js';
import { periodStart } from '../budget-period.js';
import type { Sql } from './sqlite.js';

interface Row {
  cap: number;
  per: BudgetPeriod;
  period_start: number;
  spent: number;
  reserved: number;
}

export class SqliteBudget implements BudgetApi {
  constructor(
    private readonly sql: Sql,
    private readonly guard: <T>(fn: () => T) => T,
    private readonly now: () => number,
  ) {}

  /** The budget row, rolled over to the current period first (spent starts again at 0). */
  private current(): Row | undefined {
    const b = this.sql.one<Row>('SELECT cap, per, period_start, spent, reserved FROM budget WHERE id = 1');
    if (!b) return undefined;
    const start = periodStart(b.per, this.now());
    if (start > b.period_start) {
      this.sql.run('UPDATE budget SET period_start = ?, spent = 0 WHERE id = 1', start);
      return { ...b, period_start: start, spent: 0 };
    }
    return b;
  }

  private view(b: Row): Budget {
    return { cap: b.cap, per: b.per, since: new Date(b.period_start).toISOString(), spent: b.spent, reserved: b.reserved };
  }

  async get(): Promise<Budget | undefined> {
    return this.guard(() => this.sql.tx(() => {
      const b = this.current();
      return b && this.view(b);
    }));
  }

  async set(cap: number, per: BudgetPeriod): Promise<Budget> {
    return this.guard(() => this.sql.tx(() => {
      const start = periodStart(per, this.now());
      // What this period already spent counts against the new cap too.
      const spent = Number(this.sql.one<{ n: number }>("SELECT coalesce(sum(charged), 0) AS n FROM spend WHERE state = 'settled' AND at >= ?", start)?.n ?? 0);
      const reserved = Number(this.sql.one<{ n: number }>("SELECT coalesce(sum(reserved), 0) AS n FROM spend WHERE state = 'reserved'")?.n ?? 0);
      this.sql.run(
        'INSERT INTO budget (id, cap, per, period_start, spent, reserved) VALUES (1, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET cap = excluded.cap, per = excluded.per, period_start = excluded.period_start, spent = excluded.spent, reserved = excluded.reserved',
        cap, per, start, spent, reserved,
      );
      return this.view(this.current()!);
    }));
  }

  async clear(): Promise<void> {
    this.guard(() => this.sql.run('DELETE FROM budget'));
  }

  async reserve(key: string, credits: number, who: Analyst & { caseId?: string }): Promise<Reserved> {
    return this.guard(() => this.sql.tx((): Reserved => {
      if (this.sql.one("SELECT 1 FROM spend WHERE key = ? AND state <> 'released'", key)) return { ok: true };
      const b = this.current();
      if (b) {
        const fits = this.sql.run('UPDATE budget SET reserved = reserved + ? WHERE id = 1 AND spent + reserved + ? <= cap', credits, credits).changes === 1;
        if (!fits) return { ok: false, budget: this.view(b) };
      }
      this.sql.run(
        "INSERT INTO spend (key, at, os_user, host, case_id, reserved, charged, state) VALUES (?, ?, ?, ?, ?, ?, NULL, 'reserved') ON CONFLICT(key) DO UPDATE SET at = excluded.at, reserved = excluded.reserved, charged = NULL, state = 'reserved'",
        key, this.now(), who.user, who.host, who.caseId ?? null, credits,
      );
      return { ok: true };
    }));
  }

  private finish(key: string, charged: number, state: 'settled' | 'released'): void {
    this.guard(() => this.sql.tx(() => {
      const r = this.sql.one<{ reserved: number }>("SELECT reserved FROM spend WHERE key = ? AND state = 'reserved'", key);
      if (!r) return;
      this.sql.run('UPDATE spend SET state = ?, charged = ?, at = ? WHERE key = ?', state, charged, this.now(), key);
      if (this.current()) this.sql.run('UPDATE budget SET reserved = max(0, reserved - ?), spent = spent + ? WHERE id = 1', r.reserved, charged);
    }));
  }

  async settle(key: string, charged: number): Promise<void> {
    this.finish(key, charged, 'settled');
  }

  async release(key: string): Promise<void> {
    this.finish(key, 0, 'released');
  }

  async spend(): Promise<{ byAnalyst: Spend[]; byCase: Spend[] }> {
    return this.guard(() => {
      const b = this.sql.one<Row>('SELECT cap, per, period_start, spent, reserved FROM budget WHERE id = 1');
      const since = periodStart(b?.per ?? 'month', this.now());
      const q = (by: string) => this.sql.all<Spend>(
        `SELECT ${by} AS who, coalesce(sum(charged), 0) AS credits, count(*) AS requests FROM spend WHERE state = 'settled' AND at >= ? AND ${by} IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1`,
        since,
      );
      return { byAnalyst: q("os_user || '@' || host"), byCase: q('case_id') };
    });
  }
}
