/** Small helpers of client.ts: base URL rule, debug formatting, local checks. */
import { BaseUrlError, RequestValidationError } from './errors.js';
import { SECRET_MASK } from './mask.js';
import { type GeolocateRequest, LIMITS, isLoopbackHost } from './schemas.js';

/** https, or plain http for loopback only (DESIGN.md; the key must not cross a network in clear). */
export function normalizeBaseUrl(input: string): string {
  let u: URL;
  try {
    u = new URL(input);
  } catch {
    throw new BaseUrlError('the base URL is not a valid URL');
  }
  if (u.username || u.password) throw new BaseUrlError('the base URL must not carry credentials');
  if (u.search || u.hash) throw new BaseUrlError('the base URL must not carry a query or fragment');
  if (u.protocol === 'http:' && !isLoopbackHost(u.hostname)) throw new BaseUrlError(`plain http is allowed only for loopback hosts, not ${u.hostname}; use https://`);
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new BaseUrlError(`the base URL must use https, not ${u.protocol.replace(':', '')}`);
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
}

export const RESPONSE_HEADERS = ['content-type', 'content-length', 'x-request-id', 'request-id', 'idempotent-replayed', 'retry-after', 'ratelimit', 'ratelimit-policy'];

export function showHeaders(h: Record<string, string>, auth: boolean, names?: string[]): string {
  const keys = names ?? Object.keys(h);
  const parts = keys.filter((k) => h[k] !== undefined).map((k) => `${k}: ${h[k]}`);
  if (auth) parts.push(`authorization: Bearer ${SECRET_MASK}`);
  return parts.join(' | ');
}

export function withoutImage(req: GeolocateRequest): Record<string, unknown> {
  const { image_b64: _drop, ...rest } = req;
  return rest;
}

export function checkLimit(limit: number | undefined): void {
  if (limit === undefined) return;
  const { min, max } = LIMITS.listLimit;
  if (!Number.isInteger(limit) || limit < min || limit > max) throw new RequestValidationError('invalid_request', `limit must be an integer from ${min} to ${max}`, undefined, 'limit');
}
