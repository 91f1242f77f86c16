/**
 * What the pacer learns from answers beyond the server's count: how much of the quota
 * to take (AIMD), how much to widen its margin after a 429, how far to trust its own log of
 * starts, and what other clients on the same key spend. pacer.ts says where each one is used.
 */
export class Caution {
  /** AIMD: the share of the quota geo lets itself use (1: all of it). */
  share = 1;
  /** The margin's multiplier: doubled by a 429, back to 1 as answers show room. */
  boost = 1;
  /**
   * How many starts our log alone may have unanswered at once: 1 at first and after any of them
   * met a 429, one more for each answered with room still left (slow start). Our log holds only
   * while we know what others spend: an over-eager burst into a key shared with another client is
   * then one request, not twenty, and a window's boundary costs one round trip until the log has
   * earned more. After such a 429 the log rests a window (logOffUntil): in a token bucket shared
   * with another client the server's count alone paces well, and a second probe would meet the
   * same 429.
   */
  logCap = 1;
  /** Until when the log may start nothing: a window after one of its starts met a 429. */
  logOffUntil = 0;
  private lastCut = -Infinity;
  /** Other clients' requests in a window, seen by answers to starts made at `at` (`refusal`: a 429's guess). */
  private seen: Array<{ at: number; n: number; refusal?: true }> = [];

  /**
   * A 429. Multiplicative decrease, once per round trip (the 429s of one burst are one signal);
   * a start that only our log allowed sends the log back to one start at a time.
   */
  refused(now: number, roundTripMs: number, byLog: boolean, limit: number | undefined, windowMs = 0): void {
    if (byLog) {
      this.logCap = 1;
      this.logOffUntil = now + windowMs;
    }
    if (now - this.lastCut < roundTripMs) return;
    this.lastCut = now;
    this.share = Math.max(limit ? 1 / limit : 0.05, this.share / 2);
    this.boost = Math.min(8, this.boost * 2);
  }

  /**
   * An answer that shows room. Additive increase: one request of the quota back per answer (and
   * one more start for the log, when the log made it: an answer that took the last slot was luck).
   */
  room(byLog: boolean, limit: number): void {
    this.share = Math.min(1, this.share + 1 / limit);
    this.boost = Math.max(1, this.boost * 0.9);
    if (byLog) this.logCap = Math.min(limit, this.logCap + 1);
  }

  /**
   * `n` requests of others were in the window of an answer to a start made at `at`; `refusal`: the
   * answer was a 429, whose full quota is only a guess at others (it may be a penalty, or a server
   * that says r=0 to everyone).
   */
  others(at: number, n: number, windowMs: number, refusal = false): void {
    // Kept two windows: an answer that opens a window shows none of them yet, and forgetting
    // them then let a burst take the quota the other client was about to spend (bench/batch.ts +o).
    this.seen = this.seen.filter((o) => o.at > at - 2 * windowMs);
    if (n > 0) this.seen.push({ at, n, ...(refusal ? { refusal: true as const } : {}) });
  }

  /**
   * Other clients' requests in a window: the most any answer of the last two windows showed
   * (`answered`: only answers that were not 429s, the ones that saw them spend).
   */
  othersNow(now: number, windowMs: number, answered = false): number {
    const since = now - 2 * windowMs;
    return this.seen.reduce((m, o) => (o.at > since && !(answered && o.refusal) ? Math.max(m, o.n) : m), 0);
  }
}
