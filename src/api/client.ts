/**
 * The HTTP client of the Visual Geolocation API (api-spec.md "Endpoints"). It never pays twice:
 * geolocate sends one Idempotency-Key and one set of body bytes on every attempt, and retries
 * follow the table in retry.ts. The key is sent only as `Authorization: Bearer`, only to the
 * configured origin (redirects are refused), and never printed.
 */
import { type Agent, createAgent } from './undici.js';
import { type RequestBody, jsonBody, streamedImageBody } from './body.js';
import { RESPONSE_HEADERS, checkLimit, normalizeBaseUrl, showHeaders, withoutImage } from './client-util.js';
import { realSleep } from './sleep.js';
import { ApiError, ContractError, RedirectError, RequestValidationError } from './errors.js';
import { parseRateLimit } from './ratelimit.js';
import { type RetryBudget, type RetryClass, type RetryInfo, type RetryPolicy, DEFAULT_RETRY_POLICY, withRetry } from './retry.js';
import { type Reshape, parseSuccess, requestIdOf, toApiError, unwrapCase } from './response.js';
import { maskSecrets } from './mask.js';
import { scrubAnswer, scrubCutOff } from './secret.js';
import { type Route, SANDBOX_HEADER, routes } from './routes.js';
import {
  type AnalysesList, type AsyncAccepted, type Case, type CaseList, type CreateCaseBody, type Credits, type GeolocateRequest,
  type GeolocateResponse, type Usage, CreateCaseBodySchema, IdempotencyKeySchema, LIMITS, checkGeolocateRequest,
} from './schemas.js';
import { NodeAgents } from './node-exchange.js';
import { type RawAnswer, sendOnce } from './transport.js';
import type { ApiResponse, AttemptInfo, ClientOptions, GeolocateOptions, RawRequest, RawResponse } from './types.js';

export type { ImageB64Source } from './body.js';
export { imageFromBuffer } from './body.js';
export { normalizeBaseUrl } from './client-util.js';
export type { RateLimitInfo } from './ratelimit.js';
export type { RetryBudget, RetryInfo, RetryPolicy } from './retry.js';
export type { AsyncAccepted } from './schemas.js';
export type { ApiResponse, AttemptInfo, ClientOptions, GeolocateOptions, RawRequest, RawResponse, RetryOverrides } from './types.js';

/** What #call needs of a route: the table's rows, or a raw `geo api` target (no schemas). */
type Target = Pick<Route, 'path' | 'auth' | 'retry'> & { method: string; responses?: Route['responses'] };

interface CallSpec<T> {
  route: Target;
  query?: Record<string, string | number | undefined>;
  body?: RequestBody;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  onRetry?: (info: RetryInfo) => void;
  budget?: RetryBudget;
  reshape?: Reshape;
  /** Reads a 2xx answer instead of parseSuccess (send() keeps it as received, whatever it is). */
  read?: (ans: RawAnswer) => T;
  /** Sees every answer, error statuses too, before it is thrown or read. */
  onAnswer?: (ans: RawAnswer) => void;
  beforeAttempt?: (attempt: number) => Promise<void>;
  onAttempt?: (info: AttemptInfo) => void;
  /** A 429 is not retried (the caller does without the answer, or waits its own way). */
  noRateLimitRetry?: boolean;
}

const MiB = 1024 * 1024;
/** Valid strict base64 standing in for a streamed image while the other rules are checked. */
const PLACEHOLDER_B64 = 'AAAA';

export class ApiClient {
  readonly baseUrl: string;
  #key: string | undefined;
  #loadKey: Promise<string> | undefined;
  readonly #o: ClientOptions;
  readonly #policy: RetryPolicy;
  readonly #timeoutMs: number;
  readonly #now: () => number;
  #agent: Promise<Agent> | undefined;
  readonly #nodeAgents = new NodeAgents();
  #sandbox = false;
  #readKey: (() => Promise<string>) | undefined;

  constructor(opts: ClientOptions) {
    this.baseUrl = normalizeBaseUrl(opts.baseUrl);
    if (typeof opts.apiKey === 'string') this.#key = opts.apiKey;
    else {
      const read = opts.apiKey;
      // Read once, when the first request needs it; a failure (a keyring that cannot be read) is that request's error.
      this.#readKey = () => (this.#loadKey ??= read().then((k) => (this.#key = k)));
    }
    this.#o = opts;
    this.#now = opts.now ?? Date.now;
    this.#timeoutMs = opts.timeoutMs ?? LIMITS.recommendedTimeoutS * 1000;
    const r = opts.retry ?? {};
    const max = { ...DEFAULT_RETRY_POLICY.max, ...r.max };
    // Room for every timed-out attempt the table allows (1 + its timeout retries) plus the longest
    // wait (a 429 hint). It was 2 x the timeout: a second timeout retry could never start, and
    // under a short --timeout not even a 1 s backoff or Retry-After fitted, so 5xx, resets and 429s
    // went unretried (found by test/reliability/single.test.ts).
    const deadlineMs = (1 + max.timeout) * this.#timeoutMs + (r.rateLimitCapMs ?? DEFAULT_RETRY_POLICY.rateLimitCapMs);
    this.#policy = { ...DEFAULT_RETRY_POLICY, deadlineMs, ...r, max } as RetryPolicy;
  }

  async geolocate(req: GeolocateRequest, opts: GeolocateOptions = {}): Promise<ApiResponse<GeolocateResponse | AsyncAccepted>> {
    if (opts.image && req.image_b64 !== undefined) throw new RequestValidationError('invalid_request', 'give image_b64 in the request or as a streamed image, not both', undefined, 'image_b64');
    const checked = checkGeolocateRequest(opts.image ? { ...req, image_b64: PLACEHOLDER_B64 } : req);
    if (!checked.ok) {
      const p = checked.problem;
      throw new RequestValidationError(p.code, p.message, p.max_effort, p.field);
    }
    if (opts.image && opts.image.length > LIMITS.imageB64MaxChars) {
      throw new RequestValidationError('invalid_image_b64', `image_b64 exceeds 20 MB (${opts.image.length} base64 characters, at most ${LIMITS.imageB64MaxChars})`, undefined, 'image_b64');
    }
    // node:crypto is loaded here, not at the top: every other command would pay ~3 ms of start-up for it.
    const key = opts.idempotencyKey ?? (await import('node:crypto')).randomUUID();
    if (!IdempotencyKeySchema.safeParse(key).success) {
      throw new RequestValidationError('invalid_request', `the Idempotency-Key must be 1 to ${LIMITS.idempotencyKeyMaxChars} characters (got ${key.length})`, undefined, 'idempotency_key');
    }
    // Send what the caller wrote, not the schema's output: the bytes are the caller's request.
    const body = opts.image ? streamedImageBody(withoutImage(req), opts.image) : jsonBody(req);
    const res = await this.#call<GeolocateResponse | AsyncAccepted>({
      route: routes.geolocate, body, headers: { 'idempotency-key': key },
      signal: opts.signal, onRetry: opts.onRetry, budget: opts.retryBudget, beforeAttempt: opts.beforeAttempt, onAttempt: opts.onAttempt,
    });
    return { ...res, idempotencyKey: key };
  }

  /**
   * `retryBudget`: retries this read may take (a `{ remaining: 0 }` budget: one attempt);
   * `waitOnRateLimit: false`: a 429 is thrown at once, its wait left to the caller.
   */
  async credits(opts: { retryBudget?: RetryBudget; waitOnRateLimit?: boolean } = {}): Promise<ApiResponse<Credits>> {
    return this.#call({ route: routes.credits, budget: opts.retryBudget, ...(opts.waitOnRateLimit === false ? { noRateLimitRetry: true } : {}) });
  }

  async usage(): Promise<ApiResponse<Usage>> {
    return this.#call({ route: routes.usage });
  }

  async analyses(query: { q?: string; city?: string; limit?: number } = {}): Promise<ApiResponse<AnalysesList>> {
    checkLimit(query.limit);
    return this.#call({ route: routes.analyses, query });
  }

  async listCases(query: { teamId?: string; limit?: number } = {}): Promise<ApiResponse<CaseList>> {
    checkLimit(query.limit);
    return this.#call({ route: routes.listCases, query });
  }

  async createCase(body: CreateCaseBody): Promise<ApiResponse<Case>> {
    const r = CreateCaseBodySchema.safeParse(body);
    if (!r.success) {
      const issue = r.error.issues[0];
      throw new RequestValidationError('invalid_request', `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`, undefined, String(issue?.path[0] ?? ''));
    }
    return this.#call({ route: routes.createCase, body: jsonBody(r.data), reshape: unwrapCase });
  }

  async docs(): Promise<ApiResponse<string>> {
    return this.#call({ route: routes.docs });
  }

  /** True once any answer carried the sandbox's header (routes.ts SANDBOX_HEADER): results simulated, credits the sandbox's. */
  get servedBySandbox(): boolean {
    return this.#sandbox;
  }

  /** Closes pooled connections (idle sockets are unref'd, so exiting without this is fine too). */
  async close(): Promise<void> {
    const a = this.#agent;
    this.#agent = undefined;
    this.#nodeAgents.close();
    await (await a)?.close();
  }

  /**
   * One request of `geo api`: any method and path under the base URL, through the same attempts,
   * retry table, timeouts, key handling and scrubbing as every other call. Every status is an
   * answer here: the last one is returned as received (2xx bodies are not parsed), with the typed
   * error the exit-code table maps when it is not a 2xx. Failures without an answer are thrown.
   */
  async send(req: RawRequest): Promise<RawResponse> {
    // The caller checked the path (commands/api/target.ts); the layer that holds the key checks again.
    if (!req.path.startsWith('/') || new URL(this.baseUrl + req.path).origin !== new URL(this.baseUrl).origin) {
      throw new RequestValidationError('invalid_request', `the path ${req.path} does not stay on the base URL's origin`, undefined, 'path');
    }
    let last: RawAnswer | undefined;
    const target: Target = { method: req.method, path: req.path, auth: req.auth, retry: req.retry };
    const body: RequestBody | undefined = req.body ? { length: req.body.length, open: () => req.body! } : undefined;
    try {
      const res = await this.#call<RawAnswer>({
        route: target, ...(body ? { body } : {}), ...(req.headers ? { headers: req.headers } : {}), ...(req.onRetry ? { onRetry: req.onRetry } : {}),
        read: (ans) => ans, onAnswer: (ans) => (last = ans),
      });
      return { status: res.status, headers: res.headers, raw: res.raw, rawBytes: res.rawBytes, ...(res.receivedSha256 ? { receivedSha256: res.receivedSha256 } : {}) };
    } catch (err) {
      // An error status is an answer: its body is printed, and the error decides the exit code.
      const answered = (err instanceof ApiError || err instanceof RedirectError) && last !== undefined && last.status === err.status;
      if (answered && last) return { status: last.status, headers: last.headers, raw: last.raw, rawBytes: last.bytes, ...(last.receivedSha256 ? { receivedSha256: last.receivedSha256 } : {}), error: err as Error };
      throw err;
    }
  }

  async #call<T>(spec: CallSpec<T>): Promise<ApiResponse<T>> {
    const { route } = spec;
    const url = this.#url(route.path, spec.query);
    const headers: Record<string, string> = {
      accept: route.responses === undefined ? '*/*' : route.responses[200] === 'text/html' ? 'text/html' : this.#o.problemJson ? 'application/problem+json, application/json' : 'application/json',
      'user-agent': this.#o.userAgent ?? 'geo-cli',
      ...spec.headers,
    };
    if (spec.body) Object.assign(headers, { 'content-type': headers['content-type'] ?? 'application/json', 'content-length': String(spec.body.length) });
    const key = this.#key ?? (route.auth ? await this.#readKey!() : '');
    // Only routes that need the key get it (GET /docs does not: api-spec.md "Authentication" 1).
    const sendHeaders = route.auth ? { ...headers, authorization: `Bearer ${key}` } : headers;
    const signals = [this.#o.signal, spec.signal].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    const start = this.#now();
    let attempts = 0;
    return withRetry<ApiResponse<T>>(
      {
        cls: route.retry as RetryClass, policy: spec.noRateLimitRetry ? { ...this.#policy, max: { ...this.#policy.max, rate_limited: 0 } } : this.#policy, now: this.#now, sleep: this.#o.sleep ?? realSleep,
        random: this.#o.random ?? Math.random, signal, budget: spec.budget,
        onRetry: (info) => {
          this.#log(`retry ${route.method} ${url} after attempt ${info.attempt}: ${info.reason}${info.status ? ` ${info.status}` : ''}, waiting ${info.delayMs} ms`);
          if (spec.onRetry) spec.onRetry(info);
          else this.#o.onWait?.({ ...info, method: route.method, path: route.path });
        },
      },
      async (n) => {
        attempts = n;
        if (n > 1) {
          // A resend carries the first attempt's bytes or nothing, and takes its turn.
          await spec.body?.verify?.();
          await spec.beforeAttempt?.(n);
        }
        const t0 = this.#now();
        this.#log(`> ${route.method} ${url} attempt ${n} ${showHeaders(headers, route.auth)}`);
        // Masked before anything reads it: a server echoing the key must not get it printed or kept.
        const sent = await sendOnce({
          method: route.method, url, headers: sendHeaders, body: spec.body?.open(), timeoutMs: this.#timeoutMs,
          connectTimeoutMs: Math.min(this.#timeoutMs, 30_000), nodeAgents: this.#nodeAgents,
          maxResponseBytes: this.#o.maxResponseBytes ?? 8 * MiB, signal, dispatcher: await this.#dispatcher(),
        }).catch((err: unknown) => {
          // A body cut short is kept as far as it came: masked like any answer.
          if (err instanceof ContractError) scrubCutOff(err, key);
          this.#log(`x ${route.method} ${url} attempt ${n} ${this.#now() - t0} ms: ${err instanceof Error ? err.message : String(err)}`);
          spec.onAttempt?.({ attempt: n, rttMs: this.#now() - t0 });
          throw err;
        });
        const ans = scrubAnswer(sent, key);
        spec.onAnswer?.(ans);
        if (ans.headers[SANDBOX_HEADER] !== undefined) this.#sandbox = true;
        const rateLimit = parseRateLimit(ans.headers, this.#now());
        spec.onAttempt?.({ attempt: n, status: ans.status, rateLimit, rttMs: this.#now() - t0 });
        this.#log(`< ${ans.status} ${route.method} ${url} ${this.#now() - t0} ms ${showHeaders(ans.headers, false, RESPONSE_HEADERS)}`);
        // An error status is that error, its body cut short or not.
        if (ans.status < 200 || ans.status >= 300) throw toApiError(ans, rateLimit);
        const { data, deviations } = spec.read ? { data: spec.read(ans), deviations: [...ans.deviations] } : parseSuccess<T>(ans, route.responses ?? {}, rateLimit, spec.reshape);
        const requestId = requestIdOf(ans.headers);
        return {
          data, deviations, raw: ans.raw, rawBytes: ans.bytes, ...(ans.receivedSha256 ? { receivedSha256: ans.receivedSha256 } : {}), status: ans.status, headers: ans.headers, rateLimit,
          replayed: ans.headers['idempotent-replayed']?.trim().toLowerCase() === 'true',
          ...(requestId !== undefined ? { requestId } : {}),
          attempts, elapsedMs: this.#now() - start,
        };
      },
    );
  }

  #url(path: string, query?: Record<string, string | number | undefined>): string {
    const u = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    return u.toString();
  }

  #dispatcher(): Promise<Agent> {
    // Header and body timeouts are off: the per-attempt timer in transport.ts covers both.
    this.#agent ??= createAgent({ headersTimeout: 0, bodyTimeout: 0, connect: { timeout: Math.min(this.#timeoutMs, 30_000) } });
    return this.#agent;
  }

  #log(line: string): void {
    if (!this.#o.debug) return;
    // Belt and braces: the key is never put in a line, and is masked if it ever were.
    this.#o.debug(this.#key !== undefined ? maskSecrets(line, [this.#key]) : line);
  }
}
