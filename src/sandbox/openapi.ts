/**
 * OpenAPI 3.1 generated from routes.ts and the zod schemas (z.toJSONSchema emits JSON Schema
 * 2020-12, which OpenAPI 3.1 uses as is). Nothing here is written by hand but the prose, so the
 * published contract cannot drift from what the client and the sandbox check.
 */
import * as z from 'zod/mini';
import { type Route, routeList } from '../api/routes.js';
import { ApiErrorBodySchema, LIMITS, ProblemBodySchema, RATE_LIMIT_HEADERS } from '../api/schemas.js';
import { ERROR_CATALOG } from './errors.js';

type Json = Record<string, unknown>;

function schema(s: z.ZodMiniType, io: 'input' | 'output'): Json {
  const out = z.toJSONSchema(s, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  delete out.$schema;
  return out;
}

/** Error codes by status, from the one catalog. */
export function codesByStatus(): Map<number, string[]> {
  const m = new Map<number, string[]>();
  for (const [code, e] of Object.entries(ERROR_CATALOG)) m.set(e.status, [...(m.get(e.status) ?? []), code]);
  return m;
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK', 202: 'Accepted (async; body defined by the sandbox, not shown by the spec)', 400: 'Malformed JSON body', 401: 'Unauthorized',
  402: 'Payment required', 403: 'Forbidden', 404: 'Not found', 405: 'Method not allowed', 409: 'Conflict', 422: 'Unprocessable request',
  429: 'Rate limited', 500: 'Server error', 502: 'Analysis failed', 503: 'Unavailable', 504: 'Analysis timed out',
};

function rateHeaders(): Json {
  const h: Json = {};
  for (const name of RATE_LIMIT_HEADERS) h[name] = { $ref: `#/components/headers/${name}` };
  return h;
}

function operation(r: Route): Json {
  const codes = codesByStatus();
  const responses: Json = {};
  for (const status of r.statuses) {
    const ok = r.responses[status];
    let content: Json;
    if (ok === 'text/html') content = { 'text/html': { schema: { type: 'string' } } };
    else if (ok) content = { 'application/json': { schema: schema(ok, 'output') } };
    else content = { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } }, 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };
    const errCodes = ok ? [] : (codes.get(status) ?? []);
    responses[String(status)] = {
      description: `${STATUS_TEXT[status] ?? ''}${errCodes.length ? ` (codes: ${errCodes.join(', ')})` : ''}`,
      headers: { ...rateHeaders(), ...(status === 429 ? { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' } } : {}) },
      content,
    };
  }
  const parameters: Json[] = [];
  if (r.query) {
    const q = schema(r.query, 'input') as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, s] of Object.entries(q.properties ?? {})) parameters.push({ name, in: 'query', required: (q.required ?? []).includes(name), schema: s });
  }
  if (r.operationId === 'geolocateImage') {
    parameters.push({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: LIMITS.idempotencyKeyMaxChars } });
    parameters.push({ name: 'Sandbox-Fault', in: 'header', required: false, description: 'Sandbox only: 429, 500, 502, 503, 504, reset-before, reset-after, truncate, stall:<ms>.', schema: { type: 'string' } });
  }
  return {
    operationId: r.operationId,
    tags: [r.tag],
    summary: r.summary,
    security: r.auth ? [{ bearer: [] }, { apiKey: [] }] : [],
    ...(parameters.length ? { parameters } : {}),
    ...(r.body ? { requestBody: { required: true, content: { 'application/json': { schema: schema(r.body, 'input') } } } } : {}),
    responses,
  };
}

export function openApiDocument(base: string): Json {
  const paths: Record<string, Json> = {};
  for (const r of routeList) paths[r.path] = { ...paths[r.path], [r.method.toLowerCase()]: operation(r) };
  const headers: Json = {};
  for (const name of RATE_LIMIT_HEADERS) headers[name] = { schema: { type: 'string' }, description: name.endsWith('reset') ? 'UNIX timestamp (s)' : 'Rate-limit state' };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Visual Geolocation API (geo sandbox)',
      version: '1.0.0',
      description: 'Generated from the zod schemas and route table of geo. Served by the local sandbox; codes the spec leaves unshown (malformed_json, idempotency_key_reused, service_unavailable) and the 202 async body are the sandbox\'s choices.',
    },
    servers: [{ url: base }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
      schemas: { ApiError: schema(ApiErrorBodySchema, 'output'), Problem: schema(ProblemBodySchema, 'output') },
      headers,
    },
  };
}
