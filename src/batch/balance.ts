/**
 * The balance read before a batch (GET /credits): the plan's `available`, and the first rate-limit
 * headers for the pacer. GET is free of credits, not of rate limit, so one image that cannot need
 * a confirmation skips it: a 402 says the same thing, and a free key (5 a minute) should not spend
 * half its requests on balance checks. For the same reason a 429 is not waited out: the plan goes
 * on without the balance, at once, and the batch's first request waits for the quota instead
 * (a retry would have held the plan until the reset and then spent a request of the new window).
 */
import { ApiError } from '../api/errors.js';
import type { RateLimitInfo } from '../api/ratelimit.js';
import type { BatchClient } from './worker.js';

export interface Balance {
  available?: number;
  rateLimit?: RateLimitInfo;
  /** When the read's answer arrived: the safe bound for the pacer's log of starts. */
  answeredAt?: number;
  /** The read met a 429: rateLimit is that refusal's (the pacer waits for it; it counted nothing). */
  refused?: true;
}

/**
 * 401 and 403 are thrown (every request would fail the same way); any other failure is a notice.
 * `once`: one attempt, no retries. A dry run only shows the balance beside the plan, so an
 * unreachable service costs it one refused connection, not ~3 s of backoff before the plan.
 */
export async function readBalance(client: BatchClient, now: () => number, notice: (message: string) => void, once = false): Promise<Balance> {
  try {
    const c = await client.credits({ ...(once ? { retryBudget: { remaining: 0 } } : {}), waitOnRateLimit: false });
    // When it reached the server is unknown, somewhere before now: its answer's time is the safe
    // bound for the pacer's log (counting it earlier could free its place too soon).
    const answeredAt = now();
    // Read leniently: a snapshot off the contract only leaves the balance unknown.
    const total = (c.data as { data?: { total_available?: unknown } }).data?.total_available;
    return { ...(typeof total === 'number' ? { available: total } : {}), rateLimit: c.rateLimit, answeredAt };
  } catch (err) {
    if (err instanceof ApiError && err.status === 429) return { ...(err.rateLimit ? { rateLimit: err.rateLimit } : {}), refused: true };
    const status = (err as { status?: number }).status;
    if (status === 401 || status === 403) throw err;
    notice(`could not read the credit balance (${err instanceof Error ? err.message : String(err)})`);
    return {};
  }
}
