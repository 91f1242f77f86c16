/**
 * Typed failures of the request layer. Each says whether the request may have been processed,
 * because with money involved "unknown" must never be read as "failed" or "succeeded".
 */
import type { RateLimitInfo } from './ratelimit.js';

export interface ApiErrorFields {
  hint?: string;
  details?: Record<string, unknown>;
  retryAfter?: number;
  maxDepth?: number;
  maxEffort?: string;
  retryable?: boolean;
  requestId?: string;
  body?: unknown;
  /** What the error response's rate-limit headers said, so a batch scheduler can pace on errors too. */
  rateLimit?: RateLimitInfo;
  /**
   * Set when the error came in a 2xx body (response.ts): that answer as received, kept (journal)
   * with the deviation that names it, though it is read as the error it carries.
   */
  answer?: KeptAnswer;
}

/** A body kept as received: its text (decode.ts textOf), its bytes, its status and how it deviated. */
export interface KeptAnswer {
  status: number;
  raw: string;
  rawBytes: Buffer;
  deviations: string[];
  /** The key was masked out of it (secret.ts): the sha256 of the bytes as received. */
  receivedSha256?: string;
}

/** A 429 resent until the retry table said stop: the attempts made, and the earliest sensible time to come back. */
export interface GaveUp {
  attempts: number;
  /** epoch ms, and how far off it was when geo gave up */
  retryAt: number;
  waitMs: number;
  /** Where retryAt comes from: "its Retry-After", "one window of its rate-limit policy (60 s)", … */
  basis: string;
}

/** The server answered with an error body (api-spec.md "Error body"). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly hint?: string;
  readonly details?: Record<string, unknown>;
  readonly retryAfter?: number;
  readonly maxDepth?: number;
  readonly maxEffort?: string;
  readonly retryable?: boolean;
  readonly requestId?: string;
  readonly body?: unknown;
  readonly rateLimit?: RateLimitInfo;
  readonly answer?: KeptAnswer;
  /** Set on a 429 the retry loop gave up on (retry.ts): how many attempts, and when to come back. */
  gaveUp?: GaveUp;
  /** Set on a 401 by cli/run-command.ts: where the refused key came from, so the hint names what to change. */
  keyFrom?: { source: string; profile?: string };
  constructor(readonly status: number, readonly code: string, message: string, fields: ApiErrorFields = {}) {
    super(message);
    Object.assign(this, fields);
  }
}

/** No usable answer reached us. `mayHaveRun` is false only when the connection was refused. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(message: string, readonly causeCode: string | undefined, readonly mayHaveRun: boolean) {
    super(message);
  }
}

/** One attempt exceeded its timeout; the request may have run on the server. */
export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
  readonly mayHaveRun = true;
  constructor(readonly timeoutMs: number) {
    // Not rounded to whole seconds: `--timeout 0.25` read "no answer within 0 s" (fault suite).
    super(`no answer within ${Number((timeoutMs / 1000).toPrecision(3))} s`);
  }
}

/**
 * A success status whose body could not be read (not JSON, cut off, not decodable): an unknown
 * outcome, never a success. For geolocate, retrying with the same Idempotency-Key settles it. A
 * body that parsed but deviates from the contract is not this: it is kept (response.ts).
 */
export class ContractError extends Error {
  override readonly name = 'ContractError';
  /** The body text when it arrived but could not be read (kept in the journal). */
  raw?: string;
  /** Its bytes as received (raw means raw: the text alone loses bytes that are not UTF-8), the key masked. */
  rawBytes?: Buffer;
  /** The key was masked out of them (secret.ts): the sha256 of the bytes as received. */
  receivedSha256?: string;
  constructor(message: string, readonly status: number, readonly truncated: boolean = false) {
    super(message);
  }
}

/** The answer was bigger than the cap (as sent, or once decompressed): deterministic, never retried. */
export class ResponseTooLargeError extends ContractError {}

/** Client-side check failed (same rules and code as the server): nothing was sent. */
export class RequestValidationError extends Error {
  override readonly name = 'RequestValidationError';
  constructor(readonly code: string, message: string, readonly maxEffort?: string, readonly field?: string) {
    super(message);
  }
}

/** The configured base URL is unusable (not https and not loopback, or malformed): nothing was sent. */
export class BaseUrlError extends Error {
  override readonly name = 'BaseUrlError';
}

/**
 * The server answered 3xx. A redirect is never followed, so the key never goes to another origin.
 * 304 Not Modified is no redirect: it answers a conditional request, which geo never sends, so
 * it has words of its own.
 */
export class RedirectError extends Error {
  override readonly name = 'RedirectError';
  constructor(readonly status: number, readonly location: string | undefined) {
    super(status === 304
      ? 'the server answered 304 Not Modified, which answers a conditional request; geo sent none, so there is no answer to show'
      : `the server answered ${status} with a redirect; geo does not follow redirects`);
  }
}

/**
 * A 429 whose wait geo will not sit through: past the request's deadline, or longer than the
 * retry policy's longest wait (5 minutes); also a batch whose next start the server's count puts
 * that far off (batch/pacer.ts). Nothing is resent before the server's time, so the
 * command ends at once (exit 5, like any 429) and says when to come back, and why when a header
 * was clamped (ratelimit.ts `note`).
 */
export class RetryLaterError extends ApiError {
  constructor(cause: ApiError, readonly retryAt: number, readonly waitMs: number, what = 'the service asks to retry after') {
    const at = new Date(retryAt);
    const hhmm = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
    const note = cause.rateLimit?.note !== undefined ? `; ${cause.rateLimit.note}` : '';
    super(429, cause.code, `${what} ${hhmm} (in ${Math.ceil(waitMs / 1000)} s)${note}`, {
      retryAfter: Math.ceil(waitMs / 1000), body: cause.body,
      ...(cause.requestId !== undefined ? { requestId: cause.requestId } : {}), ...(cause.rateLimit ? { rateLimit: cause.rateLimit } : {}),
    });
  }
}
