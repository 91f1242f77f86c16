/**
 * A batch of 120 at the sandbox's own limiters (fixed windows, sliding logs, token buckets; 20 per
 * 3 s and 60 per 10 s), in virtual time (limiter-sim.ts): the counts of 429s are exact and the
 * same on every run. bench/batch.ts measures the same rows with real processes, for the figures.
 * Each request's way is 1-41 ms each way (bench/field.ts's relay holds 0-40 ms), the service
 * answers after 500 ms (the bench's --latency), and a busy machine is modelled too: the service
 * holds one request in five for up to 300 ms before its limiter counts it, and geo sends one in
 * five up to 100 ms after its turn.
 */
import { describe, expect, it } from 'vitest';
import type { RateAlgorithm } from '../../src/sandbox/ratelimit.js';
import { simulateBatch } from './limiter-sim.js';

const LIMITERS: Array<[RateAlgorithm, number, number]> = (['fixed', 'sliding', 'bucket'] as const).flatMap((a) => [[a, 20, 3] as [RateAlgorithm, number, number], [a, 60, 10] as [RateAlgorithm, number, number]]);
const SEEDS = [1, 2, 3, 4, 5];
const BUSY = { stall: { share: 0.2, ms: 300 }, lag: { share: 0.2, ms: 100 } };

describe('a batch of 120 at the sandbox limiters', () => {
  it.each(LIMITERS)('%s, %i per %i s, geo alone on the key, on a busy machine: no answer of 429 (5 seeds)', async (algorithm, limit, windowS) => {
    const refused: number[] = [];
    for (const seed of SEEDS) refused.push((await simulateBatch({ algorithm, images: 120, limit, windowS, latencyMs: 500, jitterMs: 40, seed, ...BUSY })).refused);
    expect(refused).toEqual(SEEDS.map(() => 0));
  });

  it.each(LIMITERS)('%s, %i per %i s, beside another client spending a quarter of every window: at most 1 answer of 429 per 100 requests (5 seeds)', async (algorithm, limit, windowS) => {
    for (const seed of SEEDS) {
      const r = await simulateBatch({ algorithm, images: 120, limit, windowS, latencyMs: 500, jitterMs: 40, seed, other: true });
      expect(r.refused, `seed ${seed}: ${r.refused} of ${r.requests}`).toBeLessThanOrEqual(Math.floor(r.requests / 100));
    }
  });
});
