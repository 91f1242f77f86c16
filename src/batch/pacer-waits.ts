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

export function holdReason(hold: Hold, limit: number | undefined, windowMs: number | undefined): string {
  switch (hold) {
    case 'reset':
      return "the service's count says no request is left until its reset";
    case 'window':
      return `this key's quota (${limit ?? '?'} per ${Math.round((windowMs ?? 60_000) / 1000)} s) is spent by geo's recent requests until they leave the window`;
    case 'others':
      return "other clients seem to spend what is left of this key's quota";
    case 'answer':
      return 'the first answer tells the rate limit';
    default:
      return 'a 429 asked every request to wait';
  }
}

/** The next start is `at`, too far off to wait for: the batch stops, nothing more is sent. */
export function tooFar(at: number, now: number, why: string, limit: number | undefined): RetryLaterError {
  const cause = new ApiError(429, 'rate_limited', 'no request left', { rateLimit: { resetAt: at, ...(limit !== undefined ? { limit } : {}) } });
  return new RetryLaterError(cause, at, at - now, `${why}: the next request could start only after`);
}
