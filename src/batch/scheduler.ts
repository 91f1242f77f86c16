/**
 * Runs jobs at the rate-limit ceiling. Starts are paced by the Pacer; how many may be in flight
 * follows Little's law (in flight = arrival rate × time in system): rate × latency, with headroom,
 * where latency is the observed average (and, before anything has finished, at least the age of
 * the oldest request in flight, so slow depth-3 answers do not throttle the first minutes).
 * `concurrency` overrides the cap; pacing still applies.
 *
 * A worker reports how its job ended: 'done' (ok or a per-image failure; the batch goes on) or
 * 'stop' (401, 402, 403, an exhausted retry budget, cancel): nothing further starts, requests in
 * flight finish and are recorded.
 */
import type { RateLimitInfo } from '../api/ratelimit.js';
import { Pacer } from './pacer.js';
import type { BatchStop } from './types.js';

export interface TaskControl {
  /** This start's pacing sequence number. */
  seq: number;
  /** Feed every answer's rate-limit headers (errors included) and, for single-attempt answers, latency. */
  observe(info: RateLimitInfo | undefined, latencyMs?: number): void;
  /** A 429 was met: every worker waits until then. */
  pauseUntil(ms: number): void;
}

export type TaskResult = { kind: 'done' } | { kind: 'stop'; stop: BatchStop };

export interface SchedulerOptions {
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  concurrency?: number;
  /** Rate-limit headers already seen (GET /credits during planning). */
  initialRateLimit?: RateLimitInfo;
  /** Upper bound for the derived cap (sockets, memory). */
  maxConcurrency?: number;
  /** Called when the gate closes (for a "paused" event). */
  onPause?: (untilMs: number) => void;
}

export interface SchedulerResult {
  stopped?: BatchStop;
  /** The most requests that were in flight at once (or the fixed --concurrency). */
  concurrency: number;
}

/** Little's law with 50% headroom plus one, so a slow answer never starves the pacer. */
export function littleCap(ratePerMs: number | undefined, latencyMs: number | undefined, max: number): number {
  if (!ratePerMs || !latencyMs) return Math.min(max, 4);
  return Math.max(1, Math.min(max, Math.ceil(ratePerMs * latencyMs * 1.5) + 1));
}

export async function schedule<J>(jobs: readonly J[], work: (job: J, ctl: TaskControl) => Promise<TaskResult>, o: SchedulerOptions): Promise<SchedulerResult> {
  const pacer = new Pacer({ now: o.now, sleep: o.sleep, ...(o.signal ? { signal: o.signal } : {}) }, o.initialRateLimit);
  const max = o.maxConcurrency ?? 256;
  let latencyAvg: number | undefined;
  let samples = 0;
  let answered = 0;
  const inFlight = new Map<number, number>(); // seq -> start time
  const running = new Set<Promise<void>>();
  let stopped: BatchStop | undefined;
  let maxCap = 1;
  let wake: (() => void) | undefined;

  const cap = (): number => {
    if (o.concurrency) return o.concurrency;
    // No limit known: one probe until the first answer; a server that sends no limit gets 4.
    if (pacer.ratePerMs === undefined) return answered === 0 ? 1 : Math.min(max, 4);
    let oldest = 0;
    const now = o.now();
    for (const t of inFlight.values()) oldest = Math.max(oldest, now - t);
    const latency = samples > 0 ? Math.max(latencyAvg!, samples < 3 ? oldest : 0) : Math.max(oldest, 1);
    return littleCap(pacer.ratePerMs, latency, max);
  };

  const launch = (job: J, seq: number) => {
    inFlight.set(seq, o.now());
    const ctl: TaskControl = {
      seq,
      observe(info, latencyMs) {
        pacer.observe(seq, info);
        if (latencyMs !== undefined && latencyMs >= 0) {
          samples++;
          // Exponential moving average: follows a service that slows down without jumping on one outlier.
          latencyAvg = latencyAvg === undefined ? latencyMs : latencyAvg * 0.8 + latencyMs * 0.2;
        }
      },
      pauseUntil(ms) {
        pacer.pause(ms);
        o.onPause?.(ms);
      },
    };
    const p = work(job, ctl)
      .then((r) => {
        if (r.kind === 'stop') stopped ??= r.stop;
      })
      .catch((err: unknown) => {
        // A worker that throws (journal write failed, a bug) must not let the batch run on blind.
        stopped ??= { reason: o.signal?.aborted ? 'cancelled' : 'error', error: err };
      })
      .finally(() => {
        inFlight.delete(seq);
        running.delete(p);
        answered++;
        // A job that ended without observing anything must not leave the probe gate shut.
        pacer.observe(seq, undefined);
        wake?.();
      });
    running.add(p);
  };

  try {
    for (const job of jobs) {
      if (stopped || o.signal?.aborted) break;
      // Wait for a free slot; the cap may grow with time (oldest in flight ages), so recheck often.
      while (inFlight.size >= cap() && !stopped) {
        await Promise.race([new Promise<void>((r) => (wake = r)), o.sleep(Math.max(50, pacer.intervalMs), o.signal).catch(() => undefined)]);
        if (o.signal?.aborted) break;
      }
      if (stopped || o.signal?.aborted) break;
      const seq = await pacer.acquire();
      if (stopped) break;
      maxCap = Math.max(maxCap, inFlight.size + 1);
      launch(job, seq);
    }
  } catch (err) {
    // acquire() throws only when the signal aborted.
    stopped ??= { reason: 'cancelled', error: err };
  }
  while (running.size > 0) await Promise.all([...running]);
  if (!stopped && o.signal?.aborted) stopped = { reason: 'cancelled', error: o.signal.reason };
  return { ...(stopped ? { stopped } : {}), concurrency: o.concurrency ?? maxCap };
}
