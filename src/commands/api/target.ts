/**
 * Where a `geo api` request goes and how it may be retried. The key is the profile's and goes
 * only to the configured origin (client.ts): so the path is always under the base URL, an
 * absolute URL to anywhere else is refused before anything is sent, and no -H may carry a key.
 */
import { API_PREFIX, routeList, routes } from '../../api/routes.js';
import type { RetryClass } from '../../api/retry.js';
import { UsageError } from '../../errors.js';

const ORIGIN_HINT = 'the key never leaves its origin: give the path alone (geo api /api/v1/credits), or --base-url / --profile to talk to another service';

/**
 * The path and query under the base URL, starting with "/". A path starting with "/" is taken as
 * written (`/api/v1/credits`, `/__sandbox/ledger`), and so is `api/…`; any other is short for a
 * path under /api/v1 (`credits` is /api/v1/credits). An absolute URL is accepted only on the base
 * URL's own origin and path.
 */
export function resolvePath(input: string, baseUrl: string): string {
  const base = new URL(baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  let path: string;
  if (/^[a-z][a-z0-9+.-]*:/i.test(input)) {
    let u: URL;
    try {
      u = new URL(input);
    } catch {
      throw new UsageError(`"${input}" is not a valid URL`, ORIGIN_HINT);
    }
    const inside = u.pathname === basePath || u.pathname.startsWith(`${basePath}/`);
    if (u.origin !== base.origin || u.username || u.password || !inside) {
      throw new UsageError(`refusing to send the request to ${u.origin}${u.pathname}: geo api sends only to the base URL ${baseUrl}`, ORIGIN_HINT);
    }
    path = u.pathname.slice(basePath.length) + u.search;
  } else {
    if (input.startsWith('//')) throw new UsageError(`"${input}" names another host`, ORIGIN_HINT);
    if (input === '' || input === '/') throw new UsageError('geo api needs a path', 'for example geo api /api/v1/credits');
    path = input.startsWith('/') ? input : input === 'api' || input.startsWith('api/') ? `/${input}` : `${API_PREFIX}/${input}`;
  }
  if (path.includes('#')) throw new UsageError(`the path "${input}" carries a #fragment, which is never sent`, 'drop the #… part');
  // The URL the client will build, normalized (.., %2e, \): it must stay under the base URL, and
  // policyFor() must see the path the server will see.
  const u = new URL(baseUrl + path);
  if (u.origin !== base.origin || !(u.pathname === basePath || u.pathname.startsWith(`${basePath}/`))) {
    throw new UsageError(`the path "${input}" leaves the base URL ${baseUrl}`, ORIGIN_HINT);
  }
  return u.pathname.slice(basePath.length) + u.search;
}

/** Headers geo sets itself: the key (never on argv), and what undici computes from the body. */
const KEY_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-api-key']);
const OWN_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `-H 'Name: value'` lines as lower-case names (a repeated name keeps its last value). */
export function parseHeaders(lines: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    const name = at > 0 ? line.slice(0, at).trim().toLowerCase() : '';
    const value = at > 0 ? line.slice(at + 1).trim() : '';
    if (!TOKEN.test(name)) throw new UsageError(`-H takes "Name: value", got "${line}"`, "for example -H 'Accept: application/problem+json'");
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value)) throw new UsageError(`the value of -H ${name} holds a control character`, 'header values are one line of text');
    if (KEY_HEADERS.has(name)) {
      throw new UsageError(`geo api sends the key of the profile itself; -H ${name} is refused (a key on the command line ends up in shell history and the process list)`, 'choose the key with --profile, GEO_API_KEY or `geo keys add`');
    }
    if (OWN_HEADERS.has(name)) throw new UsageError(`-H ${name} is set by geo from the request`, `drop -H ${name}`);
    out[name] = value;
  }
  return out;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** True for a POST that reaches geolocate, however the path is spelled (a trailing /, case). */
export function isGeolocate(method: string, path: string): boolean {
  const p = path.replace(/\?.*$/, '').replace(/\/+$/, '').toLowerCase();
  return method === 'POST' && p === routes.geolocate.path.toLowerCase();
}

/**
 * The retry class and whether the key is sent. A route of the spec keeps its own (routes.ts: POST
 * /geolocate is keyed, POST /cases unsafe, GET /docs needs no key); a geolocate POST is keyed in
 * any spelling; any other path is read-only (idempotent) for GET, HEAD and OPTIONS and unsafe
 * otherwise: retried only when nothing reached the server or it said 429 (retry.ts).
 */
export function policyFor(method: string, path: string): { retry: RetryClass; auth: boolean } {
  if (isGeolocate(method, path)) return { retry: 'keyed', auth: true };
  const bare = path.replace(/\?.*$/, '');
  const route = routeList.find((r) => r.method === method && r.path === bare);
  if (route) return { retry: route.retry, auth: route.auth };
  return { retry: SAFE_METHODS.has(method) ? 'idempotent' : 'unsafe', auth: true };
}
