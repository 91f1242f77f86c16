/**
 * Rate limits per key (api-spec.md "Limits"), and the headers every API response carries: the IETF
 * structured-field pair (RateLimit, RateLimit-Policy), the draft-6 triple and the X- triple. Both
 * *-Reset headers are UNIX timestamps in seconds, as the spec says; the seconds left are in
 * RateLimit's `t` parameter and in Retry-After.
 *
 * The spec names the quota, not the algorithm, so the sandbox models the three common ones
 * (`geo sandbox --rate-algorithm`). One reading of the headers holds for all three, and it is the
 * one a client can act on: `r` requests may start now, and at `t` seconds (RateLimit-Reset) at
 * least one more may, exactly then.
 *  - fixed:   a window of W seconds opens at the first request after the last one closed; `r` is
 *             what is left of it, `t` its end (then the whole quota is back).
 *  - sliding: a log of the last W seconds of requests; `r` = quota - requests in the log, `t` =
 *             when the oldest of them leaves it.
 *  - bucket:  capacity R, refilled at R/W per second; `r` = whole tokens, `t` = when the next whole
 *             token is there (0 when the bucket is full).
 * `t` is rounded up to whole seconds (the draft's integer form): a client that waits for it is
 * never early. Retry-After on a 429 is the same `t`.
 */

export type RateAlgorithm = 'fixed' | 'sliding' | 'bucket';
export const RATE_ALGORITHMS: readonly RateAlgorithm[] = ['fixed', 'sliding', 'bucket'];

export interface RateInfo {
  limit: number;
  remaining: number;
  /** Epoch ms at which one more request may start (see above). */
  resetAt: number;
  windowS: number;
  exceeded: boolean;
}

/** Counts one request against `bucket` (unless consume is false) and says where it stands. */
export interface RateLimiter {
  take(bucket: string, quota: number, consume?: boolean): RateInfo;
  secondsToReset(info: RateInfo): number;
}

abstract class Base<S> implements RateLimiter {
  protected readonly states = new Map<string, S>();
  constructor(protected readonly now: () => number, protected readonly windowS: number) {}

  protected get windowMs(): number {
    return this.windowS * 1000;
  }

  abstract take(bucket: string, quota: number, consume?: boolean): RateInfo;

  secondsToReset(info: RateInfo): number {
    return Math.max(0, Math.ceil((info.resetAt - this.now()) / 1000));
  }

  protected info(quota: number, remaining: number, resetAt: number, exceeded: boolean): RateInfo {
    return { limit: quota, remaining: Math.max(0, remaining), resetAt, windowS: this.windowS, exceeded };
  }
}

class FixedWindow extends Base<{ start: number; count: number }> {
  take(bucket: string, quota: number, consume = true): RateInfo {
    const now = this.now();
    let b = this.states.get(bucket);
    if (!b || now - b.start >= this.windowMs) {
      b = { start: now, count: 0 };
      if (consume) this.states.set(bucket, b);
    }
    const exceeded = consume && b.count >= quota;
    if (consume && !exceeded) b.count++;
    return this.info(quota, quota - b.count, b.start + this.windowMs, exceeded);
  }

  override secondsToReset(info: RateInfo): number {
    // A fixed window always has an end ahead of it (a fresh one included).
    return Math.max(1, super.secondsToReset(info));
  }
}

class SlidingLog extends Base<number[]> {
  take(bucket: string, quota: number, consume = true): RateInfo {
    const now = this.now();
    const log = (this.states.get(bucket) ?? []).filter((t) => t > now - this.windowMs);
    if (consume) this.states.set(bucket, log);
    const exceeded = consume && log.length >= quota;
    if (consume && !exceeded) log.push(now);
    // The entry whose leaving frees one more start (the oldest, or the first over the quota).
    const oldest = log[Math.max(0, log.length - quota)];
    return this.info(quota, quota - log.length, oldest !== undefined ? oldest + this.windowMs : now, exceeded);
  }
}

class TokenBucket extends Base<{ tokens: number; at: number }> {
  take(bucket: string, quota: number, consume = true): RateInfo {
    const now = this.now();
    const perMs = quota / this.windowMs;
    const s = this.states.get(bucket) ?? { tokens: quota, at: now };
    const tokens = Math.min(quota, s.tokens + (now - s.at) * perMs);
    const exceeded = consume && tokens < 1;
    const left = consume && !exceeded ? tokens - 1 : tokens;
    if (consume) this.states.set(bucket, { tokens: left, at: now });
    const whole = Math.floor(left);
    const resetAt = whole >= quota ? now : now + Math.ceil((whole + 1 - left) / perMs);
    return this.info(quota, whole, resetAt, exceeded);
  }
}

export function createRateLimiter(algorithm: RateAlgorithm, now: () => number, windowS: number): RateLimiter {
  if (algorithm === 'sliding') return new SlidingLog(now, windowS);
  if (algorithm === 'bucket') return new TokenBucket(now, windowS);
  return new FixedWindow(now, windowS);
}

export function rateHeaders(info: RateInfo, secondsToReset: number): Record<string, string> {
  const reset = String(Math.ceil(info.resetAt / 1000));
  const h: Record<string, string> = {
    RateLimit: `"default";r=${info.remaining};t=${secondsToReset}`,
    'RateLimit-Policy': `"default";q=${info.limit};w=${info.windowS}`,
    'RateLimit-Limit': String(info.limit),
    'RateLimit-Remaining': String(info.remaining),
    'RateLimit-Reset': reset,
    'X-RateLimit-Limit': String(info.limit),
    'X-RateLimit-Remaining': String(info.remaining),
    'X-RateLimit-Reset': reset,
  };
  if (info.exceeded) h['Retry-After'] = String(Math.max(1, secondsToReset));
  return h;
}
