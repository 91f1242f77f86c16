/**
 * The budget kept while sending (src/batch/spend-guard.ts, issue 30): whatever a service charges,
 * in whatever order its answers come back, the total passes the budget by at most one answer's
 * surprise (10 minus the asked cost), and a run stops only when the next request could not fit.
 */
import { describe, expect, it } from 'vitest';
import { DEPTH_COST, type Depth } from '../../src/api/schemas.js';
import { MOST, SpendGuard, spendLimit } from '../../src/batch/spend-guard.js';

/** A deterministic pseudo-random sequence (xorshift), so a failing case can be replayed. */
function random(seed: number): () => number {
  let x = seed || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return ((x >>> 0) % 1_000_000) / 1_000_000;
  };
}

/**
 * `workers` requests at a time over `jobs` images against a service that charges each answer
 * `charge(n)` (n counts answers from 1), answers arriving in a shuffled order: what it charged.
 */
async function simulate(o: { limit: number; depth: Depth; jobs: number; workers: number; seed: number; charge: (n: number, r: () => number) => number }): Promise<{ total: number; sent: number; stopped: boolean }> {
  const r = random(o.seed);
  const guard = new SpendGuard({ credits: o.limit, what: `--max-credits ${o.limit}` }, o.depth);
  let next = 0;
  let answered = 0;
  let total = 0;
  let stopped = false;
  const worker = async () => {
    while (!stopped && next < o.jobs) {
      next++;
      const gate = await guard.enter();
      if (gate.kind !== 'go') {
        stopped = true;
        return;
      }
      // The answer takes a few turns of the event loop, a different number each time.
      for (let i = Math.floor(r() * 5); i > 0; i--) await Promise.resolve();
      const credits = o.charge(++answered, r);
      total += credits;
      guard.leave(credits, credits === MOST ? 3 : o.depth);
    }
  };
  await Promise.all(Array.from({ length: o.workers }, worker));
  return { total, sent: answered, stopped };
}

describe('SpendGuard: the budget against what the service charged', () => {
  it('an honest service within the budget: every request goes, nothing stops', async () => {
    const got = await simulate({ limit: 20, depth: 1, jobs: 20, workers: 8, seed: 7, charge: () => 1 });
    expect(got).toEqual({ total: 20, sent: 20, stopped: false });
  });

  it.each([1, 2, 3] as const)('depth %i: a service that charges depth 3 at random, 8 requests at a time, over 200 seeds: never more than the budget + (10 - asked cost)', async (depth) => {
    for (let seed = 1; seed <= 200; seed++) {
      const limit = 5 + (seed % 60);
      if (limit < DEPTH_COST[depth]) continue;
      const got = await simulate({ limit, depth, jobs: 40, workers: 8, seed, charge: (_n, r) => (r() < 0.3 ? MOST : DEPTH_COST[depth]) });
      expect(got.total, `seed ${seed}, limit ${limit}`).toBeLessThanOrEqual(limit + MOST - DEPTH_COST[depth]);
    }
  });

  it('a service honest for its first answers, then depth 3 for every one: still within one surprise', async () => {
    const got = await simulate({ limit: 30, depth: 1, jobs: 50, workers: 16, seed: 3, charge: (n) => (n <= 5 ? 1 : MOST) });
    expect(got.total).toBeLessThanOrEqual(30 + MOST - 1);
    expect(got.stopped).toBe(true);
  });

  it('stops before a request whose assumed cost cannot fit, and says what the service charged', async () => {
    const guard = new SpendGuard({ credits: 6, what: '--max-credits 6' }, 1);
    expect(await guard.enter()).toEqual({ kind: 'go' });
    guard.leave(10, 3);
    expect(guard.assumed()).toBe(10);
    expect(await guard.enter()).toEqual({ kind: 'stop', why: 'the service charged 10 credits for a depth-1 request (answered at depth 3); counting each further request at 10, the next could bring the total to 20, above --max-credits 6' });
  });

  it('waits while requests in flight might leave no room, and goes when they come back cheaper (a replay is free)', async () => {
    const guard = new SpendGuard({ credits: 12, what: '--max-credits 12' }, 1);
    expect(await guard.enter()).toEqual({ kind: 'go' });
    expect(await guard.enter()).toEqual({ kind: 'go' }); // 0 + 10 + 1 <= 12
    let third: unknown;
    const pending = guard.enter().then((g) => (third = g)); // 0 + 20 + 1 > 12: waits
    await Promise.resolve();
    expect(third).toBeUndefined();
    guard.leave(0); // a replay
    await pending;
    expect(third).toEqual({ kind: 'go' });
  });

  it('a request with no answer counts as what it was assumed to cost; one never sent, nothing', async () => {
    const guard = new SpendGuard({ credits: 4, what: '--max-credits 4' }, 1);
    await guard.enter();
    guard.leave('unsent');
    await guard.enter();
    guard.leave('unknown');
    await guard.enter();
    guard.leave(1);
    expect(await guard.enter()).toEqual({ kind: 'go' }); // 2 + 1 <= 4
    guard.leave(1);
    expect(await guard.enter()).toEqual({ kind: 'go' }); // 3 + 1 <= 4
    guard.leave(1);
    expect(await guard.enter()).toMatchObject({ kind: 'stop', why: expect.stringMatching(/^4 credits charged so far \(counting a request that got no answer: it may have been charged\); at 1 for the next request/) });
  });

  it('after a surprise, a request with no answer counts at the worst charge seen', async () => {
    const guard = new SpendGuard({ credits: 30, what: '--max-credits 30' }, 1);
    await guard.enter();
    guard.leave(10, 3);
    await guard.enter();
    guard.leave('unknown');
    expect(await guard.enter()).toEqual({ kind: 'go' }); // 20 + 10 <= 30
    guard.leave(10, 3);
    expect(await guard.enter()).toMatchObject({ kind: 'stop' }); // 30 + 10 > 30
  });

  it('Ctrl-C while waiting for room: cancelled at once', async () => {
    const guard = new SpendGuard({ credits: 5, what: '--max-credits 5' }, 1);
    await guard.enter();
    const ctl = new AbortController();
    const waiting = guard.enter(ctl.signal);
    ctl.abort();
    expect(await waiting).toEqual({ kind: 'cancelled' });
  });
});

describe('spendLimit: what a run may spend, by what was consented', () => {
  it('--max-credits is the budget, named as given', () => {
    expect(spendLimit({ maxCredits: 6, planCredits: 6, threshold: 20 })).toEqual({ credits: 6, what: '--max-credits 6' });
    expect(spendLimit({ maxCredits: 10, maxCreditsName: '--max-credits-per-call 10', yes: true, planCredits: 6, threshold: 20 })?.what).toBe('--max-credits-per-call 10');
  });
  it('--yes consents whatever it costs: no budget', () => {
    expect(spendLimit({ yes: true, planCredits: 600, threshold: 20 })).toBeUndefined();
  });
  it('no consent needed: the confirm threshold; a yes at the prompt: the credits agreed to', () => {
    expect(spendLimit({ planCredits: 6, threshold: 20 })).toMatchObject({ credits: 20, what: expect.stringMatching(/^the confirm threshold of 20/) });
    expect(spendLimit({ planCredits: 60, threshold: 20 })).toMatchObject({ credits: 60, what: expect.stringMatching(/^the 60 credits agreed to/) });
  });
});
