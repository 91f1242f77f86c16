/** The pure parts of retry.ts: backoff bounds, the 429 wait, classification, abort. */
import { describe, expect, it } from 'vitest';
import { ApiError, ContractError, NetworkError, RedirectError, TimeoutError } from '../../src/api/errors.js';
import { DEFAULT_RETRY_POLICY, backoffMs, classify, rateLimitWaitMs, withRetry } from '../../src/api/retry.js';
import { ResponseTooLargeError } from '../../src/api/transport.js';

describe('retry policy (unit)', () => {
  it('backoff: full jitter, base 1 s, cap 20 s', () => {
    expect([1, 2, 3, 4, 5, 6, 10].map((n) => backoffMs(n, DEFAULT_RETRY_POLICY, () => 0.999999))).toEqual([999, 1999, 3999, 7999, 15999, 19999, 19999]);
    expect(backoffMs(3, DEFAULT_RETRY_POLICY, () => 0)).toBe(0);
  });

  it('429 wait: Retry-After, else the body\'s retry_after, else RateLimit t when r is 0; undefined otherwise', () => {
    const now = 1000;
    const e = (body: object, rl: object) => new ApiError(429, 'rate_limited', 'slow down', { body, rateLimit: rl });
    expect(rateLimitWaitMs(e({ retry_after: 4 }, { retryAfterS: 2, remaining: 0, resetAt: now + 3000 }), now)).toBe(2000);
    expect(rateLimitWaitMs(e({ retry_after: 4 }, { remaining: 0, resetAt: now + 3000 }), now)).toBe(4000);
    expect(rateLimitWaitMs(e({}, { remaining: 0, resetAt: now + 3000 }), now)).toBe(3000);
    expect(rateLimitWaitMs(e({}, { remaining: 5, resetAt: now + 3000 }), now)).toBeUndefined();
    expect(rateLimitWaitMs(e({}, { retryAfterS: 900 }), now)).toBe(900_000);
    expect(rateLimitWaitMs(e({}, {}), now)).toBeUndefined();
  });

  it('classify: rows of the table', () => {
    expect(classify(new NetworkError('x', 'ECONNREFUSED', false))?.reason).toBe('refused');
    expect(classify(new NetworkError('x', 'ECONNRESET', true))?.reason).toBe('reset');
    expect(classify(new TimeoutError(10))?.reason).toBe('timeout');
    expect(classify(new ContractError('x', 200, true))?.reason).toBe('truncated');
    expect(classify(new ContractError('x', 200))?.reason).toBe('bad_body');
    expect(classify(new ResponseTooLargeError('x', 200))).toBeUndefined();
    expect(classify(new RedirectError(302, 'https://elsewhere'))).toBeUndefined();
    expect(classify(new ApiError(409, 'conflict', 'x'))).toBeUndefined();
    expect(classify(new ApiError(409, 'idempotency_in_progress', 'x'))?.reason).toBe('in_progress');
    expect(classify(new ApiError(501, 'http_501', 'x'))?.reason).toBe('server_error');
  });

  it('an abort ends the run at once with the signal reason', async () => {
    const ac = new AbortController();
    let calls = 0;
    const run = withRetry(
      { cls: 'keyed', policy: DEFAULT_RETRY_POLICY, now: () => 0, random: () => 0.5, signal: ac.signal, sleep: async () => {} },
      async () => {
        calls++;
        ac.abort(new Error('cancelled by user'));
        throw new ApiError(503, 'unavailable', 'x');
      },
    );
    await expect(run).rejects.toThrow('cancelled by user');
    expect(calls).toBe(1);
  });
});
