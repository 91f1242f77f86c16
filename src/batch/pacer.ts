/**
 * Paces request STARTS to the key's true ceiling (api-spec.md "Limits": RateLimit, RateLimit-Policy,
 * RateLimit-Remaining/-Reset on every response; issue 12).
 *
 * A start may happen when one of these lower bounds on the server's remaining quota is at least 1
 * (each holds whatever the history, so the largest of them does too):
 *  1. The server's count: the newest response said `r` left at `resetAt`; minus every start made
 *     since that request started. Once `resetAt` has passed, one more (the header's promise, true
 *     of fixed windows, sliding logs and token buckets alike: src/sandbox/ratelimit.ts).
 *  2. Our own log: at most `limit` starts in any `window` (plus a slack for send-time jitter). No
 *     fixed window, sliding log or token bucket of that quota refuses a start this allows, so a
 *     batch bursts at each window's start instead of waiting for whole-second reset times. It
 *     counts only our starts, so it is trusted only while the server's counts agree with it: a
 *     count below it means someone else spends the key, and then rule 1 alone.
 * Even spacing (window/limit apart) is the fallback for a limit without a remaining count. A 429
 * closes a shared gate until its wait ends. Nothing known: one request goes alone to learn it.
 */
import type { RateLimitInfo } from '../api/ratelimit.js';
import { type Sleep, newsOrTimeout } from './wait.js';

export interface PacerOptions {
  now: () => number;
  sleep: Sleep;
  signal?: AbortSignal;
  /** Fraction of the even spacing added as margin against clock skew and network jitter. */
  margin?: number;
  /** Window assumed when a limit comes without one (the spec's limits are per minute). */
  defaultWindowS?: number;
  /** Added to the own log's window (our start is not the server's arrival); each 429 doubles it. */
  slackMs?: number;
}

/** `remaining` left at `resetAt`, said by the answer to start `seq` (made at `at`, after `spentAt` of ours). */
type Snapshot = { seq: number; remaining: number; resetAt: number; spentAt: number; at: number };

export class Pacer {
  limit?: number;
  windowMs?: number;
  private seq = 0;
  private spent = 0;
  private readonly spentAtSeq = new Map<number, number>();
  private readonly startAtSeq = new Map<number, number>();
  private starts: number[] = [];
  private snap?: Snapshot;
  /** The newest answer's burst: answers to starts within the slack before it. */
  private group: Snapshot[] = [];
  private readonly answered = new Set<number>();
  private ownLog = true;
  private gateUntil = 0;
  private lastStart = -Infinity;
  private observed = false;
  private wake?: () => void;
  private chain: Promise<unknown> = Promise.resolve();
  private readonly margin: number;
  private slack: number;

  /** `initial`: the headers of a request made before the batch (the balance read), started at `startedAt`. */
  constructor(private readonly o: PacerOptions, initial?: RateLimitInfo, startedAt?: number) {
    this.margin = o.margin ?? 0.02;
    // 250 ms: a request that reaches the server later than the one taking its place meets a 429;
    // on this shared 2-core machine under load, 100 ms was not enough (bench/batch).
    this.slack = o.slackMs ?? 250;
    if (startedAt !== undefined) this.record(0, startedAt);
    if (initial) this.observe(0, initial);
  }

  /** Starts per ms at the ceiling, or undefined while the limit is unknown. */
  get ratePerMs(): number | undefined {
    return this.limit && this.windowMs ? this.limit / this.windowMs : undefined;
  }

  get intervalMs(): number {
    const r = this.ratePerMs;
    return r ? (1 / r) * (1 + this.margin) : 0;
  }

  private record(seq: number, at: number): void {
    // Only the last window matters; keep the log short in a long batch.
    if (this.starts.length > 4 * (this.limit ?? 256)) this.starts = this.starts.filter((t) => t > at - (this.windowMs ?? 60_000) - this.slack);
    this.spent++;
    this.spentAtSeq.set(seq, this.spent);
    this.startAtSeq.set(seq, at);
    this.starts.push(at);
  }

  /** A request the pacer did not hand out (a client retry) that goes out at `at`. */
  noteStart(at: number): void {
    this.record(-1, at);
  }

  /** Our starts in (from, to]. */
  private count(from: number, to: number): number {
    return this.starts.filter((t) => t > from && t <= to).length;
  }

  /** What a response (or error response) to the start numbered `seq` said; undefined: it ended. */
  observe(seq: number, info: RateLimitInfo | undefined): void {
    if (info?.limit !== undefined && info.limit > 0) {
      this.limit = info.limit;
      this.windowMs = (info.windowS ?? this.o.defaultWindowS ?? 60) * 1000;
    }
    if (info?.remaining !== undefined && info.resetAt !== undefined) {
      const at = this.startAtSeq.get(seq);
      // Our own log said at least this many were left then; the server saw fewer: not ours alone.
      if (at !== undefined && this.limit && this.windowMs && info.remaining < this.limit - this.count(at - this.windowMs - this.slack, at + this.slack)) this.ownLog = false;
      this.snapshot({ seq, remaining: info.remaining, resetAt: info.resetAt, spentAt: this.spentAtSeq.get(seq) ?? this.spent, at: at ?? this.o.now() });
    }
    this.answered.add(seq);
    this.observed = true;
    this.wake?.();
  }

  /**
   * The newest request's count wins; a late answer to an older one is stale, except within a burst
   * (below). Reset times are not merged across answers: each is rounded up to whole seconds, and
   * under a sliding log or a bucket two answers' resets are different events.
   */
  private snapshot(n: Snapshot): void {
    if (!this.snap || n.seq >= this.snap.seq) this.snap = n;
    this.group = [...this.group, n].filter((g) => g.at >= this.snap!.at - this.slack);
  }

  /**
   * Rule 1. A burst reaches the server in any order, so the newest start's `r` may not count a
   * peer started just before it: take the least of the burst's answers (the one that arrived last
   * is exact), less the peers not answered yet.
   */
  private serverBound(now: number, withReset: boolean): number {
    const n = this.snap!;
    let b = Infinity;
    for (const g of this.group) b = Math.min(b, g.remaining + (withReset && now >= g.resetAt ? 1 : 0) - (this.spent - g.spentAt));
    for (const [seq, at] of this.startAtSeq) if (seq >= 0 && seq < n.seq && at >= n.at - this.slack && !this.answered.has(seq)) b--;
    return b;
  }

  /**
   * A 429: nobody starts before `untilMs`, and the server's count is taken as spent until then. Our
   * log was too tight (or the key is busy elsewhere: the 429's own count then turns the log off).
   */
  pause(untilMs: number): void {
    this.gateUntil = Math.max(this.gateUntil, untilMs);
    this.snap = { seq: this.seq, remaining: 0, resetAt: untilMs, spentAt: this.spent, at: this.o.now() };
    this.group = [this.snap];
    this.slack = Math.min(2000, this.slack * 2);
    this.wake?.();
  }

  /** When the allowance next grows without news: the reset, or the oldest start leaving our window. */
  private nextChange(now: number): number {
    let t = this.snap!.resetAt + 1;
    if (t <= now) t = Infinity;
    const inWindow = this.starts.filter((x) => x > now - this.windowMs! - this.slack && x <= now).sort((a, b) => a - b);
    const k = inWindow.length - this.limit!;
    return k >= 0 ? Math.min(t, inWindow[k]! + this.windowMs! + this.slack + 1) : t;
  }

  /**
   * The time the next start may happen (no side effects): `now` when it may start at once, or
   * undefined when only an answer can tell. Pass the `now` you compare the answer with.
   */
  nextStartAt(now = this.o.now()): number | undefined {
    if (now < this.gateUntil) return this.gateUntil;
    const s = this.snap;
    // The largest lower bound on the server's remaining quota (rules 1 and 2 above).
    if (s && this.ownLog && this.limit && this.windowMs) return Math.max(this.serverBound(now, true), this.limit! - this.count(now - this.windowMs! - this.slack, now)) >= 1 ? now : this.nextChange(now);
    // The key is not ours alone: what the server counted, then even spacing after its reset.
    if (s && this.serverBound(now, false) >= 1) return now;
    if (s && now < s.resetAt) return s.resetAt;
    if (this.ratePerMs) return Math.max(now, this.lastStart + this.intervalMs);
    // Nothing known: the first request goes alone, the rest wait for its answer.
    return this.seq === 0 || this.observed || s ? now : undefined;
  }

  /** Resolves with this start's sequence number when it may begin. Callers are served in order. */
  acquire(): Promise<number> {
    const turn = this.chain.then(() => this.waitTurn());
    this.chain = turn.catch(() => undefined);
    return turn;
  }

  private async waitTurn(): Promise<number> {
    let at: number | undefined;
    for (;;) {
      this.o.signal?.throwIfAborted();
      const now = this.o.now();
      at = this.nextStartAt(now);
      if (at !== undefined && at <= now) break;
      // Sleep until the computed time or news (an answer, a 429), whichever comes first.
      await newsOrTimeout(new Promise<void>((r) => (this.wake = r)), at === undefined ? undefined : Math.min(at - now, 1000), this.o.sleep, this.o.signal);
      this.wake = undefined;
    }
    // Keep the even-spacing grid: counting from a late timer would add its lateness to every gap.
    const now = this.o.now();
    this.lastStart = now - at < this.intervalMs ? at : now;
    this.record(++this.seq, now);
    return this.seq;
  }
}
