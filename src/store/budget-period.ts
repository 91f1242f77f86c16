/**
 * A budget's period, the same on both engines: day, week (ISO: from Monday) or month, in UTC, so
 * every analyst of a team counts the same period whatever their laptop's time zone. The team store
 * computes it with the server's date_trunc(…, now(), 'UTC'); the local store with this.
 */
import { UsageError } from '../errors.js';
import type { BudgetPeriod } from './api.js';

export const PERIODS: readonly BudgetPeriod[] = ['day', 'week', 'month'];

export function parsePeriod(v: string): BudgetPeriod {
  const p = v.trim().toLowerCase().replace(/ly$/, '').replace(/^dai$/, 'day');
  if ((PERIODS as readonly string[]).includes(p)) return p as BudgetPeriod;
  throw new UsageError(`--per must be day, week or month, not "${v}"`, 'geo store budget set 500 --per month');
}

/** The start (ms, UTC) of the period that holds `now`. */
export function periodStart(per: BudgetPeriod, now: number): number {
  const d = new Date(now);
  if (per === 'month') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  if (per === 'day') return day;
  // getUTCDay(): Sunday 0 … Saturday 6; an ISO week starts on Monday.
  return day - ((d.getUTCDay() + 6) % 7) * 86_400_000;
}
