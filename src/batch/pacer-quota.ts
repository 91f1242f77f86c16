/**
 * The pacer's first floor (pacer.ts has the rules): what it knows of the key's quota. The limit and
 * its window, as the headers tell them; our own starts (start-log.ts), the ones still unanswered
 * and the ones only our log allowed; the safety margin the network earned (jitter.ts); the share
 * of the quota AIMD allows and other clients' spend (caution.ts).
 */
import type { RateLimitInfo } from '../api/ratelimit.js';
import { Caution } from './caution.js';
import { Jitter } from './jitter.js';
import { StartLog } from './start-log.js';
import type { Sleep } from './wait.js';

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

const MIN_MARGIN_MS = 20;
const MAX_MARGIN_MS = 2000;

export class PacerQuota {
  limit?: number;
  windowMs?: number;
  readonly jitter = new Jitter();
  readonly caution = new Caution();
  /** The number of our latest start (0: none yet, or the request made before the batch). */
  protected seq = 0;
  /** Our starts, and when the server may have counted each (start-log.ts). */
  protected readonly log = new StartLog();
  /** Our starts whose answer has not come yet, and when they were made. */
  protected readonly unanswered = new Map<number, number>();
  /** Of those, the ones only our own log allowed (the server's count did not). */
  protected readonly byLog = new Set<number>();

  constructor(protected readonly o: PacerOptions) {}

  protected learnLimit(info: RateLimitInfo): void {
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
  protected get own(): number {
    const others = this.others;
    return Math.floor(this.caution.share * this.limit!) - (others > 0 ? others + 2 : 0);
  }

  protected record(seq: number, at: number): void {
    // Only the last window matters; keep the log short in a long batch.
    this.log.add(seq, at, (this.windowMs ?? 60_000) + MAX_MARGIN_MS + this.lateMs, 4 * (this.limit ?? 256));
    if (seq > 0) this.unanswered.set(seq, at);
  }

  /** How much later than its start a slow answer may show a request was counted (start-log.ts): a tenth of the window, at most 2 s. */
  protected get lateMs(): number {
    return Math.min(MAX_MARGIN_MS, (this.windowMs ?? 60_000) * 0.1);
  }

  /** Our starts the server may still count at `now` (rule 2), oldest first. */
  protected inWindow(now: number): number[] {
    return this.log.counted(now - this.windowMs! - this.marginMs, now);
  }
}
