/**
 * The 429 rules of issue 12 (src/api/retry.ts), each on an injected clock against a scripted
 * server over real HTTP: the server's wait is the wait, RateLimit `t` only when `r` is 0, backoff
 * otherwise (a repeated Retry-After: 0 included), and a wait past 5 minutes or the deadline ends at
 * once with RetryLaterError, nothing resent.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, RetryLaterError } from '../../src/api/errors.js';
import { OK_D1, REQ, errBody, fakeClock, json, makeClient, perTest, scriptedServer } from './helpers.js';

const t = perTest();

const tooMany = (headers: Record<string, string>, extra: Record<string, unknown> = {}) => json(429, errBody(429, 'rate_limited', extra), headers);

async function delaysFor(first: ReturnType<typeof json>, opts: Parameters<typeof makeClient>[2] = {}) {
  t.server = await scriptedServer([first, json(200, OK_D1)]);
  const clock = fakeClock();
  t.client = makeClient(t.server.url, clock, opts);
  await t.client.geolocate(REQ);
  return clock.delays;
}

describe('429 waits follow the server', () => {
  it('Retry-After is the wait, even when RateLimit says the window ends much later', async () => {
    expect(await delaysFor(tooMany({ 'retry-after': '1', ratelimit: '"default";r=28;t=57' }))).toEqual([1000]);
  });

  it("the body's retry_after is the wait when no Retry-After header came", async () => {
    expect(await delaysFor(tooMany({ ratelimit: '"default";r=0;t=9' }, { retry_after: 4 }))).toEqual([4000]);
  });

  it("RateLimit's t is the wait only when its r is 0 and no Retry-After came", async () => {
    expect(await delaysFor(tooMany({ ratelimit: '"default";r=0;t=12' }))).toEqual([12_000]);
  });

  it('r above 0 and no Retry-After: backoff with full jitter, not the window', async () => {
    // random() = 0.5 in makeClient: half of the first backoff ceiling (1 s).
    expect(await delaysFor(tooMany({ ratelimit: '"default";r=3;t=50' }))).toEqual([500]);
  });

  it('no hint at all: backoff with full jitter', async () => {
    expect(await delaysFor(tooMany({}))).toEqual([500]);
  });

  it('Retry-After: 0 once is resent at once; repeated, it is backoff', async () => {
    const zero = tooMany({ 'retry-after': '0' });
    const server = await scriptedServer([zero, zero, zero, json(200, OK_D1)]);
    t.server = server;
    const clock = fakeClock();
    const client = makeClient(server.url, clock);
    t.client = client;
    const res = await client.geolocate(REQ);
    expect(res.attempts).toBe(4);
    expect(clock.delays).toEqual([0, 1000, 2000]);
  });

  it('a wait above 5 minutes ends at once: RetryLaterError (a 429, exit 5), one request, no sleep', async () => {
    const server = await scriptedServer([tooMany({ 'retry-after': '86400' })]);
    t.server = server;
    const clock = fakeClock(Date.UTC(2026, 10, 23, 12, 0, 0));
    const client = makeClient(server.url, clock);
    t.client = client;
    const err = await client.geolocate(REQ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryLaterError);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(429);
    const at = new Date(clock.now() + 86_400_000);
    const hhmm = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
    expect((err as Error).message).toBe(`the service asks to retry after ${hhmm} (in 86400 s)`);
    expect(server.seen).toHaveLength(1);
    expect(clock.delays).toEqual([]);
  });

  it("a wait that would pass the request's deadline ends at once, even under 5 minutes", async () => {
    const server = await scriptedServer([tooMany({ 'retry-after': '120' })]);
    t.server = server;
    const clock = fakeClock();
    const client = makeClient(server.url, clock, { retry: { deadlineMs: 60_000 } });
    t.client = client;
    const err = await client.geolocate(REQ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryLaterError);
    expect((err as Error).message).toMatch(/\(in 120 s\)$/);
    expect(server.seen).toHaveLength(1);
    expect(clock.delays).toEqual([]);
  });

  it('a wait of exactly 5 minutes is slept through', async () => {
    expect(await delaysFor(tooMany({ 'retry-after': '300' }))).toEqual([300_000]);
  });
});
