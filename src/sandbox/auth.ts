/**
 * Authentication and rate limiting (api-spec.md "Authentication", "Limits"). Both credential
 * headers work on every endpoint. Requests without a valid key (401s, the public docs) count
 * against a per-address anonymous bucket so they carry honest rate-limit headers too.
 */
import type { IncomingMessage } from 'node:http';
import { type Exchange, sendError } from './http.js';
import { type RateInfo, rateHeaders } from './ratelimit.js';
import type { SandboxRuntime } from './runtime.js';
import { TIER_RATE } from './state.js';

/** Quota of the anonymous bucket (no key: docs, 401s); the spec is silent. */
export const ANON_RATE = 60;

/** Authorization: Bearer <key> first, then x-api-key. */
export function extractKey(req: IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  const m = auth ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null;
  if (m) return m[1];
  const x = req.headers['x-api-key'];
  return typeof x === 'string' && x.trim() !== '' ? x.trim() : undefined;
}

function bucketFor(ex: Exchange, rt: SandboxRuntime): { bucket: string; quota: number } {
  if (ex.account) return { bucket: `key:${ex.key}`, quota: rt.rateLimit ?? TIER_RATE[ex.account.tier] };
  return { bucket: `anon:${ex.req.socket.remoteAddress ?? '?'}`, quota: rt.rateLimit ?? ANON_RATE };
}

function apply(ex: Exchange, rt: SandboxRuntime, info: RateInfo): void {
  ex.rate = info;
  ex.rateHeaders = rateHeaders(info, rt.limiter.secondsToReset(info));
}

/** Headers only, nothing counted: for 404/405 answered before authentication. */
export function peekRate(ex: Exchange, rt: SandboxRuntime): void {
  const acct = rt.state.account(extractKey(ex.req));
  if (acct) Object.assign(ex, { key: extractKey(ex.req), account: acct });
  const { bucket, quota } = bucketFor(ex, rt);
  apply(ex, rt, rt.limiter.take(bucket, quota, false));
}

/** Counts the request; answers 429 and returns false when the window is spent. */
export function takeRate(ex: Exchange, rt: SandboxRuntime): boolean {
  const { bucket, quota } = bucketFor(ex, rt);
  const info = rt.limiter.take(bucket, quota);
  apply(ex, rt, info);
  if (!info.exceeded) return true;
  const retry = rt.limiter.secondsToReset(info);
  sendError(ex, 'rate_limited', `rate limit of ${info.limit} requests per ${info.windowS} s exceeded; retry after ${retry} s`, { retry_after: retry });
  return false;
}

/** Auth then rate limit; false when an answer (401 or 429) was sent. */
export function authenticate(ex: Exchange, rt: SandboxRuntime, required: boolean): boolean {
  const key = extractKey(ex.req);
  const acct = rt.state.account(key);
  if (acct) Object.assign(ex, { key, account: acct });
  if (!takeRate(ex, rt)) return false;
  if (required && !acct) {
    sendError(ex, 'unauthorized', key === undefined ? 'no API key: send Authorization: Bearer <key> or x-api-key' : 'the API key is not valid');
    return false;
  }
  if (acct) acct.requests++;
  return true;
}

/** The injected 429: as a real one, with Retry-After and retry_after. */
export function injected429(ex: Exchange): void {
  if (ex.rate) ex.rate = { ...ex.rate, remaining: 0, exceeded: true };
  const retry = 1;
  sendError(ex, 'rate_limited', 'injected fault 429: rate limited', { retry_after: retry }, { 'Retry-After': String(retry) });
}
