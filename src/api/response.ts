/**
 * From a raw answer to data or a typed error, liberally (DESIGN.md "Never lose what was paid"):
 * a 2xx whose body parses as JSON is returned as received, with one deviation per field that is
 * off the contract (schemas.ts stays the one statement of what is on it), never thrown away and
 * never re-requested: a replay would carry the same body. Only a body that is not JSON is an
 * unknown outcome (ContractError, retried). A 2xx carrying an error body is that error.
 */
import type * as z from 'zod/mini';
import type { $ZodIssue } from 'zod/v4/core';
import { ApiError, ContractError, type KeptAnswer, RedirectError } from './errors.js';
import type { RateLimitInfo } from './ratelimit.js';
import { ERROR_CODE_STATUS, ErrorBodySchema } from './schemas.js';
import { type RawAnswer, cutOff } from './transport.js';

export function requestIdOf(headers: Record<string, string>): string | undefined {
  return headers['x-request-id'] ?? headers['request-id'];
}

function jsonOrUndefined(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value for a deviation line: short, and JSON so a string shows its quotes. */
function shown(v: unknown): string {
  const t = JSON.stringify(v) ?? String(v);
  return t.length > 40 ? `${t.slice(0, 39)}…` : t;
}

const MAX_DEVIATIONS = 20;

/** One line per zod issue, naming the field and what came instead. */
export function deviationsOf(issues: readonly $ZodIssue[], json: unknown): string[] {
  const lines = issues.map((i) => {
    const path = i.path.length ? i.path.join('.') : 'body';
    const got = i.path.reduce<unknown>((o, k) => (isObject(o) || Array.isArray(o) ? (o as Record<PropertyKey, unknown>)[k as PropertyKey] : undefined), json);
    if (got === undefined && i.code !== 'custom') return `${path}: missing`;
    return `${path}: ${i.message}${got === undefined ? '' : ` (got ${shown(got)})`}`;
  });
  return lines.length > MAX_DEVIATIONS ? [...lines.slice(0, MAX_DEVIATIONS), `… and ${lines.length - MAX_DEVIATIONS} more`] : lines;
}

/**
 * An error body in a 2xx (api-spec.md "Error body", either form). A body with a `location` is a
 * result, even with `success: false`: what was paid for wins over what the flag says.
 */
function errorShape(json: unknown): Record<string, unknown> | undefined {
  if (!isObject(json) || 'location' in json) return undefined;
  const apiForm = json.success === false && ['code', 'message', 'error'].some((k) => typeof json[k] === 'string');
  const problemForm = typeof json.type === 'string' && typeof json.title === 'string' && Number.isInteger(json.status) && (json.status as number) >= 400;
  return apiForm || problemForm ? json : undefined;
}

/** The status an error body in a 2xx stands for: its own 4xx/5xx, else its code's, else 500. */
function statusOfError(body: Record<string, unknown>): number {
  const s = body.status;
  if (typeof s === 'number' && Number.isInteger(s) && s >= 400 && s <= 599) return s;
  const code = typeof body.code === 'string' ? body.code : '';
  return (ERROR_CODE_STATUS as Record<string, number>)[code] ?? 500;
}

export interface Read<T> {
  data: T;
  deviations: string[];
}

/** Reshapes a parsed body before it is checked (cases create unwraps `{success, data}`). */
export type Reshape = (json: unknown) => { json: unknown; deviation?: string };

/**
 * The data of a 2xx and how it deviates. Checked against the schema of its status; a status the
 * route does not list is checked against its 200 shape and named as a deviation. The body of an
 * async 202 is "not shown" (api-spec.md "Asynchronous mode"): passed through as received, unless it
 * carries a full result (a `location`), which is then read as one.
 */
export function parseSuccess<T>(ans: RawAnswer, schemas: Record<number, z.ZodMiniType | 'text/html'>, rateLimit: RateLimitInfo, reshape?: Reshape): Read<T> {
  const deviations = [...(ans.deviations ?? [])];
  if (schemas[200] === 'text/html') return { data: ans.raw as T, deviations };
  let json = jsonOrUndefined(ans.raw);
  const cut = ans.cutShort;
  if (json === undefined) {
    // Unreadable: an unknown outcome, retried with the same key; what came is kept all the same.
    const err = cut ? cutOff(ans.status, cut, ans.bytes) : new ContractError(`the ${ans.status} response body is not JSON`, ans.status);
    err.raw = ans.raw;
    err.rawBytes = ans.bytes;
    if (ans.receivedSha256) err.receivedSha256 = ans.receivedSha256;
    throw err;
  }
  // A body that ended before its Content-Length yet parses whole: the JSON is the answer.
  if (cut) deviations.push(`body: ${cut.received} bytes arrived${cut.declared !== undefined ? ` of the ${cut.declared} its Content-Length declared` : ''}, then the connection closed (the JSON is whole; kept as received)`);
  const error = errorShape(json);
  if (error) {
    const status = statusOfError(error);
    const code = typeof error.code === 'string' ? ` ${shown(error.code)}` : '';
    const kept: KeptAnswer = {
      status: ans.status, raw: ans.raw, rawBytes: ans.bytes, deviations: [...deviations, `status: ${ans.status} carrying an error body${code}, read as ${status}`],
      ...(ans.receivedSha256 ? { receivedSha256: ans.receivedSha256 } : {}),
    };
    throw toApiError({ ...ans, status }, rateLimit, kept);
  }
  if (reshape) {
    const r = reshape(json);
    json = r.json;
    if (r.deviation) deviations.push(r.deviation);
  }
  const own = schemas[ans.status];
  if (ans.status === 202 && own !== undefined && !(isObject(json) && 'location' in json)) return { data: json as T, deviations };
  if (ans.status !== 200) deviations.push(`status: ${ans.status}${ans.status === 202 ? ' carrying a full result' : ''} where the spec answers 200`);
  const schema = schemas[200] as z.ZodMiniType;
  const r = schema.safeParse(json);
  if (r.success) return { data: r.data as T, deviations };
  return { data: json as T, deviations: [...deviations, ...deviationsOf(r.error.issues, json)] };
}

/** `{success, data: {...case}}` instead of the Case itself (api-spec.md: "the created Case"). */
export const unwrapCase: Reshape = (json) => {
  if (isObject(json) && !('id' in json) && isObject(json.data)) return { json: json.data, deviation: 'body: the case is wrapped in {success, data}' };
  return { json };
};

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const numOr = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * An error answer as ApiError. Both error forms (api-spec.md "Error body") are read, and leniently:
 * a body missing a required field (docs, say) still gives its code and message rather than being
 * thrown away. A 409 without a code is the payload-mismatch conflict (spec: "409 (conflict)").
 */
export function toApiError(ans: RawAnswer, rateLimit: RateLimitInfo, answer?: KeptAnswer): ApiError | RedirectError {
  const { status, headers } = ans;
  if (status >= 300 && status < 400) return new RedirectError(status, headers.location);
  const requestId = requestIdOf(headers);
  const json = jsonOrUndefined(ans.raw);
  const obj = typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  const fallbackCode = status === 409 ? 'conflict' : `http_${status}`;
  if (!obj) {
    return new ApiError(status, fallbackCode, `HTTP ${status}`, {
      body: ans.raw,
      rateLimit,
      ...(rateLimit.retryAfterS !== undefined ? { retryAfter: rateLimit.retryAfterS } : {}),
      ...(requestId ? { requestId } : {}),
      ...(answer ? { answer } : {}),
    });
  }
  const parsed = ErrorBodySchema.safeParse(obj);
  const b: Record<string, unknown> = parsed.success ? parsed.data : obj;
  const code = str(b.code) ?? fallbackCode;
  const message = str(b.message) ?? str(b.detail) ?? str(b.error) ?? str(b.title) ?? `HTTP ${status}`;
  const details = typeof b.details === 'object' && b.details !== null && !Array.isArray(b.details) ? (b.details as Record<string, unknown>) : undefined;
  const retryAfter = numOr(b.retry_after) ?? rateLimit.retryAfterS;
  const fields = {
    hint: str(b.hint),
    details,
    retryAfter,
    maxDepth: numOr(b.max_depth),
    maxEffort: str(b.max_effort),
    retryable: typeof b.retryable === 'boolean' ? b.retryable : undefined,
    requestId,
    body: obj,
    rateLimit,
    answer,
  };
  // Leave absent fields absent rather than present-and-undefined (callers use `in` and spreads).
  for (const k of Object.keys(fields) as Array<keyof typeof fields>) if (fields[k] === undefined) delete fields[k];
  return new ApiError(status, code, message, fields);
}
