/**
 * The store's budget around one send (store/api.ts BudgetApi): the
 * request's credits are reserved before it is sent, in one conditional update on the store, so
 * of many processes on many machines reserving the last credits at once only those that fit send.
 * Afterwards the reservation is settled to what the service charged (its answered depth,
 * api/charge.ts), or released when it charged nothing (502, 503, content_blocked, a 504's refund,
 * never sent). A request whose cost is unknown (killed or cut off in flight) keeps its
 * reservation: its key is resent by the next run, which finds it held and settles it then. What
 * is settled is what the key cost, not this send: a replay is free to the run that gets it, but
 * the service charged the key once, when the process that died sent it (api/charge.ts keyCredits).
 * No budget set: every reservation fits, and the spend is still recorded for `budget show`.
 */
import { DEPTH_COST, type Depth } from '../api/schemas.js';
import { StoreError } from '../errors.js';
import { type Analyst, type Budget, type StoreApi, analyst } from '../store/index.js';
import type { HeldCredits, Spent } from './spend-guard.js';

let me: Analyst | undefined;

/**
 * undefined: held, send it; otherwise the line that says why not (the budget and who spent it).
 * `caseId` (--case) names the case the spend is for: `geo store budget show` sums it by case. No
 * room while this run holds reservations: it waits for them to settle and asks again (HeldCredits).
 */
export async function holdCredits(store: StoreApi, key: string, depth: Depth, caseId?: string, ours?: { held: HeldCredits; halted: AbortSignal }): Promise<string | undefined> {
  me ??= analyst();
  for (;;) {
    const mark = ours?.held.mark();
    const held = await store.budget.reserve(key, DEPTH_COST[depth], caseId !== undefined ? { ...me, caseId } : me);
    if (held.ok) {
      ours?.held.add();
      return undefined;
    }
    if (ours && (await ours.held.settledSince(mark!, ours.halted))) continue;
    return spentLine(held.budget, DEPTH_COST[depth], await store.budget.spend().catch(() => undefined));
  }
}

/** After the send: what the service charged is spent, the rest let go; an unknown cost stays held. Then `held` counts it settled. */
export async function settleCredits(store: StoreApi, key: string, spent: Spent, held?: HeldCredits): Promise<void> {
  try {
    if (spent === 'unknown') return;
    if (spent === 'unsent' || spent === 0) await store.budget.release(key);
    else await store.budget.settle(key, spent);
  } catch (err) {
    // The store went away: the reservation stays held (never under-counted) until a rerun settles it.
    if (!(err instanceof StoreError)) throw err;
  } finally {
    held?.done();
  }
}

function spentLine(b: Budget, cost: number, by: { byAnalyst: Array<{ who: string; credits: number }> } | undefined): string {
  const who = by?.byAnalyst.slice(0, 5).map((s) => `${s.who} ${s.credits}`).join(', ');
  return `the store's budget of ${b.cap} credits per ${b.per} (since ${b.since}) has no room for ${cost} more: ${b.spent} spent, ${b.reserved} held by requests in flight${who ? `; spent this period: ${who}` : ''} (geo store budget show)`;
}
