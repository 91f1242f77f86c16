/**
 * From a raw answer to data or a typed error. A 2xx is a success only when its body parses and
 * matches the route's schema; anything else is an unknown outcome (ContractError), never a success.
 */
import type * as z from 'zod/mini';
import { ApiError, ContractError, RedirectError } from './errors.js';
import type { RateLimitInfo } from './ratelimit.js';
import { ErrorBodySchema } from './schemas.js';
import type { RawAnswer } from './transport.js';

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

/** The parsed data of a 2xx, by the schema for its status; throws ContractError otherwise. */
export function parseSuccess<T>(ans: RawAnswer, schemas: Record<number, z.ZodMiniType | 'text/html'>): T {
  const schema = schemas[ans.status];
  if (schema === undefined) throw new ContractError(`unexpected success status ${ans.status}`, ans.status);
  if (schema === 'text/html') return ans.raw as T;
  const json = jsonOrUndefined(ans.raw);
  if (json === undefined) throw new ContractError(`the ${ans.status} response body is not JSON`, ans.status);
  const r = schema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') + ': ' : '';
    throw new ContractError(`the ${ans.status} response does not match the contract (${where}${issue?.message ?? 'invalid'})`, ans.status);
  }
  return r.data as T;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const numOr = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * An error answer as ApiError. Both error forms (api-spec.md "Error body") are read, and leniently:
 * a body missing a required field (docs, say) still gives its code and message rather than being
 * thrown away. A 409 without a code is the payload-mismatch conflict (spec: "409 (conflict)").
 */
export function toApiError(ans: RawAnswer, rateLimit: RateLimitInfo): ApiError | RedirectError {
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
  };
  // Leave absent fields absent rather than present-and-undefined (callers use `in` and spreads).
  for (const k of Object.keys(fields) as Array<keyof typeof fields>) if (fields[k] === undefined) delete fields[k];
  return new ApiError(status, code, message, fields);
}
