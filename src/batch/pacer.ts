/**
 * Paces request STARTS (first attempts and resends alike) to what the service says is left of the
 * key's quota (api-spec.md "Limits": RateLimit, RateLimit-Policy, RateLimit-Remaining/-Reset on
 * every response).
 *
 * A start may happen when one of these lower bounds on the server's remaining quota is at least 1:
 *  1. The server's count, which is the truth, other clients' spend included: the least `r` of the
 *     newest burst of answers, less ours still on the way, less what other clients are expected
 *     to have spent since (their rate, below). Once `resetAt` has passed, one more (the header's
 *     promise, true of fixed windows, sliding logs and token buckets alike:
 *     src/sandbox/ratelimit.ts).
 *  2. Our own log: at most `limit` starts in any window (plus the margin), less what other
 *     clients spend (each answer's `r` below what our log explains is theirs; the most of the
 *     last two windows is kept back). No fixed window or sliding log of that quota refuses a start
 *     this allows, so a batch bursts at each window's start instead of waiting for whole-second
 *     reset times; a token bucket refills by time, not by our starts leaving, so the log earns
 *     its trust one start at a time and loses it at a 429 (caution.ts).
 * The margin covers a start that reaches the server later than one made after it: the spread of
 * recent round trips (jitter.ts), at least 20 ms, at most 5% of the window (and 2 s).
 * A 429 closes a shared gate until its wait ends, and halves how much of the quota geo lets itself
 * use (once per round trip); each answer that shows room gives one request back (AIMD).
 * Even spacing (window/limit apart) is the fallback for a limit without a remaining count.
 * Nothing known: one request goes alone to learn it. Measured: bench/batch.ts (README there).
 *
 * Every wait ends. A 429's gate is the server's word that a request is welcome then,
 * so its one more is spent only on other clients that successful answers showed, not on ones a
 * run of 429s made up (serverBound). Whatever the rules
 * say, a start is never held longer than one window past the latest of the server's reset, a
 * 429's gate and our own last start, plus the margin (holdLimit): then, with nothing of ours in
 * flight to bring news first, one start goes to learn. A next start further off than the longest
 * wait geo sits through (5 minutes, api/retry.ts) ends the batch with RetryLaterError (exit 5),
 * and a wait over 5 s is told (onWait) with its reason and its end.
 */
import type { RateLimitInfo } from '../api/ratelimit.js';
import { DEFAULT_RETRY_POLICY } from '../api/retry.js';
import { PacerAnswers } from './pacer-answers.js';
import type { PacerOptions } from './pacer-quota.js';
import { type Hold, WaitTeller, holdReason, tooFar } from './pacer-waits.js';
import { newsOrTimeout } from './wait.js';

export type { AnswerFacts } from './pacer-answers.js';
export type { PacerOptions } from './pacer-quota.js';

/** The pacer, on its two floors: what it knows of the quota (pacer-quota.ts) and what answers told it (pacer-answers.ts). */
export class Pacer extends PacerAnswers {
  private lastByLog = false;
  private lastStart = -Infinity;
  private chain: Promise<unknown> = Promise.resolve();
  /** Why nextStartAt last said "not yet". */
  private hold: Hold = 'answer';
  private readonly teller: WaitTeller;
  /** nextChange found no time the allowance grows, and its answer is only when to look again. */
  private guessed = false;

  /** As PacerAnswers (the request made before the batch), telling long waits to `o.onWait`. */
  constructor(o: PacerOptions, initial?: RateLimitInfo, startedAt?: number, refused = false) {
    super(o, initial, startedAt, refused);
    this.teller = new WaitTeller(o.onWait);
  }

  /**
   * Rule 1. A burst reaches the server in any order, so the newest start's `r` may not count a
   * peer started just before it. Every answered request had reached the server when it was
   * answered, so the least `r` of the burst (the answers to starts within the margin of the
   * newest) counts all of them; what it may not count is ours still on the way, started after
   * that request less the margin. Less what others spent since (at their rate), less the part of
   * the quota the AIMD share holds back.
   */
  private serverBound(now: number, withReset: boolean): number {
    const n = this.snap!;
    const m = this.marginMs;
    let b = Infinity;
    for (const g of this.group) {
      let pending = 0;
      for (const [seq, at] of this.unanswered) if (seq !== g.seq && at > g.at - m - this.lateMs) pending++;
      b = Math.min(b, g.remaining + (withReset && now >= g.resetAt ? 1 : 0) - pending);
    }
    if (!this.limit || !this.windowMs) return b;
    // Others spend at their rate since that answer (a reset's one more is theirs to take too). At a
    // 429's gate, only the others that answers other than 429s showed: a run of 429s alone (a
    // server saying r=0;t=0 and Retry-After: 0 to everyone) made up others of its own and held
    // the resend it had asked for for minutes; beside a real other client (bench/batch.ts
    // +o) the gate waits for them as before.
    const others = n.gate ? this.caution.othersNow(now, this.windowMs, true) : this.others;
    b -= Math.ceil(others * Math.min(1, (now - n.at) / this.windowMs));
    // The AIMD share holds part of the quota back while answers are pending; with none pending,
    // the count is as fresh as it gets and one request goes to learn more (never a deadlock).
    return this.unanswered.size > 0 ? b - (this.limit - Math.floor(this.caution.share * this.limit)) : b;
  }

  /** When the allowance next grows without news: the reset, or enough of our starts leaving our window. */
  private nextChange(now: number): number {
    let t = this.snap!.resetAt + 1;
    this.hold = this.snap!.gate ? 'gate' : 'reset';
    if (t <= now) t = Infinity;
    const m = this.marginMs;
    const inWindow = this.inWindow(now);
    const k = inWindow.length - this.own;
    const own = k >= 0 && k < inWindow.length ? inWindow[k]! + this.windowMs! + m + 1 : Infinity;
    if (own < t) [t, this.hold] = [own, 'window'];
    // Nothing to wait for that we can see: look again in a little while. Others are named only
    // when answers showed them; else it is the server's count, less ours still on the way.
    if (t === Infinity) this.hold = this.others > 0 ? 'others' : 'reset';
    this.guessed = t === Infinity;
    return t === Infinity ? now + Math.max(100, this.intervalMs) : t;
  }

  /**
   * The latest a start may be held (the module's comment): a window and the margin past the latest
   * of the server's reset, a 429's gate and our last start. Further than that, what holds it is
   * only our guess of other clients' spend, and one request tells more than the guess.
   */
  private holdLimit(): number {
    return Math.max(this.gateUntil, this.snap!.resetAt, this.log.last ?? -Infinity) + this.windowMs! + this.marginMs;
  }

  /** `t`, or sooner when it passes holdLimit and nothing of ours is in flight to bring news first. */
  private bounded(now: number, t: number): number {
    if (this.unanswered.size > 0) return t;
    const limit = this.holdLimit();
    return now >= limit ? now : Math.min(t, limit);
  }

  /**
   * The time the next start may happen (no side effects but remembering which rule allowed it, or
   * what holds it):
   * `now` when it may start at once, or undefined when only an answer can tell. Pass the `now`
   * you compare the answer with.
   */
  nextStartAt(now = this.o.now()): number | undefined {
    this.hold = this.gateUntold ? 'reset' : 'gate';
    this.guessed = false;
    if (now < this.gateUntil) return this.gateUntil;
    const s = this.snap;
    this.lastByLog = false;
    if (s && this.limit && this.windowMs) {
      // The larger of the two lower bounds (rules 1 and 2 above). Rule 2 waits while the log has
      // as many starts unanswered as it has earned (caution.ts), and it is off when a reset lies
      // further off than the policy's window (whole seconds of rounding aside): something else
      // limits the key then (a penalty, a daily cap), and the server's count alone says when.
      let logPending = 0;
      for (const seq of this.byLog) if (this.unanswered.has(seq)) logPending++;
      const logHolds = logPending < this.caution.logCap && now >= this.caution.logOffUntil && (s.gate || s.resetAt <= s.at + this.windowMs + 1000);
      const ownLog = logHolds ? this.own - this.inWindow(now).length : 0;
      const server = this.serverBound(now, true);
      this.lastByLog = server < 1;
      return Math.max(server, ownLog) >= 1 ? now : this.bounded(now, this.nextChange(now));
    }
    // A count without a known limit: what the server counted, then even spacing after its reset.
    if (s && this.serverBound(now, false) >= 1) return now;
    this.hold = 'reset';
    if (s && now < s.resetAt) return s.resetAt;
    this.hold = 'window';
    if (this.ratePerMs) return Math.max(now, this.lastStart + this.intervalMs);
    // Nothing known: the first request goes alone, the rest wait for its answer.
    this.hold = 'answer';
    return this.seq === 0 || this.observed || s ? now : undefined;
  }

  /** A wait too long to sit through ends the batch (exit 5); one over SAY_WAIT_MS is told (pacer-waits.ts). */
  private judgeWait(at: number, now: number): void {
    const why = holdReason(this.hold, this.limit, this.windowMs, this.others);
    if (at - now > (this.o.maxWaitMs ?? DEFAULT_RETRY_POLICY.rateLimitMaxWaitMs)) throw tooFar(at, now, why, this.limit);
    // A 429's gate is told by its retry; a time to look again is no end while an answer of ours,
    // on its way, tells first.
    if (this.hold === 'gate' || (this.guessed && this.unanswered.size > 0)) return;
    this.teller.tell(at, now, this.seq, why);
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
      if (at !== undefined) this.judgeWait(at, now);
      // Sleep until the computed time or news (an answer, a 429), whichever comes first.
      await newsOrTimeout(new Promise<void>((r) => (this.wake = r)), at === undefined ? undefined : Math.min(at - now, 1000), this.o.sleep, this.o.signal);
      this.wake = undefined;
    }
    // Keep the even-spacing grid: counting from a late timer would add its lateness to every gap.
    const now = this.o.now();
    this.lastStart = now - at < this.intervalMs ? at : now;
    this.record(++this.seq, now);
    if (this.lastByLog) this.byLog.add(this.seq);
    return this.seq;
  }
}
