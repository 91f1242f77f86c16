/**
 * Counts for the live progress line and the summary. Done/failed/total count inputs (what the user
 * named); rate and ETA count requests (duplicates ride along for free).
 */
import type { BatchProgress } from './types.js';

export class ProgressMeter {
  done = 0;
  failed = 0;
  notSent = 0;
  skipped = 0;
  creditsSpent = 0;
  inFlight = 0;
  private finishes: number[] = [];
  private readonly start: number;

  constructor(readonly total: number, private readonly requestsTotal: number, private readonly now: () => number) {
    this.start = now();
  }

  /** One request answered, covering `inputs` inputs. */
  record(inputs: number, ok: boolean, credits: number): void {
    if (ok) this.done += inputs;
    else this.failed += inputs;
    this.creditsSpent += credits;
    this.finishes.push(this.now());
  }

  /** Inputs never sent because the batch stopped. */
  recordNotSent(inputs: number): void {
    this.notSent += inputs;
  }

  /** Inputs found unusable while loading (an empty file in a folder): settled, never sent, not failed. */
  recordUnusable(inputs: number): void {
    this.skipped += inputs;
  }

  /** Inputs settled without a request (earlier journal); they do not count toward the rate. */
  recordSkipped(inputs: number, ok: boolean): void {
    if (ok) this.done += inputs;
    else this.failed += inputs;
  }

  snapshot(): BatchProgress {
    const now = this.now();
    // Rate over the last minute, or since the start when younger than that.
    const since = Math.max(this.start, now - 60_000);
    const recent = this.finishes.filter((t) => t >= since).length;
    const spanMin = Math.max((now - since) / 60_000, 1 / 600);
    const ratePerMin = recent / spanMin;
    const left = this.requestsTotal - this.finishes.length;
    const p: BatchProgress = {
      done: this.done,
      failed: this.failed,
      total: this.total,
      notSent: this.notSent,
      skipped: this.skipped,
      inFlight: this.inFlight,
      elapsedS: Math.max(0, Math.floor((now - this.start) / 1000)),
      creditsSpent: this.creditsSpent,
      ratePerMin: Math.round(ratePerMin * 10) / 10,
    };
    if (ratePerMin > 0) p.etaS = Math.max(0, Math.round((left / ratePerMin) * 60));
    return p;
  }
}

/**
 * Calls `tick` now and then every `everyMs` until stopped: the progress line moves while nothing
 * finishes (a depth-3 answer takes minutes). The values come from the meter's injected clock; the
 * timer is unref'd, so it never keeps the process alive, and stop() clears it.
 */
export function startTicker(tick: () => void, everyMs: number): { stop(): void } {
  tick();
  const timer = setInterval(tick, everyMs);
  timer.unref?.();
  return { stop: () => clearInterval(timer) };
}
