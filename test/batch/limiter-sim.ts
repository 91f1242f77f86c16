/**
 * A batch against the sandbox's own limiters (src/sandbox/ratelimit.ts) in virtual time: the pacer
 * (src/batch/pacer.ts) as the scheduler drives it, each request reaching the limiter after a seeded
 * delay and its answer, with the headers the sandbox would send read as the client reads them,
 * coming back after the service's time and another delay; a 429 waits its Retry-After, closes the
 * gate and goes again, as the client and worker do. What bench/batch.ts measures on the wire with
 * real processes, here repeatable to the millisecond, so a count of 429s can be asserted.
 */
import { parseRateLimit } from '../../src/api/ratelimit.js';
import { Pacer } from '../../src/batch/pacer.js';
import { mulberry32 } from '../../src/sandbox/faults.js';
import { type RateAlgorithm, createRateLimiter, rateHeaders } from '../../src/sandbox/ratelimit.js';

/** Virtual time: sleeps and scheduled events run in time order, each after the microtasks before it settled. */
class Clock {
  now = 1_700_000_000_000;
  private events: Array<{ at: number; n: number; fire: () => void }> = [];
  private n = 0;

  at(at: number, fire: () => void): () => void {
    const e = { at: Math.max(at, this.now), n: this.n++, fire };
    this.events.push(e);
    return () => (this.events = this.events.filter((x) => x !== e));
  }

  until(at: number): Promise<void> {
    return new Promise((r) => this.at(at, r));
  }

  sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise((resolve, reject) => {
      const cancel = this.at(this.now + ms, resolve);
      signal?.addEventListener('abort', () => (cancel(), reject(signal.reason)), { once: true });
    });

  /** Runs events until `done()`; throws when nothing is left to run before it is. */
  async run(done: () => boolean, limitMs: number): Promise<void> {
    const end = this.now + limitMs;
    for (;;) {
      for (let i = 0; i < 4; i++) await new Promise((r) => setImmediate(r));
      if (done()) return;
      this.events.sort((a, b) => a.at - b.at || a.n - b.n);
      const e = this.events.shift();
      if (!e || e.at > end) throw new Error(`the batch did not finish within ${limitMs} ms of virtual time`);
      this.now = e.at;
      e.fire();
    }
  }
}

export interface SimCase {
  algorithm: RateAlgorithm;
  images: number;
  /** The quota, per window of windowS seconds. */
  limit: number;
  windowS: number;
  /** The service's time for an answer, ms (the sandbox's --latency). */
  latencyMs: number;
  /** Each way, a seeded delay of 0 to this many ms (bench/field.ts's relay holds 0-40 ms). */
  jitterMs: number;
  /** Another client on the key spending a quarter of every window (one request every 4·W/R s). */
  other?: boolean;
  /** A busy service: each request waits this share of the time for the limiter, 0-stallMs more (a loaded event loop). */
  stall?: { share: number; ms: number };
  /** A busy client: this share of geo's requests leave 0-ms later than their turn (its event loop, its store). */
  lag?: { share: number; ms: number };
  seed: number;
}

export interface SimResult {
  /** Answers of 429 to geo's requests. */
  refused: number;
  /** geo's requests, resends included, and the balance read. */
  requests: number;
  wallMs: number;
}

/** The balance read, then `images` requests through the pacer, at most `limit` of them running at once. */
export async function simulateBatch(c: SimCase): Promise<SimResult> {
  const clock = new Clock();
  const random = mulberry32(c.seed);
  const delay = () => 1 + random() * c.jitterMs;
  const limiter = createRateLimiter(c.algorithm, () => clock.now, c.windowS);
  const t0 = clock.now;
  let refused = 0;
  let requests = 0;

  /** One request: reaches the limiter, answered after the service's time; the headers as read on arrival. */
  const exchange = async (serviceMs: number, lag = 0) => {
    const sent = clock.now;
    await clock.until(clock.now + lag + delay() + (c.stall && random() < c.stall.share ? random() * c.stall.ms : 0));
    const info = limiter.take('key', c.limit);
    const headers = rateHeaders(info, limiter.secondsToReset(info));
    await clock.until(clock.now + (info.exceeded ? 1 : serviceMs) + delay());
    return { exceeded: info.exceeded, rateLimit: parseRateLimit(headers, clock.now), rttMs: clock.now - sent };
  };

  let stopOther = false;
  if (c.other) {
    const every = (4 * c.windowS * 1000) / c.limit;
    const spend = () => {
      if (stopOther) return;
      void exchange(1);
      clock.at(clock.now + every, spend);
    };
    spend();
  }

  // The balance read before the batch: its headers are the pacer's first, counted as started when
  // its answer came (run.ts, balance.ts: the safe bound).
  requests++;
  let balance: Awaited<ReturnType<typeof exchange>> | undefined;
  void exchange(1).then((b) => (balance = b));
  await clock.run(() => balance !== undefined, 10_000);
  const pacer = new Pacer({ now: () => clock.now, sleep: clock.sleep }, balance!.rateLimit, clock.now);

  let finished = 0;
  let running = 0;
  let next = 0;
  const job = async () => {
    let seq = await pacer.acquire();
    for (;;) {
      requests++;
      const a = await exchange(c.latencyMs, c.lag && random() < c.lag.share ? random() * c.lag.ms : 0);
      pacer.observe(seq, a.rateLimit, { status: a.exceeded ? 429 : 200, rttMs: a.rttMs });
      if (!a.exceeded) break;
      refused++;
      const waitMs = (a.rateLimit.retryAfterS ?? 1) * 1000;
      pacer.pause(clock.now + waitMs);
      await clock.sleep(waitMs);
      const again = await pacer.acquire();
      pacer.observe(seq, undefined);
      seq = again;
    }
    pacer.observe(seq, undefined);
    finished++;
    running--;
    launch();
  };
  const launch = () => {
    while (running < c.limit && next < c.images) {
      next++;
      running++;
      void job();
    }
  };
  launch();
  await clock.run(() => finished === c.images, 3_600_000);
  stopOther = true;
  return { refused, requests, wallMs: clock.now - t0 };
}
