/**
 * The sandbox's three limiters (--rate-algorithm) on an injected clock: who is let through, and
 * whether the headers' promise holds: `r` may start now, and one more exactly at `t`.
 */
import { describe, expect, it } from 'vitest';
import { type RateAlgorithm, createRateLimiter, rateHeaders } from '../../src/sandbox/ratelimit.js';

function limiter(alg: RateAlgorithm, windowS = 10) {
  let t = 1_000_000;
  const l = createRateLimiter(alg, () => t, windowS);
  return { l, at: (ms: number) => void (t = 1_000_000 + ms), now: () => t };
}

describe('sandbox rate limiters', () => {
  it('fixed: the quota per window, then the whole quota back at the window end', () => {
    const { l, at } = limiter('fixed');
    for (let i = 0; i < 5; i++) expect(l.take('k', 5).exceeded).toBe(false);
    at(4_000);
    const over = l.take('k', 5);
    expect(over).toMatchObject({ exceeded: true, remaining: 0, resetAt: 1_010_000 });
    expect(l.secondsToReset(over)).toBe(6);
    at(10_000);
    for (let i = 0; i < 5; i++) expect(l.take('k', 5).exceeded).toBe(false);
  });

  it('sliding: a request frees its place W seconds after it came, not at a window edge', () => {
    const { l, at } = limiter('sliding');
    at(0);
    l.take('k', 3);
    at(4_000);
    l.take('k', 3);
    const third = l.take('k', 3);
    expect(third).toMatchObject({ remaining: 0, resetAt: 1_010_000 }); // the one at 0 s leaves at 10 s
    at(9_999);
    expect(l.take('k', 3).exceeded).toBe(true);
    at(10_000);
    const next = l.take('k', 3);
    expect(next.exceeded).toBe(false);
    expect(next.resetAt).toBe(1_014_000); // now the two at 4 s are the oldest
    expect(l.take('k', 3).exceeded).toBe(true);
  });

  it('bucket: a burst of the capacity, then one token every W/R, announced by t', () => {
    const { l, at } = limiter('bucket', 3);
    for (let i = 0; i < 20; i++) expect(l.take('k', 20).exceeded).toBe(false);
    const over = l.take('k', 20);
    expect(over).toMatchObject({ exceeded: true, remaining: 0, resetAt: 1_000_150 });
    expect(l.secondsToReset(over)).toBe(1); // rounded up: never early
    at(150);
    expect(l.take('k', 20).exceeded).toBe(false);
    at(3_000 + 150);
    expect(l.take('k', 20, false)).toMatchObject({ remaining: 20, exceeded: false });
  });

  it.each(['fixed', 'sliding', 'bucket'] as const)('%s: a peek counts nothing; headers carry r, t, the policy and Retry-After on a 429', (alg) => {
    const { l } = limiter(alg);
    l.take('k', 2, false);
    l.take('k', 2);
    l.take('k', 2);
    const over = l.take('k', 2);
    const h = rateHeaders(over, l.secondsToReset(over));
    expect(h.RateLimit).toMatch(/^"default";r=0;t=\d+$/);
    expect(h['RateLimit-Policy']).toBe('"default";q=2;w=10');
    expect(h['RateLimit-Remaining']).toBe('0');
    expect(Number(h['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect(Number(h['RateLimit-Reset'])).toBe(Math.ceil(over.resetAt / 1000));
  });
});
