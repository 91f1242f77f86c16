/**
 * Fixed-window rate limits per key (api-spec.md "Limits"), and the headers every API response
 * carries: the IETF structured-field pair (RateLimit, RateLimit-Policy), the draft-6 triple and the
 * X- triple. Both *-Reset headers are UNIX timestamps in seconds, as the spec says; the seconds left
 * are in RateLimit's `t` parameter and in Retry-After.
 */

export interface RateInfo {
  limit: number;
  remaining: number;
  /** Epoch ms at which the window resets. */
  resetAt: number;
  windowS: number;
  exceeded: boolean;
}

interface Bucket {
  start: number;
  count: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  constructor(private readonly now: () => number, private readonly windowS: number) {}

  /** Counts one request against `bucket` (unless consume is false) and says where it stands. */
  take(bucket: string, quota: number, consume = true): RateInfo {
    const now = this.now();
    const windowMs = this.windowS * 1000;
    let b = this.buckets.get(bucket);
    if (!b || now - b.start >= windowMs) {
      b = { start: now, count: 0 };
      if (consume) this.buckets.set(bucket, b);
    }
    const exceeded = consume && b.count >= quota;
    if (consume && !exceeded) b.count++;
    return { limit: quota, remaining: Math.max(0, quota - b.count), resetAt: b.start + windowMs, windowS: this.windowS, exceeded };
  }

  secondsToReset(info: RateInfo): number {
    return Math.max(1, Math.ceil((info.resetAt - this.now()) / 1000));
  }
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
  if (info.exceeded) h['Retry-After'] = String(secondsToReset);
  return h;
}
