/**
 * Runs jobs at the rate-limit ceiling. Starts are paced by the Pacer (the server's count, our own
 * log of starts, a 429's gate); a resend after a 5xx or a reset waits for its turn like a first
 * attempt (retries spend the same quota). How many may be in flight follows the rate: Little's law (in flight
 * = arrival rate × time in system), rate × latency with headroom, where latency is the observed
 * average (and, before anything has finished, at least the age of the oldest request in flight, so
 * slow depth-3 answers do not throttle the first minutes); and never below the quota itself, so a
 * batch that fits what is left of the window starts all at once. Capped at DEFAULT_MAX_CONCURRENCY
 * (sockets, memory of uploads in flight); `concurrency` (--concurrency) replaces the cap, pacing
 * still applies.
 *
 * A worker reports how its job ended: 'done' (ok or a per-image failure; the batch goes on) or
 * 'stop' (401, 402, 403, an exhausted retry budget, a 429 wait too long, a next start the pacer puts
 * more than 5 minutes off, cancel): nothing further
 * starts, requests in flight finish and are recorded.
 */
import type { RateLimitInfo } from '../api/ratelimit.js';
import { type AnswerFacts, Pacer } from './pacer.js';
import { newsOrTimeout } from './wait.js';
import type { BatchStop } from './types.js';

export interface TaskControl {
  /**
   * Waits for this job's turn under the rate limit; undefined when the batch stopped meanwhile
   * (then nothing is sent). Called after the journal line and the upload are ready, right before
   * the request, so the start the pacer counts is the time the server sees.
   */
  go(): Promise<number | undefined>;
  /** A resend's turn (after its backoff): counted as a start like any other. Throws when the batch was cancelled. */
  again(): Promise<void>;
  /** Every attempt's answer or failure: its rate-limit headers, status and round trip. */
  attempt(info: RateLimitInfo | undefined, facts?: AnswerFacts): void;
  /** The job's final answer took `latencyMs` in one attempt (Little's law below). */
  latency(latencyMs: number): void;
  /** A 429 was met: every worker waits until then. */
  pauseUntil(ms: number): void;
  /**
   * Aborted when the batch stops (a stop, stdout closed, cancel): a job waiting for another
   * process's answer stops waiting. That process may be waiting for one of ours, held by a job
   * that will now never be sent: waiting on would keep both alive (worker.ts claimTurn).
   */
  halted: AbortSignal;
}

export type TaskResult = { kind: 'done' } | { kind: 'stop'; stop: BatchStop };

export interface SchedulerOptions {
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  /** No new start after this aborts (stdout closed); requests in flight finish and are recorded. */
  stop?: AbortSignal;
  concurrency?: number;
  /** Rate-limit headers already seen (GET /credits during planning)... */
  initialRateLimit?: RateLimitInfo;
  /** ...and when that request started: it counts against the same quota. */
  initialStartedAt?: number;
  /** ...or that request met a 429: no start before its wait ends (pacer.ts). */
  initialRefused?: boolean;
  /** Upper bound for the derived cap (sockets, memory). */
  maxConcurrency?: number;
  /** Called when the gate closes (for a "paused" event). */
  onPause?: (untilMs: number) => void;
  /** Called when a start waits more than 5 s for the rate limit, with why (for a "waiting" event). */
  onWait?: (untilMs: number, why: string) => void;
}

export interface SchedulerResult {
  stopped?: BatchStop;
  /** The most requests that were in flight at once (or the fixed --concurrency). */
  concurrency: number;
}

/** The in-flight cap without --concurrency (README "Pacing"). */
export const DEFAULT_MAX_CONCURRENCY = 64;

/** Little's law with 50% headroom plus one, so a slow answer never starves the pacer. */
export function littleCap(ratePerMs: number | undefined, latencyMs: number | undefined, max: number): number {
  if (!ratePerMs || !latencyMs) return Math.min(max, 4);
  return Math.max(1, Math.min(max, Math.ceil(ratePerMs * latencyMs * 1.5) + 1));
}

export async function schedule<J>(jobs: readonly J[], work: (job: J, ctl: TaskControl) => Promise<TaskResult>, o: SchedulerOptions): Promise<SchedulerResult> {
  const pacer = new Pacer({ now: o.now, sleep: o.sleep, ...(o.signal ? { signal: o.signal } : {}), ...(o.onWait ? { onWait: o.onWait } : {}) }, o.initialRateLimit, o.initialStartedAt, o.initialRefused);
  const max = o.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY;
  let latencyAvg: number | undefined;
  let samples = 0;
  let answered = 0;
  const inFlight = new Map<number, number>(); // seq -> start time
  const running = new Set<Promise<void>>();
  let stopped: BatchStop | undefined;
  const halt = new AbortController();
  const halted = AbortSignal.any([halt.signal, ...(o.signal ? [o.signal] : []), ...(o.stop ? [o.stop] : [])]);
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
    return Math.min(max, Math.max(littleCap(pacer.ratePerMs, latency, max), pacer.limit ?? 0));
  };

  const launch = (job: J) => {
    let seq: number | undefined;
    const ctl: TaskControl = {
      async go() {
        if (stopped || o.stop?.aborted) return undefined;
        const s = await pacer.acquire();
        if (stopped || o.stop?.aborted) return undefined;
        seq = s;
        inFlight.set(s, o.now());
        maxCap = Math.max(maxCap, inFlight.size);
        return s;
      },
      async again() {
        const s = await pacer.acquire();
        if (seq !== undefined) {
          pacer.observe(seq, undefined);
          inFlight.delete(seq);
        }
        seq = s;
        inFlight.set(s, o.now());
      },
      attempt(info, facts) {
        if (seq !== undefined) pacer.observe(seq, info, facts);
      },
      latency(latencyMs) {
        if (!(latencyMs >= 0)) return;
        samples++;
        // Exponential moving average: follows a service that slows down without jumping on one outlier.
        latencyAvg = latencyAvg === undefined ? latencyMs : latencyAvg * 0.8 + latencyMs * 0.2;
      },
      pauseUntil(ms) {
        pacer.pause(ms);
        o.onPause?.(ms);
      },
      halted,
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
        if (stopped) halt.abort();
        running.delete(p);
        answered++;
        if (seq !== undefined) {
          inFlight.delete(seq);
          // A job that ended without observing anything must not leave the probe gate shut.
          pacer.observe(seq, undefined);
        }
        wake?.();
      });
    running.add(p);
  };

  for (const job of jobs) {
    if (stopped || o.signal?.aborted || o.stop?.aborted) break;
    // Wait for a free slot (jobs preparing or waiting for their turn hold one too); the cap may
    // grow with time (oldest in flight ages), so recheck often.
    while (running.size >= cap() && !stopped && !o.signal?.aborted && !o.stop?.aborted) {
      await newsOrTimeout(new Promise<void>((r) => (wake = r)), Math.max(50, pacer.intervalMs), o.sleep, o.signal);
    }
    if (stopped || o.signal?.aborted || o.stop?.aborted) break;
    launch(job);
  }
  while (running.size > 0) await Promise.all([...running]);
  if (!stopped && o.signal?.aborted) stopped = { reason: 'cancelled', error: o.signal.reason };
  if (!stopped && o.stop?.aborted) stopped = { reason: 'output_closed', error: o.stop.reason };
  return { ...(stopped ? { stopped } : {}), concurrency: o.concurrency ?? maxCap };
}
