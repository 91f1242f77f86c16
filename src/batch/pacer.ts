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
import { Caution } from './caution.js';
import { Jitter } from './jitter.js';
import { StartLog } from './start-log.js';
import { type Hold, WaitTeller, holdReason, tooFar } from './pacer-waits.js';
import { type Sleep, newsOrTimeout } from './wait.js';

export interface PacerOptions {
  now: () => number;
  sleep: Sleep;
  signal?: AbortSignal;
  /** Fraction of the even spacing added as margin against clock skew and network jitter. */
  margin?: number;
  /** Window assumed when a limit comes without one (the spec's limits are per minute). */
  defaultWindowS?: number;
  /** The margin before any round trip was measured, ms (default 250). */
  initialMarginMs?: number;
  /** The longest wait for a start; a longer one ends in RetryLaterError (default: the retry policy's 5 minutes). */
  maxWaitMs?: number;
  /** Told of a wait longer than SAY_WAIT_MS: when it ends and why (a 429's gate is told by its retry). */
  onWait?: (untilMs: number, why: string) => void;
}

/** What an answer said besides its rate-limit headers. */
export interface AnswerFacts {
  status?: number;
  /** Round trip of the attempt, ms. */
  rttMs?: number;
}

/**
 * `remaining` left at `resetAt`, said by the answer to start `seq` (made at `at`, counted by the
 * server at `counted` at the latest: start-log.ts); `gate`: a 429's wait.
 */
type Snapshot = { seq: number; remaining: number; resetAt: number; at: number; counted: number; gate?: true };

const MIN_MARGIN_MS = 20;
const MAX_MARGIN_MS = 2000;

export class Pacer {
  limit?: number;
  windowMs?: number;
  readonly jitter = new Jitter();
  readonly caution = new Caution();
  private seq = 0;
  /** Our starts, and when the server may have counted each (start-log.ts). */
  private readonly log = new StartLog();
  /** Our starts whose answer has not come yet, and when they were made. */
  private readonly unanswered = new Map<number, number>();
  /** Of those, the ones only our own log allowed (the server's count did not). */
  private readonly byLog = new Set<number>();
  private lastByLog = false;
  private snap?: Snapshot;
  /** The newest answer's burst: answers to starts within the margin before it. */
  private group: Snapshot[] = [];
  private gateUntil = 0;
  private lastStart = -Infinity;
  private observed = false;
  private wake?: () => void;
  private chain: Promise<unknown> = Promise.resolve();
  /** Why nextStartAt last said "not yet". */
  private hold: Hold = 'answer';
  private readonly teller: WaitTeller;
  /** The gate is the balance read's 429, which no retry tells: the wait for it is told here. */
  private gateUntold = false;
  /** nextChange found no time the allowance grows, and its answer is only when to look again. */
  private guessed = false;

  /**
   * `initial`: the headers of a request made before the batch (the balance read), started at
   * `startedAt`; `refused`: that request met a 429, which counted nothing: no start begins before
   * its wait ends, and the quota it found spent (by an earlier run, or anyone) is not taken for
   * other clients' rate.
   */
  constructor(private readonly o: PacerOptions, initial?: RateLimitInfo, startedAt?: number, refused = false) {
    this.teller = new WaitTeller(o.onWait);
    if (refused && initial) {
      const now = o.now();
      this.learnLimit(initial);
      this.gateUntil = Math.max(initial.resetAt ?? now, now + (initial.retryAfterS ?? 0) * 1000);
      this.gateUntold = true;
      this.snap = { seq: 0, remaining: 0, resetAt: this.gateUntil, at: now, counted: now, gate: true };
      this.group = [this.snap];
      this.observed = true;
      return;
    }
    if (startedAt !== undefined) this.record(0, startedAt);
    if (initial) this.observe(0, initial);
  }

  private learnLimit(info: RateLimitInfo): void {
    if (info.limit === undefined || info.limit <= 0) return;
    this.limit = info.limit;
    this.windowMs = (info.windowS ?? this.o.defaultWindowS ?? 60) * 1000;
  }

  /** Starts per ms at the ceiling, or undefined while the limit is unknown. */
  get ratePerMs(): number | undefined {
    return this.limit && this.windowMs ? this.limit / this.windowMs : undefined;
  }

  get intervalMs(): number {
    const r = this.ratePerMs;
    return r ? ((1 / r) * (1 + (this.o.margin ?? 0.02))) / this.caution.share : 0;
  }

  /** The safety margin, ms: what the network earned (jitter.ts), widened after a 429 until answers are clean again. */
  get marginMs(): number {
    const cap = Math.min(MAX_MARGIN_MS, this.windowMs ? this.windowMs * 0.05 : MAX_MARGIN_MS);
    const measured = this.jitter.allowanceMs ?? this.o.initialMarginMs ?? 250;
    return Math.min(cap, Math.max(MIN_MARGIN_MS, measured) * this.caution.boost);
  }

  /** Other clients' requests in a window (caution.ts). */
  get others(): number {
    return this.caution.othersNow(this.o.now(), this.windowMs ?? 60_000);
  }

  /**
   * The starts of the quota geo keeps for itself per window: the AIMD share, less what others
   * spend, and two more while they spend at all: what they spend varies from window to window
   * and the answers only sample it (bench/batch.ts +o: with one more, 0-5 answers of 429 in 125
   * requests at 20 per 3 s; with two, and others counted within the answer's window (noteOthers),
   * 0 in every run since, under load too, and the rows at 60 per 10 s within 1.04 of the ceiling).
   */
  private get own(): number {
    const others = this.others;
    return Math.floor(this.caution.share * this.limit!) - (others > 0 ? others + 2 : 0);
  }

  private record(seq: number, at: number): void {
    // Only the last window matters; keep the log short in a long batch.
    this.log.add(seq, at, (this.windowMs ?? 60_000) + MAX_MARGIN_MS + this.lateMs, 4 * (this.limit ?? 256));
    if (seq > 0) this.unanswered.set(seq, at);
  }

  /** How much later than its start a slow answer may show a request was counted (start-log.ts): a tenth of the window, at most 2 s. */
  private get lateMs(): number {
    return Math.min(MAX_MARGIN_MS, (this.windowMs ?? 60_000) * 0.1);
  }

  /** Our starts the server may still count at `now` (rule 2), oldest first. */
  private inWindow(now: number): number[] {
    return this.log.counted(now - this.windowMs! - this.marginMs, now);
  }

  /** What an answer (or error answer) to the start numbered `seq` said; undefined info: it ended. */
  observe(seq: number, info: RateLimitInfo | undefined, facts: AnswerFacts = {}): void {
    const now = this.o.now();
    const at = this.unanswered.get(seq) ?? (seq === 0 ? this.log.first : undefined) ?? now;
    const byLog = this.byLog.has(seq);
    this.unanswered.delete(seq);
    this.byLog.delete(seq);
    if (info) this.learnLimit(info);
    // Only successes time the network: a 5xx or 429 skips the analysis and would read as jitter.
    if (facts.status !== undefined && facts.status >= 200 && facts.status < 300 && facts.rttMs !== undefined) this.jitter.add(facts.rttMs);
    // A refused request is not in the window (the common limiters and the sandbox's count none):
    // it leaves the log, or it would hide another client's request the window did count. A
    // service that counts it shows it as others' spend in the next answers: the safe side.
    if (facts.status === 429) this.log.refused(seq);
    const counted = facts.rttMs !== undefined ? this.log.answered(seq, now, this.jitter.fastestMs, this.lateMs) : at;
    if (facts.status === 429) {
      this.caution.refused(now, this.jitter.smoothedMs ?? 0, byLog, this.limit, this.windowMs);
      // Refused with the quota full: the rest of it is other clients' spend, unless the 429 is
      // about something else (a penalty, a concurrency cap, a sandbox fault), so it raises what
      // others are thought to spend by one at most.
      this.noteOthers(at, info?.remaining ?? 0, now, info?.resetAt, true);
    } else if (info?.remaining !== undefined && info.remaining >= 1 && this.limit) this.caution.room(byLog, this.limit);
    if (info?.remaining !== undefined && info.resetAt !== undefined) {
      if (facts.status !== 429) this.noteOthers(at, info.remaining, now, info.resetAt);
      this.snapshot({ seq, remaining: info.remaining, resetAt: info.resetAt, at, counted: Math.max(at, counted) });
    }
    this.observed = true;
    this.wake?.();
  }

  /**
   * `r` below what our own starts explain is other clients' spend: a lower bound, since ours are
   * counted generously (the window before the answer's start and the margin either side). A
   * tighter count found clients that were not there: with requests reordered by 0-40 ms, one of
   * ours at the window's edge read as another client's, and the quota kept back for it pushed
   * the last request of a batch into a window of its own (bench/batch.ts (c)+j, 31 s).
   *
   * The answer's reset tightens that window without that risk. Under a fixed window or a sliding
   * log every request it counts reached the server after (reset - W): the header rounds its
   * seconds up, by less than one, and the answer took part of the round trip to come back. So a
   * start before (resetAt - W - 1 s - round trip - margin) is not in its count. Without this,
   * the burst of the window before (W and a few ms earlier) was counted as ours, every answer
   * showed no other client, and geo took the quarter another client had spent: 2 answers of 429
   * in bench/batch.ts fixed (b)+o under load. A bucket's reset is its next token, about a second
   * off, and leaves the generous count as it was; a reset further than a window off (a penalty,
   * a clock that differs) is not used.
   */
  private noteOthers(at: number, remaining: number, now: number, resetAt?: number, byOne = false): void {
    if (!this.limit || !this.windowMs) return;
    const m = this.marginMs;
    let from = at - this.windowMs - m;
    if (resetAt !== undefined && resetAt <= now + this.windowMs + 1000) from = Math.max(from, resetAt - this.windowMs - 1000 - (now - at) - m);
    const n = this.limit - remaining - this.log.started(from, at + m);
    this.caution.others(at, byOne ? Math.min(n, this.others + 1) : n, this.windowMs, byOne);
  }

  /**
   * The newest request's count wins; a late answer to an older one is stale, except within a burst
   * (below), or when it was counted as late as the newest start (a request the service held: its
   * lower count is the newer one). Reset times are not merged across answers: each is rounded up
   * to whole seconds, and under a sliding log or a bucket two answers' resets are different events.
   */
  private snapshot(n: Snapshot): void {
    if (!this.snap || n.seq >= this.snap.seq) this.snap = n;
    const m = this.marginMs;
    this.group = [...this.group, n].filter((g) => g.counted >= this.snap!.at - m);
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

  /**
   * A 429: nobody starts before `untilMs`, and the server's count is taken as spent until then.
   * The share of the quota is cut (observe() does it when the answer is seen; a caller that only
   * knows the wait gets it here).
   */
  pause(untilMs: number): void {
    const now = this.o.now();
    this.gateUntil = Math.max(this.gateUntil, untilMs);
    this.gateUntold = false;
    this.snap = { seq: this.seq, remaining: 0, resetAt: untilMs, at: now, counted: now, gate: true };
    this.group = [this.snap];
    this.caution.refused(now, this.jitter.smoothedMs ?? 0, false, this.limit);
    this.wake?.();
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
