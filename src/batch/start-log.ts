/**
 * The pacer's log of its own starts (pacer.ts, rule 2): when each request started, and the latest
 * time the server may have counted it. A fixed window or a sliding log counts a request when it
 * reaches the limiter, not when geo started it; a busy service (or a busy geo) puts that moment
 * later, and a start the log let go of one window after it started could still be in the
 * server's count, so the next one met a 429 (a sliding log of 20 per 3 s, a service that held
 * one request in five for up to 300 ms: test/batch/pacer-limiters.test.ts).
 *
 * The answer says how late: a request was counted before its answer came, and the fastest round
 * trip seen (the service's time and the network both ways, at their least) is the part of any
 * round trip after the count, give or take the network's spread, which the pacer's margin covers.
 * So a start counts until (answer - fastest round trip) + window, never earlier than its start +
 * window, and at most `maxLateMs` later: where the service's own time varies (depth 1: 10 s median,
 * 24 s p95) a slow answer says nothing about when it was counted.
 */

interface Entry {
  /** When geo started it. */
  at: number;
  /** The latest time the server may have counted it (its start until its answer says more). */
  counted: number;
}

export class StartLog {
  private entries: Entry[] = [];
  private readonly bySeq = new Map<number, Entry>();

  /** Start `seq` at `at`; keeps only what the last `keepMs` can still need, once the log is long. */
  add(seq: number, at: number, keepMs: number, longAfter: number): void {
    if (this.entries.length > longAfter) {
      this.entries = this.entries.filter((e) => e.counted > at - keepMs);
      for (const [s, e] of this.bySeq) if (!this.entries.includes(e)) this.bySeq.delete(s);
    }
    const e = { at, counted: at };
    this.entries.push(e);
    if (seq > 0) this.bySeq.set(seq, e);
  }

  /**
   * Start `seq` was answered at `now`; `fastestMs`: the least round trip seen (undefined: none
   * yet). Returns the latest time the server may have counted it (its start when nothing says more).
   */
  answered(seq: number, now: number, fastestMs: number | undefined, maxLateMs: number): number {
    const e = this.bySeq.get(seq);
    this.bySeq.delete(seq);
    if (!e) return now;
    if (fastestMs !== undefined) e.counted = Math.max(e.counted, Math.min(now - fastestMs, e.at + maxLateMs));
    return e.counted;
  }

  /** Start `seq` met a 429: the server counted nothing, so neither does the log. */
  refused(seq: number): void {
    const e = this.bySeq.get(seq);
    if (e) this.entries = this.entries.filter((x) => x !== e);
  }

  /** Our starts made in (from, to]. */
  started(from: number, to: number): number {
    let n = 0;
    for (const e of this.entries) if (e.at > from && e.at <= to) n++;
    return n;
  }

  /** Our starts the server may have counted in (from, to], in order: what a window may still hold. */
  counted(from: number, to: number): number[] {
    return this.entries.filter((e) => e.counted > from && e.counted <= to).map((e) => e.counted).sort((a, b) => a - b);
  }

  /** When the first start was made (the balance read, when there was one). */
  get first(): number | undefined {
    return this.entries[0]?.at;
  }

  /** When the last start was made. */
  get last(): number | undefined {
    return this.entries[this.entries.length - 1]?.at;
  }
}
