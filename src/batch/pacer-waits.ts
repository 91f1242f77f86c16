/**
 * What the pacer says of a wait: why the next start waits, for the line on stderr of a
 * wait over SAY_WAIT_MS, and the RetryLaterError (exit 5) of one further off than geo sits through.
 */
import { ApiError, RetryLaterError } from '../api/errors.js';
import { SAY_END_AFTER_MS } from '../output/wait-line.js';

/** Waits longer than this are said on stderr (the threshold every wait line uses). */
export const SAY_WAIT_MS = SAY_END_AFTER_MS;

/** What holds the next start: a 429's gate, the server's reset, our own window, others' spend, an answer. */
export type Hold = 'gate' | 'reset' | 'window' | 'others' | 'answer';

/**
 * Why the next start waits, in words short enough that the line saying it fits 80 columns, and
 * naming only what answers showed: `others` is the requests a window held that this run did not
 * make (another client, or an earlier run: geo cannot tell which).
 */
export function holdReason(hold: Hold, limit: number | undefined, windowMs: number | undefined, others = 0): string {
  switch (hold) {
    case 'reset':
      return 'the service says none is left';
    case 'window':
      return `geo used all ${limit ?? '?'} per ${Math.round((windowMs ?? 60_000) / 1000)} s`;
    case 'others':
      return `other requests used ${others} of ${limit ?? '?'}`;
    case 'answer':
      return 'the first answer tells the rate limit';
    default:
      return 'a 429 asked every request to wait';
  }
}

/**
 * Says a wait of the batch's next start on stderr (onWait) when it is over SAY_WAIT_MS: once per
 * start, and not again for the next start when it waits for the same second. While a wait lasts
 * its end may move (a guess of others' spend is looked at again each second) and its reason change
 * (the server's reset, then geo's own window): neither is news worth another line.
 */
export class WaitTeller {
  #second?: number;
  #turn = -1;

  constructor(private readonly say?: (untilMs: number, why: string) => void) {}

  /** The wait of the start after `turn` (the last start's number), until `at`. */
  tell(at: number, now: number, turn: number, why: string): void {
    const second = Math.round(at / 1000);
    if (at - now <= SAY_WAIT_MS || turn === this.#turn || second === this.#second) return;
    this.#second = second;
    this.#turn = turn;
    this.say?.(at, why);
  }
}

/** The next start is `at`, too far off to wait for: the batch stops, nothing more is sent. */
export function tooFar(at: number, now: number, why: string, limit: number | undefined): RetryLaterError {
  const cause = new ApiError(429, 'rate_limited', 'no request left', { rateLimit: { resetAt: at, ...(limit !== undefined ? { limit } : {}) } });
  return new RetryLaterError(cause, at, at - now, `${why}: the next request could start only after`);
}
