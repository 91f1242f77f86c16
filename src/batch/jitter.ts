/**
 * How much the network moves a request's arrival, learnt from the round trips geo observes (issue
 * 21: the pacer's safety margin is earned by the network, not a constant).
 *
 * The margin must cover a start that reaches the server later than one made after it: the spread
 * of the one-way delays. A round trip is that delay, the service's time and the way back, so the
 * spread of recent round trips (the slowest less the fastest of the last 64 answers) bounds it
 * from above whenever the service's time is steady. RFC 6298's smoothed deviation (4 × RTTVAR)
 * was tried first: it follows the typical variation, not the worst, and a burst of 60 through a
 * relay of 0-40 ms each way met 429s with it (deviation ~10 ms, arrivals spread over ~130 ms;
 * bench/batch.ts). Where the service's own time varies (depth 1: 10 s median, 24 s p95) the spread
 * is far too large instead, which is why the pacer caps the margin at a small share of the window.
 */
const SAMPLES = 64;

export class Jitter {
  private readonly ring: number[] = [];
  private next = 0;

  add(rttMs: number): void {
    if (!(rttMs >= 0) || !Number.isFinite(rttMs)) return;
    if (this.ring.length < SAMPLES) this.ring.push(rttMs);
    else this.ring[this.next] = rttMs;
    this.next = (this.next + 1) % SAMPLES;
  }

  /** The spread of the recent round trips, ms; undefined before two samples. */
  get allowanceMs(): number | undefined {
    if (this.ring.length < 2) return undefined;
    return Math.max(...this.ring) - Math.min(...this.ring);
  }

  /** The fastest recent round trip, ms (the service's time and the network at their least); undefined before one. */
  get fastestMs(): number | undefined {
    return this.ring.length ? Math.min(...this.ring) : undefined;
  }

  /** A typical round trip (the median of the recent ones), ms: one decrease per round trip at most (pacer.ts). */
  get smoothedMs(): number | undefined {
    if (this.ring.length === 0) return undefined;
    const s = [...this.ring].sort((a, b) => a - b);
    return s[s.length >> 1];
  }
}
