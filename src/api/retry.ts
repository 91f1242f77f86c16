/**
 * The retry policy: what is resent, how often, and how long to wait. Money is involved, so a row
 * is only "retry" when a repeat cannot charge twice: POST /geolocate carries one Idempotency-Key and
 * one set of body bytes on every attempt (api-spec.md "States and transitions": a completed key
 * replays free); GETs change nothing; POST /cases has no key, so it is resent only when nothing
 * reached the server (connection refused) or the server said so (429).
 *
 * | outcome                                   | geolocate (keyed) | GET (idempotent) | POST /cases (unsafe) | wait                        |
 * |-------------------------------------------|-------------------|------------------|----------------------|-----------------------------|
 * | connection refused (ECONNREFUSED)         | 3 retries         | 3 retries        | 3 retries            | backoff                     |
 * | connection reset / other network error    | 3 retries         | 3 retries        | never                | backoff                     |
 * | per-attempt timeout                       | 2 retries         | 2 retries        | never                | backoff                     |
 * | truncated or aborted body                 | 3 retries         | 3 retries        | never                | backoff                     |
 * | 2xx body not JSON or not decodable        | 2 retries         | 2 retries        | never                | backoff                     |
 * | 2xx JSON off the contract (any field,     | never             | never            | never                | -                           |
 * |   status 201/202, BOM): kept, see below   |                   |                  |                      |                             |
 * | 2xx carrying an error body                | as that error's status (its `status`, else its code's)                         |
 * | 429 rate_limited                          | 4 retries         | 4 retries        | 4 retries            | the server's time (below)   |
 * | 409 idempotency_in_progress               | until deadline    | -                | -                    | backoff (min 500 ms)        |
 * | 500 (and any unlisted 5xx)                | 2 retries         | 2 retries        | never                | backoff                     |
 * | 502, 503                                  | 3 retries         | 3 retries        | never                | backoff                     |
 * | 504                                       | 2 retries         | 2 retries        | never                | backoff                     |
 * | 400, 401, 402 (both codes), 403, 404,     | never             | never            | never                | -                           |
 * |   405, 409 payload mismatch, 422          |                   |                  |                      |                             |
 * | 3xx (RedirectError), client-side invalid, | never             | never            | never                | -                           |
 * |   response above the size cap             |                   |                  |                      |                             |
 *
 * Backoff is full jitter: random() * min(cap 20 s, base 1 s * 2^(retry-1)). The 429 wait is the
 * server's: Retry-After, else the body's retry_after (api-spec.md "Error cases": "retry
 * after retry_after seconds; Retry-After header sent"); RateLimit's `t` only when its `r` is 0 and
 * no Retry-After came (r > 0 means the quota is not what refused us, and t may be a window away);
 * with none of these, backoff, and also for a second Retry-After: 0 in a row (resending at once
 * would hammer). A server wait longer than 5 minutes, or past the request's deadline, is not slept
 * through: RetryLaterError at once, nothing resent early; an absurd header (a Retry-After past a
 * day, `99999999999999999999` included) is clamped to a day by ratelimit.ts, so it ends here too.
 * No retry starts if its wait would end after the request's deadline. So every wait is bounded:
 * at most 5 minutes (the server's word) or 20 s (backoff), and the deadline.
 * A 429 given up on (its retries spent, the batch's budget spent, the deadline near) carries
 * `gaveUp`: the attempts and when to come back (comeBack below), for the line that ends the run.
 * An optional shared RetryBudget caps the retries of a whole batch; 409 polls do not spend it,
 * because abandoning an analysis already running would lose a result that is being paid for.
 *
 * A 2xx whose body parses is never resent, whatever it holds: the server replays a completed key
 * with the same body, so a retry changes nothing but the bill of a keyless POST. It is returned
 * with its deviations named (response.ts); the caller keeps it and decides what it can use
 * (DESIGN.md "Never lose what was paid").
 */
import { ApiError, ContractError, NetworkError, ResponseTooLargeError, RetryLaterError, TimeoutError } from './errors.js';
import { MAX_SERVER_WAIT_S } from './ratelimit.js';

export type RetryClass = 'keyed' | 'idempotent' | 'unsafe';
export type RetryReason =
  | 'refused' | 'reset' | 'timeout' | 'truncated' | 'bad_body'
  | 'rate_limited' | 'in_progress' | 'server_error' | 'unavailable' | 'gateway_timeout';

export interface RetryPolicy {
  baseMs: number;
  capMs: number;
  /** Room for one 429 wait in the client's default deadline (client.ts). */
  rateLimitCapMs: number;
  /** The longest 429 wait slept through; a longer one ends in RetryLaterError. */
  rateLimitMaxWaitMs: number;
  /** Floor for 409 polls, so full jitter never turns polling into a busy loop. */
  pollMinMs: number;
  /** Wall-clock budget of one logical request, from its first attempt. */
  deadlineMs: number;
  /** Retries allowed per reason (not counting the first attempt). */
  max: Record<RetryReason, number>;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseMs: 1000,
  capMs: 20_000,
  rateLimitCapMs: 60_000,
  rateLimitMaxWaitMs: 300_000,
  pollMinMs: 500,
  deadlineMs: 360_000,
  max: {
    refused: 3, reset: 3, timeout: 2, truncated: 3, bad_body: 2,
    rate_limited: 4, in_progress: Number.POSITIVE_INFINITY, server_error: 2, unavailable: 3, gateway_timeout: 2,
  },
};

/** Shared by every request of a batch; each retry (not 409 polls) takes one. */
export interface RetryBudget {
  remaining: number;
}

export interface RetryInfo {
  /** The attempt that just failed, 1-based. */
  attempt: number;
  delayMs: number;
  reason: RetryReason;
  status?: number;
}

/** Which rows may each class of route retry (see the table above). */
const ALLOWED: Record<RetryClass, ReadonlySet<RetryReason>> = {
  keyed: new Set<RetryReason>(['refused', 'reset', 'timeout', 'truncated', 'bad_body', 'rate_limited', 'in_progress', 'server_error', 'unavailable', 'gateway_timeout']),
  idempotent: new Set<RetryReason>(['refused', 'reset', 'timeout', 'truncated', 'bad_body', 'rate_limited', 'server_error', 'unavailable', 'gateway_timeout']),
  unsafe: new Set<RetryReason>(['refused', 'rate_limited']),
};

/** The row an error belongs to, or undefined for "never retried". */
export function classify(err: unknown): { reason: RetryReason; status?: number } | undefined {
  if (err instanceof ApiError) {
    const s = err.status;
    if (s === 429) return { reason: 'rate_limited', status: s };
    if (s === 409) return err.code === 'idempotency_in_progress' ? { reason: 'in_progress', status: s } : undefined;
    if (s === 502 || s === 503) return { reason: 'unavailable', status: s };
    if (s === 504) return { reason: 'gateway_timeout', status: s };
    if (s >= 500 && s <= 599) return { reason: 'server_error', status: s };
    return undefined;
  }
  if (err instanceof TimeoutError) return { reason: 'timeout' };
  if (err instanceof NetworkError) return { reason: err.mayHaveRun ? 'reset' : 'refused' };
  if (err instanceof ResponseTooLargeError) return undefined; // the same replay would be just as large
  if (err instanceof ContractError) return { reason: err.truncated ? 'truncated' : 'bad_body', status: err.status };
  return undefined;
}

/** Full jitter (AWS architecture blog, "Exponential Backoff And Jitter"). */
export function backoffMs(retry: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(Math.min(1, Math.max(0, random())) * ceiling);
}

/** The server's wait for a 429 in ms (rules above), or undefined when it gave none. */
export function rateLimitWaitMs(err: ApiError, nowMs: number): number | undefined {
  const rl = err.rateLimit;
  if (rl?.retryAfterS !== undefined) return rl.retryAfterS * 1000;
  const body = err.body as { retry_after?: unknown } | undefined;
  if (typeof body?.retry_after === 'number' && Number.isFinite(body.retry_after) && body.retry_after >= 0) return Math.ceil(body.retry_after * 1000);
  if (rl?.remaining === 0 && rl.resetAt !== undefined) return Math.max(0, rl.resetAt - nowMs);
  return undefined;
}

/** The wait before resending after a 429: the server's, or backoff; throws when it is too long. */
function rateLimitDelay(err: ApiError, run: RetryRun, backoff: number, earlier429s: number, deadline: number): number {
  const server = rateLimitWaitMs(err, run.now());
  if (server === undefined || (server === 0 && earlier429s > 0)) return backoff;
  const now = run.now();
  if (server > run.policy.rateLimitMaxWaitMs || now + server > deadline) throw new RetryLaterError(err, now + server, server);
  return server;
}

/**
 * When to come back after giving up on a 429, from what the server said: its wait (Retry-After,
 * retry_after, a spent quota's reset), else its reset, else one window of its policy, else a minute
 * (api-spec.md "Limits": every quota is per minute).
 */
export function comeBack(err: ApiError, nowMs: number): { retryAt: number; basis: string } {
  const rl = err.rateLimit;
  const server = rateLimitWaitMs(err, nowMs);
  if (server !== undefined && server > 0) return { retryAt: nowMs + Math.min(server, MAX_SERVER_WAIT_S * 1000), basis: rl?.retryAfterS !== undefined ? 'its Retry-After' : 'its own wait' };
  if (rl?.resetAt !== undefined && rl.resetAt > nowMs) return { retryAt: rl.resetAt, basis: 'its rate-limit reset' };
  if (rl?.windowS !== undefined) return { retryAt: nowMs + Math.min(rl.windowS, MAX_SERVER_WAIT_S) * 1000, basis: 'one window of its rate-limit policy' };
  return { retryAt: nowMs + 60_000, basis: 'the service counts requests per minute' };
}

/** `err` as it ends the run: a 429 says how many attempts it took and when to come back. */
function givenUp(err: unknown, attempts: number, nowMs: number): unknown {
  if (err instanceof ApiError && err.status === 429 && !(err instanceof RetryLaterError)) {
    const back = comeBack(err, nowMs);
    err.gaveUp = { attempts, ...back, waitMs: back.retryAt - nowMs };
  }
  return err;
}

export interface RetryRun {
  cls: RetryClass;
  policy: RetryPolicy;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  signal?: AbortSignal;
  budget?: RetryBudget;
  onRetry?: (info: RetryInfo) => void;
}

/**
 * Runs `attempt(n)` (n is 1-based) until it succeeds or the table says stop; then the last error
 * is thrown as it was. An abort of `signal` ends the run at once with the signal's reason.
 */
export async function withRetry<T>(run: RetryRun, attempt: (n: number) => Promise<T>): Promise<T> {
  const { policy, now } = run;
  const deadline = now() + policy.deadlineMs;
  const used: Partial<Record<RetryReason, number>> = {};
  let retries = 0;
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (err) {
      if (run.signal?.aborted) throw run.signal.reason ?? err;
      // A resend's turn refused by the batch's pacer (its next start too far off): no retry of that.
      if (err instanceof RetryLaterError) throw err;
      const row = classify(err);
      if (!row || !ALLOWED[run.cls].has(row.reason)) throw err;
      if ((used[row.reason] ?? 0) >= policy.max[row.reason]) throw givenUp(err, n, now());
      const polling = row.reason === 'in_progress';
      if (!polling && run.budget && run.budget.remaining <= 0) throw givenUp(err, n, now());
      retries++;
      let delayMs = backoffMs(retries, policy, run.random);
      if (row.reason === 'rate_limited') delayMs = rateLimitDelay(err as ApiError, run, delayMs, used.rate_limited ?? 0, deadline);
      if (polling) delayMs = Math.max(policy.pollMinMs, delayMs);
      if (now() + delayMs > deadline) throw givenUp(err, n, now());
      used[row.reason] = (used[row.reason] ?? 0) + 1;
      if (!polling && run.budget) run.budget.remaining--;
      run.onRetry?.({ attempt: n, delayMs, reason: row.reason, ...(row.status !== undefined ? { status: row.status } : {}) });
      await run.sleep(delayMs, run.signal);
    }
  }
}
