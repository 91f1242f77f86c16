/**
 * Waits that end (issue 30): every hold of the pacer has an upper bound from what the server said
 * (a 429's gate, its reset, the policy's window) plus the margin; a next start further off than 5
 * minutes ends the batch (RetryLaterError, exit 5); a wait over 5 s is told with its end and why.
 */
import { describe, expect, it } from 'vitest';
import { RetryLaterError } from '../../src/api/errors.js';
import { Pacer } from '../../src/batch/pacer.js';
import { type Hold, holdReason } from '../../src/batch/pacer-waits.js';
import { waitingLine } from '../../src/commands/locate/notes.js';

/** A clock that sleep() advances: acquire() calls are serialized, so virtual time is exact. */
function virtualClock(start = 1_000_000) {
  let t = start;
  return { now: () => t, sleep: async (ms: number) => void (t += ms) };
}

/** acquire(), or -1 when it has not resolved after `virtualMs` of sleeping (a hold that does not end). */
async function acquireWithin(p: Pacer, c: { now: () => number }, virtualMs: number): Promise<number> {
  const t0 = c.now();
  const turn = p.acquire();
  for (;;) {
    const s = await Promise.race([turn, new Promise<number>((r) => setImmediate(() => r(-1)))]);
    if (s >= 0) return s;
    if (c.now() - t0 > virtualMs) return -1;
  }
}

describe('pacer: every hold ends (issue 30)', () => {
  it('a 429 with Retry-After: 0 and RateLimit r=0;t=0: each resend goes when its gate ends, not minutes later', async () => {
    const c = virtualClock();
    const p = new Pacer(c);
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 5; attempt++) {
      const t0 = c.now();
      const seq = await acquireWithin(p, c, 10_000);
      expect(seq, `attempt ${attempt} was held past 10 s`).toBeGreaterThan(0);
      waits.push(c.now() - t0);
      // What the server said: none left, reset now, retry now; and the retry loop's backoff of 1 s.
      p.observe(seq, { limit: 30, windowS: 60, remaining: 0, resetAt: c.now() }, { status: 429, rttMs: 5 });
      p.pause(c.now() + 1000);
    }
    // The gate (1 s) and nothing more: before the fix the third attempt waited 120 s.
    for (const w of waits.slice(1)) expect(w).toBeLessThanOrEqual(1000);
  });

  it('whatever other clients are thought to spend, a start is held at most a window (and the margin) past the reset and our last start', async () => {
    const c = virtualClock();
    const p = new Pacer(c, { limit: 30, windowS: 60 }, c.now());
    // Answers that read as other clients spending nearly all of the quota: 2 left with 1 of ours.
    const s1 = await p.acquire();
    p.observe(s1, { limit: 30, windowS: 60, remaining: 2, resetAt: c.now() + 1000 }, { status: 200, rttMs: 5 });
    const s2 = await p.acquire();
    p.observe(s2, { limit: 30, windowS: 60, remaining: 0, resetAt: c.now() + 1000 }, { status: 429, rttMs: 5 });
    const last = c.now();
    const seq = await acquireWithin(p, c, 10 * 60_000);
    expect(seq).toBeGreaterThan(0);
    // reset (1 s) + window (60 s) + margin (at most 5% of the window, 2 s)
    expect(c.now() - last).toBeLessThanOrEqual(1000 + 60_000 + 2000 + 1);
  });

  it('a next start more than 5 minutes off ends in RetryLaterError at once, with its time and why', async () => {
    const c = virtualClock();
    const reset = c.now() + 3_600_000;
    const p = new Pacer(c, { limit: 30, windowS: 60, remaining: 0, resetAt: reset }, c.now());
    const err = await p.acquire().then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(RetryLaterError);
    expect((err as RetryLaterError).retryAt).toBeGreaterThanOrEqual(reset);
    expect((err as RetryLaterError).message).toMatch(/the service says none is left: the next request could start only after \d\d:\d\d \(in 3601 s\)/);
    expect(c.now()).toBe(reset - 3_600_000);
  });

  it('a wait over 5 s is told once, with when it ends and why; a shorter one is not', async () => {
    const c = virtualClock();
    const told: Array<{ until: number; why: string }> = [];
    const onWait = (until: number, why: string) => void told.push({ until, why });
    const reset = c.now() + 20_000;
    const p = new Pacer({ ...c, onWait }, { limit: 30, windowS: 60, remaining: 0, resetAt: reset }, c.now());
    await p.acquire();
    expect(c.now()).toBeGreaterThanOrEqual(reset);
    expect(told).toEqual([{ until: reset + 1, why: "the service says none is left" }]);

    const q = new Pacer({ ...c, onWait }, { limit: 30, windowS: 60, remaining: 0, resetAt: c.now() + 4000 }, c.now());
    await q.acquire();
    expect(told).toHaveLength(1);
  });

  it('a run whose quota an earlier run spent waits a window past the reset, and says so once, blaming no client', async () => {
    const c = virtualClock();
    const told: Array<{ until: number; why: string }> = [];
    // The balance read took the last request of the window: 0 left for 47 s, 5 spent before it.
    const p = new Pacer({ ...c, onWait: (until, why) => void told.push({ until, why }) }, { limit: 6, windowS: 60, remaining: 0, resetAt: c.now() + 47_000 }, c.now());
    expect(await acquireWithin(p, c, 10 * 60_000)).toBe(1);
    // Held past the reset by the others' spend it guessed, looked at again every second: one line.
    expect(told).toEqual([{ until: expect.any(Number) as number, why: 'the service says none is left' }]);
  });

  it('after a balance read refused by a 429: its wait is told, not the look-again times while the first answer is on its way', async () => {
    // Its sleeps yield to the event loop, so an answer can come while a start waits.
    let t = 1_000_000;
    const c = { now: () => t, sleep: async (ms: number) => void (t += ms, await new Promise((r) => setImmediate(r))) };
    const told: Array<{ until: number; why: string }> = [];
    const gate = c.now() + 47_000;
    const p = new Pacer({ ...c, onWait: (until, why) => void told.push({ until, why }) }, { limit: 6, windowS: 60, remaining: 0, resetAt: gate, retryAfterS: 47 }, undefined, true);
    expect(await acquireWithin(p, c, 60_000)).toBe(1);
    expect(c.now()).toBeGreaterThanOrEqual(gate);
    // The second goes by geo's own log; the third waits for answers (the log has earned one start
    // unanswered at a time so far), looking again every 10 s or at the first news.
    expect(await acquireWithin(p, c, 0)).toBe(2);
    const third = p.acquire();
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    p.observe(1, { limit: 6, windowS: 60, remaining: 4, resetAt: c.now() + 60_000 }, { status: 200, rttMs: 50 });
    expect(await third).toBe(3);
    expect(told).toEqual([{ until: gate, why: 'the service says none is left' }]);
  });

  it('each reason names what the answers showed, and the line saying it fits 80 columns', () => {
    const now = new Date(2026, 0, 1, 14, 5, 9).getTime();
    const reasons = (['reset', 'window', 'others'] as Hold[]).map((h) => holdReason(h, 120, 600_000, 30));
    expect(reasons).toEqual(['the service says none is left', 'geo used all 120 per 600 s', 'other requests used 30 of 120']);
    for (const why of reasons) expect(waitingLine({ untilMs: now + 299_000, why }, now).length, why).toBeLessThanOrEqual(80);
  });
});
