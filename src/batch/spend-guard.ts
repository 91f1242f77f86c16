/**
 * The budget while sending (DESIGN.md "never pay silently"). The plan prices each image
 * at the depth asked, but the service decides what it charges: an answer costs its own depth
 * (api/charge.ts). So --max-credits, and the confirm threshold a run without consent must stay
 * within, are kept against what the service actually charged, with this rule:
 *
 *  - each further request is assumed to cost the most any answer of this run was charged, and at
 *    least what its depth costs;
 *  - a request starts only if the credits charged so far, plus the most each request already in
 *    flight could be charged (MOST: 10, depth 3, api-spec.md "Limits"), plus its own assumed cost,
 *    fit the budget; otherwise it waits for those in flight (near the budget, requests go out
 *    fewer at a time);
 *  - when the credits charged so far plus the next request's assumed cost pass the budget, the
 *    batch stops sending, before that request, and says why.
 *
 * Hence the total charged passes the budget by at most one answer's surprise, MOST minus the asked
 * cost (9 at depth 1, 8 at depth 2, none at depth 3): the last request to start fitted with every
 * other request in flight counted at MOST, so only its own charge can exceed what was assumed; and
 * after the first surprise every request is assumed at the worst charge seen.
 *
 * A request sent whose outcome is unknown (no answer: a timeout, a dropped connection, a body that
 * could not be read, Ctrl-C) may have been charged: it counts as what it was assumed to cost. Not
 * as MOST: that would stop a batch well inside its budget after two dropped connections and report
 * credits nobody charged; the price is that each such request may add its own surprise to the
 * bound above (none when the run asks depth 3, and none once a surprise has been seen). Its key is
 * kept, so the rerun that finishes it is a free replay if it was charged. An error status is not
 * charged (api-spec.md: "Failed analyses are not charged"; a 504 is refunded); a replay is free.
 */
import { DEPTH_COST, type Depth } from '../api/schemas.js';

/** The most one request can be charged: a depth-3 analysis. */
export const MOST = DEPTH_COST[3];

export interface SpendLimit {
  credits: number;
  /** What set it, for the stop line: "--max-credits 6", "the confirm threshold of 20 (…)". */
  what: string;
}

/** How a request that started ended, for the budget: credits charged, unknown (counted as assumed), or never sent. */
export type Spent = number | 'unknown' | 'unsent';

export type Gate = { kind: 'go' } | { kind: 'stop'; why: string } | { kind: 'cancelled' };

/**
 * The store budget's reservations this run holds and has not settled (team-budget.ts). A request
 * that finds no room while some are held waits for one to settle (sent and charged, or let go)
 * and asks again: stopping at once left credits unused that those requests then gave back (a cap
 * of 10 with 4 spent stopped with 4 unused, which --resume then spent). Only this run's own are
 * waited for: they settle for certain, whereas another process's may stay held for a long time.
 */
export class HeldCredits {
  private held = 0;
  /** Counts settlements: a request that asked before one settled asks again at once. */
  private settledCount = 0;
  private wakers: Array<() => void> = [];

  mark(): number {
    return this.settledCount;
  }
  add(): void {
    this.held++;
  }
  done(): void {
    this.held--;
    this.settledCount++;
    for (const wake of this.wakers.splice(0)) wake();
  }

  /** True when one settled since `mark` (now or after waiting): ask again; false when none is held (or halted). */
  async settledSince(mark: number, halted: AbortSignal): Promise<boolean> {
    if (this.settledCount !== mark) return true;
    if (this.held === 0 || halted.aborted) return false;
    await new Promise<void>((resolve) => {
      const done = () => {
        halted.removeEventListener('abort', done);
        resolve();
      };
      this.wakers.push(done);
      halted.addEventListener('abort', done, { once: true });
    });
    return !halted.aborted;
  }
}

export class SpendGuard {
  /** The store budget's reservations of this run (team-budget.ts holdCredits). */
  readonly held = new HeldCredits();
  private spent = 0;
  /** The most one answer of this run was charged, and the depth it answered. */
  private worst = 0;
  private worstDepth: number | undefined;
  private unknown = 0;
  private inFlight = 0;
  private waiting: Array<() => void> = [];

  constructor(private readonly limit: SpendLimit | undefined, private readonly asked: Depth) {}

  /** What the next request is assumed to cost (module comment). */
  assumed(): number {
    return Math.max(DEPTH_COST[this.asked], this.worst);
  }

  /** Waits until a request may start under the budget; 'go' must be followed by one leave(). */
  async enter(signal?: AbortSignal): Promise<Gate> {
    for (;;) {
      if (signal?.aborted) return { kind: 'cancelled' };
      const next = this.assumed();
      if (this.limit === undefined || this.spent + this.inFlight * MOST + next <= this.limit.credits) {
        this.inFlight++;
        return { kind: 'go' };
      }
      if (this.spent + next > this.limit.credits) return { kind: 'stop', why: this.why(next, this.limit) };
      await new Promise<void>((resolve) => {
        const done = () => {
          signal?.removeEventListener('abort', done);
          resolve();
        };
        this.waiting.push(done);
        signal?.addEventListener('abort', done, { once: true });
      });
    }
  }

  /** A request that entered has ended: what it was charged (`depth`: the depth its answer reported). */
  leave(spent: Spent, depth?: number): void {
    this.inFlight--;
    if (spent === 'unknown') {
      this.spent += this.assumed();
      this.unknown++;
    } else if (spent !== 'unsent') {
      this.spent += spent;
      if (spent > this.worst) {
        this.worst = spent;
        this.worstDepth = depth;
      }
    }
    for (const wake of this.waiting.splice(0)) wake();
  }

  private why(next: number, limit: SpendLimit): string {
    const total = `the next could bring the total to ${this.spent + next}, above ${limit.what}`;
    if (this.worst > DEPTH_COST[this.asked]) {
      const answered = this.worstDepth !== undefined ? ` (answered at depth ${this.worstDepth})` : '';
      return `the service charged ${this.worst} credits for a depth-${this.asked} request${answered}; counting each further request at ${next}, ${total}`;
    }
    const unknown = this.unknown ? ` (counting ${this.unknown === 1 ? 'a request that got no answer: it' : `${this.unknown} requests that got no answer: they`} may have been charged)` : '';
    return `${this.spent} credits charged so far${unknown}; at ${next} for the next request, ${total}`;
  }
}

/**
 * The budget a run keeps while sending (module comment): --max-credits when given; none with --yes
 * (consent whatever it costs); otherwise what was consented to: the plan's credits agreed to at a
 * prompt, and never less than the confirm threshold, below which no consent is needed.
 */
export function spendLimit(o: { maxCredits?: number | undefined; maxCreditsName?: string | undefined; yes?: boolean | undefined; planCredits: number; threshold: number }): SpendLimit | undefined {
  if (o.maxCredits !== undefined) return { credits: o.maxCredits, what: o.maxCreditsName ?? `--max-credits ${o.maxCredits}` };
  if (o.yes) return undefined;
  if (o.planCredits > o.threshold) return { credits: o.planCredits, what: `the ${o.planCredits} credits agreed to (spending more needs consent: --yes or --max-credits N)` };
  return { credits: o.threshold, what: `the confirm threshold of ${o.threshold} (spending more needs consent: --yes or --max-credits N)` };
}
