/**
 * Every sandbox call in these tests goes through `call()`, which parses the answer with schemas.ts
 * before the test sees it: the success schema routes.ts names for the route and status (plus
 * echoProblems for geolocate), the error schemas otherwise, and RateLimitHeadersSchema on every
 * /api/v1 response. A drift between sandbox and contract fails every test that touches it.
 */
import { expect } from 'vitest';
import { routesForPath } from '../../src/api/routes.js';
import {
  ApiErrorBodySchema, GeolocateRequestSchema, GeolocateResponseSchema, ProblemBodySchema, RateLimitHeadersSchema, echoProblems,
} from '../../src/api/schemas.js';
import { ERROR_CATALOG } from '../../src/sandbox/errors.js';

export interface Call {
  status: number;
  headers: Record<string, string>;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  text: string;
}

export interface CallOptions {
  key?: string;
  /** Use x-api-key instead of Authorization: Bearer. */
  xApiKey?: boolean;
  json?: unknown;
  /** A raw body (sent as is). */
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

export async function call(base: string, method: string, path: string, o: CallOptions = {}): Promise<Call> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.key !== undefined) headers[o.xApiKey ? 'x-api-key' : 'authorization'] = o.xApiKey ? o.key : `Bearer ${o.key}`;
  let body: string | Buffer | undefined = o.raw;
  if (o.json !== undefined) {
    body = JSON.stringify(o.json);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(base + path, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  const h = Object.fromEntries(res.headers);
  const c: Call = { status: res.status, headers: h, text, body: undefined };
  check(c, method, path, o.json);
  return c;
}

function check(c: Call, method: string, path: string, reqJson: unknown): void {
  const pathname = new URL(path, 'http://x').pathname;
  expect(c.headers['x-request-id'], 'X-Request-Id on every response').toMatch(/^req_[0-9a-f]+$/);
  if (pathname.startsWith('/api/v1')) {
    const rl = RateLimitHeadersSchema.safeParse(c.headers);
    expect(rl.success, `rate-limit headers on ${c.status} ${path}: ${rl.error?.message}`).toBe(true);
    expect(c.headers.ratelimit).toMatch(/^"default";r=\d+;t=\d+$/);
    expect(c.headers['ratelimit-policy']).toMatch(/^"default";q=\d+;w=\d+$/);
  }
  const type = c.headers['content-type'] ?? '';
  if (c.status >= 400) {
    c.body = JSON.parse(c.text);
    const schema = type.startsWith('application/problem+json') ? ProblemBodySchema : ApiErrorBodySchema;
    const r = schema.safeParse(c.body);
    expect(r.success, `error body of ${c.status} ${path}: ${r.error?.message}\n${c.text}`).toBe(true);
    expect(c.body.status).toBe(c.status);
    expect(Object.keys(ERROR_CATALOG)).toContain(c.body.code);
    expect(c.body.docs).toMatch(new RegExp(`/api/v1/docs#${c.body.code}$`));
    if (c.status === 429) {
      expect(c.headers['retry-after']).toMatch(/^\d+$/);
      expect(c.body.retry_after).toBeGreaterThan(0);
    }
    return;
  }
  if (type.startsWith('text/html')) return;
  c.body = JSON.parse(c.text);
  if (pathname.startsWith('/__sandbox/')) return;
  const route = routesForPath(pathname).find((r) => r.method === method);
  const schema = route?.responses[c.status];
  expect(schema, `routes.ts names a ${c.status} body for ${method} ${pathname}`).toBeDefined();
  if (!schema || schema === 'text/html') return;
  const r = schema.safeParse(c.body);
  expect(r.success, `${c.status} body of ${method} ${pathname}: ${r.error?.message}\n${c.text.slice(0, 500)}`).toBe(true);
  if (route?.operationId === 'geolocateImage' && c.status === 200) {
    const req = GeolocateRequestSchema.parse(reqJson);
    expect(echoProblems(req, GeolocateResponseSchema.parse(c.body))).toEqual([]);
  }
}

/** POST /api/v1/geolocate. */
export function geolocate(base: string, key: string, json: unknown, headers: Record<string, string> = {}): Promise<Call> {
  return call(base, 'POST', '/api/v1/geolocate', { key, json, headers });
}

/** A call whose connection is expected to break (reset/truncate faults): resolves with the error. */
export async function broken(base: string, path: string, init: RequestInit): Promise<unknown> {
  try {
    const res = await fetch(base + path, init);
    await res.text();
    return undefined;
  } catch (e) {
    return e;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
