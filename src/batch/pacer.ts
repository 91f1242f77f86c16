/**
 * Paces request STARTS so a steady batch never meets a 429 (api-spec.md "Limits": RateLimit,
 * RateLimit-Policy, RateLimit-Remaining/-Reset on every response).
 *
 * Two rules, the later of the two wins:
 *  1. Even spacing: one start every window/limit seconds, stretched by a small margin. Spread out
 *     like this, no window of the server's length (fixed, sliding or token bucket) holds more
 *     than `limit` starts, and no burst at a window edge invites a 429.
 *  2. The server's own count: the newest response says `remaining` starts are left until
 *     `resetAt`. Starts made after that request count against it; when they reach it, wait for
 *     the reset. This catches quota spent elsewhere (another client on the key, client retries).
 * A 429 closes a shared gate until its retry-after: every worker waits, once.
 * Before any limit is known, one request goes alone to learn it (and the latency).
 */
import type { RateLimitInfo } from '../api/ratelimit.js';

export interface PacerOptions {
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  /** Fraction of the spacing added as margin against clock skew and network jitter. */
  margin?: number;
  /** Window assumed when a limit comes without one (the spec's limits are per minute). */
  defaultWindowS?: number;
}

export class Pacer {
  limit?: number;
  windowMs?: number;
  private seq = 0;
  private lastStart = -Infinity;
  private gateUntil = 0;
  private snap?: { seq: number; remaining: number; resetAt: number };
  private observed = false;
  private waiters: Array<() => void> = [];
  private chain: Promise<unknown> = Promise.resolve();
  private readonly margin: number;

  constructor(private readonly o: PacerOptions, initial?: RateLimitInfo) {
    this.margin = o.margin ?? 0.02;
    if (initial) this.learn(initial);
  }

  /** Starts per millisecond at the ceiling, or undefined while the limit is unknown. */
  get ratePerMs(): number | undefined {
    return this.limit && this.windowMs ? this.limit / this.windowMs : undefined;
  }

  get intervalMs(): number {
    const r = this.ratePerMs;
    return r ? (1 / r) * (1 + this.margin) : 0;
  }

  private learn(info: RateLimitInfo): void {
    if (info.limit !== undefined && info.limit > 0) {
      this.limit = info.limit;
      this.windowMs = (info.windowS ?? this.o.defaultWindowS ?? 60) * 1000;
    }
  }

  /**
   * What a response (or error response) of the start numbered `seq` said. The newest request's
   * snapshot is the freshest count; an older one arriving late is ignored.
   */
  observe(seq: number, info: RateLimitInfo | undefined): void {
    if (info) {
      this.learn(info);
      if (info.remaining !== undefined && info.resetAt !== undefined) this.snapshot(seq, info.remaining, info.resetAt);
    }
    if (!this.observed) {
      this.observed = true;
      for (const w of this.waiters.splice(0)) w();
    }
  }

  /**
   * Reset times come in whole seconds, rounded up (RateLimit `t`, RateLimit-Reset), so each one is
   * an upper bound that may be up to 1 s late. Within one window the smallest bound seen is the
   * tightest: after a few answers it is within one start gap of the true reset, and a batch that
   * exhausts a window waits milliseconds for the next, not a second. A bound a second or more
   * later than the current one belongs to the next window.
   */
  private snapshot(seq: number, remaining: number, resetAt: number): void {
    const s = this.snap;
    const sameWindow = s !== undefined && resetAt < s.resetAt + 1000 && resetAt > s.resetAt - 1000;
    if (!s || seq >= s.seq) this.snap = { seq, remaining, resetAt: sameWindow ? Math.min(resetAt, s!.resetAt) : resetAt };
    else if (sameWindow) s.resetAt = Math.min(s.resetAt, resetAt);
  }

  /** A 429: nobody starts before `untilMs`, and the server's count is taken as spent until then. */
  pause(untilMs: number): void {
    this.gateUntil = Math.max(this.gateUntil, untilMs);
    this.snap = { seq: this.seq, remaining: 0, resetAt: untilMs };
  }

  /**
   * The time the next start may happen, from the current state (no side effects). Pass the `now`
   * you compare the answer with: reading the clock again here could land a millisecond later and
   * turn "start now" into a needless 1 ms sleep.
   */
  nextStartAt(now = this.o.now()): number {
    let t = Math.max(now, this.gateUntil, this.lastStart + this.intervalMs);
    const s = this.snap;
    if (s && now < s.resetAt && this.seq - s.seq >= s.remaining) t = Math.max(t, s.resetAt + 50);
    return t;
  }

  /** Resolves with this start's sequence number when it may begin. Callers are served in order. */
  acquire(): Promise<number> {
    const turn = this.chain.then(() => this.waitTurn());
    this.chain = turn.catch(() => undefined);
    return turn;
  }

  private async waitTurn(): Promise<number> {
    // The probe: until the first answer, nobody knows the limit, so only one request is out.
    if (this.seq >= 1 && !this.observed && this.limit === undefined) {
      await new Promise<void>((r) => this.waiters.push(r));
    }
    let at: number;
    for (;;) {
      this.o.signal?.throwIfAborted();
      const now = this.o.now();
      at = this.nextStartAt(now);
      if (at <= now) break;
      // Sleep in slices so a pause or a fresh snapshot that arrives meanwhile is seen promptly.
      await this.o.sleep(Math.min(at - now, 1000), this.o.signal);
    }
    // Keep to the planned grid: timers fire late by a few ms, and counting from the late wake-up
    // would add that lateness to every one of hundreds of gaps. After an idle spell (more than
    // one gap behind), start the grid afresh instead of bursting to catch up.
    const now = this.o.now();
    this.lastStart = now - at < this.intervalMs ? at : now;
    return ++this.seq;
  }
}
