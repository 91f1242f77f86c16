/**
 * The public shapes of ApiClient (client.ts re-exports them), kept apart so commands and the batch
 * scheduler can import the types without the client's code.
 */
import type { ImageB64Source } from './body.js';
import type { RateLimitInfo } from './ratelimit.js';
import type { RetryBudget, RetryClass, RetryInfo, RetryPolicy, RetryReason } from './retry.js';

/** Partial<RetryPolicy>, with `max` overridable row by row. */
export type RetryOverrides = Partial<Omit<RetryPolicy, 'max'>> & { max?: Partial<Record<RetryReason, number>> };

export interface ClientOptions {
  /** https://host[/prefix]; plain http only for loopback hosts, else BaseUrlError (malformed too). */
  baseUrl: string;
  /**
   * Sent only as `Authorization: Bearer <key>`; never in an error message or debug line. A
   * function is called once, before the first request (a key kept in the OS keyring is read then,
   * not when the client is made).
   */
  apiKey: string | (() => Promise<string>);
  /** Per attempt, default 180_000 (api-spec.md "Limits": recommended client timeout). */
  timeoutMs?: number;
  /** Default 8 MiB; a larger answer is a ContractError (unknown outcome). */
  maxResponseBytes?: number;
  userAgent?: string;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Jitter source, [0, 1). */
  random?: () => number;
  signal?: AbortSignal;
  /** One line per request, response and retry; Authorization shown as [REDACTED]. */
  debug?: (line: string) => void;
  /** Overrides for tests (attempt counts, caps, deadline). */
  retry?: RetryOverrides;
  /** Send Accept: application/problem+json, application/json. */
  problemJson?: boolean;
  /**
   * Told before each wait to resend (a 429's time, a 5xx backoff) of a call that has no onRetry of
   * its own: the CLI says on stderr that it waits and for how long (`geo credits` sat
   * through a 60 s 429 without a word).
   */
  onWait?: (info: RetryInfo & { method: string; path: string }) => void;
}

/** What one attempt met, answer or failure (a batch paces on every one of them). */
export interface AttemptInfo {
  /** 1-based. */
  attempt: number;
  /** The answer's status; undefined when no answer came (a reset, a timeout). */
  status?: number;
  rateLimit?: RateLimitInfo;
  /** From the request's start to the end of its answer (or failure), ms. */
  rttMs: number;
}

export interface ApiResponse<T> {
  /**
   * The parsed body. Typed by the contract, but only as far as `deviations` is empty: a paid answer
   * that deviates is returned as received (response.ts), so readers check what they rely on.
   */
  data: T;
  /** One line per way the answer is off the contract, naming the field ("confidence: … (got 85)"). */
  deviations: string[];
  /** The body text as received (decode.ts textOf: bytes that are not UTF-8 as \udcXX escapes). */
  raw: string;
  /** The body bytes exactly as received (once a declared Content-Encoding is undone), but the key: masked (secret.ts). */
  rawBytes: Buffer;
  /** Set when the key was masked out of the body: the sha256 of the bytes as received (rawBytes are the bytes as kept). */
  receivedSha256?: string;
  status: number;
  /** lower-case names */
  headers: Record<string, string>;
  rateLimit: RateLimitInfo;
  /** Idempotent-Replayed: true (a replay costs nothing). */
  replayed: boolean;
  /** x-request-id or request-id */
  requestId?: string;
  /** geolocate only */
  idempotencyKey?: string;
  attempts: number;
  elapsedMs: number;
}

export interface GeolocateOptions {
  /** Default crypto.randomUUID(); at most 256 characters. */
  idempotencyKey?: string;
  /** Streams image_b64 instead of req.image_b64. */
  image?: ImageB64Source;
  signal?: AbortSignal;
  onRetry?: (info: RetryInfo) => void;
  /** Shared by a batch: every retry (not 409 polls) takes one. */
  retryBudget?: RetryBudget;
  /**
   * Awaited before each resend (attempt 2 and later), after the retry's wait: a batch takes its
   * turn under the rate limit there, so retries after 5xx spend the same budget.
   */
  beforeAttempt?: (attempt: number) => Promise<void>;
  /** Every attempt's answer or failure, with its rate-limit headers and round trip. */
  onAttempt?: (info: AttemptInfo) => void;
}


/** One raw request of `geo api` (ApiClient.send). */
export interface RawRequest {
  method: string;
  /** Under the base URL, starting with "/", query included. */
  path: string;
  /** Lower-case names. The client adds user-agent, accept (unless given) and the key itself. */
  headers?: Record<string, string>;
  /** Sent byte for byte on every attempt. */
  body?: Buffer;
  /** The retry table's class (retry.ts): keyed for geolocate, idempotent for reads, unsafe else. */
  retry: RetryClass;
  /** Whether the key is sent (routes.ts: every route but GET /docs). */
  auth: boolean;
  onRetry?: (info: RetryInfo) => void;
}

/** The last answer of a raw request, as received (scrubbed of the key like every answer). */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  raw: string;
  rawBytes: Buffer;
  /** Set when the key was masked out of the body: the sha256 of the bytes as received. */
  receivedSha256?: string;
  /** For a status outside 2xx: the typed error (ApiError, RedirectError) that sets the exit code. */
  error?: Error;
}
