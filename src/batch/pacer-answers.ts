/**
 * The pacer's second floor (pacer.ts has the rules): what answers tell it. Each answer's count and
 * reset (the newest burst of them is rule 1's snapshot), its round trip, a 429's gate, and what
 * other clients spent; news wakes a start that waits.
 */
import type { RateLimitInfo } from '../api/ratelimit.js';
import { type PacerOptions, PacerQuota } from './pacer-quota.js';

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
export type Snapshot = { seq: number; remaining: number; resetAt: number; at: number; counted: number; gate?: true };

export class PacerAnswers extends PacerQuota {
  protected snap?: Snapshot;
  /** The newest answer's burst: answers to starts within the margin before it. */
  protected group: Snapshot[] = [];
  protected gateUntil = 0;
  protected observed = false;
  /** Wakes the start that waits for news (pacer.ts). */
  protected wake?: () => void;
  /** The gate is the balance read's 429, which no retry tells: the wait for it is told here. */
  protected gateUntold = false;

  /**
   * `initial`: the headers of a request made before the batch (the balance read), started at
   * `startedAt`; `refused`: that request met a 429, which counted nothing: no start begins before
   * its wait ends, and the quota it found spent (by an earlier run, or anyone) is not taken for
   * other clients' rate.
   */
  constructor(o: PacerOptions, initial?: RateLimitInfo, startedAt?: number, refused = false) {
    super(o);
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
}
