/**
 * The "never retried" row, the GET and POST /cases columns of the retry table (src/api/retry.ts),
 * and the shared batch budget.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { ApiError, ContractError, NetworkError, RedirectError } from '../../src/api/errors.js';
import type { RetryInfo } from '../../src/api/retry.js';
import {
  OK_D1, REQ, type Scripted, errBody, fakeClock, freePort, json, makeClient, reset, scriptedServer, text, truncate,
} from './helpers.js';

let server: Scripted | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  server = client = undefined;
});

const CREDITS = { success: true, data: { balance: 10, api_balance: 5, total_available: 15, total_purchased: null, total_used: 3 } };
const CASE = { id: 'case_1', name: 'Harbour', description: '', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' };
const problem = (status: number, extra: Record<string, unknown> = {}) => ({ type: 'about:blank', title: 'Conflict', status, detail: 'key reused with a different payload', ...extra });

describe('retry table: never retried', () => {
  it.each([
    ['400 malformed JSON', 400, { success: false, error: 'bad json', message: 'malformed JSON body' }, 'http_400'],
    ['401 unauthorized', 401, errBody(401, 'unauthorized'), 'unauthorized'],
    ['402 payment_required', 402, errBody(402, 'payment_required'), 'payment_required'],
    ['402 prepaid_credits_exhausted', 402, errBody(402, 'prepaid_credits_exhausted'), 'prepaid_credits_exhausted'],
    ['403 forbidden', 403, errBody(403, 'forbidden'), 'forbidden'],
    ['403 depth_not_permitted', 403, errBody(403, 'depth_not_permitted', { max_depth: 1 }), 'depth_not_permitted'],
    ['404 not_found', 404, errBody(404, 'not_found'), 'not_found'],
    ['405 method_not_allowed', 405, errBody(405, 'method_not_allowed'), 'method_not_allowed'],
    ['409 payload mismatch (no code)', 409, problem(409), 'conflict'],
    ['422 content_blocked', 422, errBody(422, 'content_blocked'), 'content_blocked'],
    ['422 invalid_request', 422, errBody(422, 'invalid_request'), 'invalid_request'],
  ])('retry: %s is never retried: sent exactly once', async (_label, status, body, code) => {
    server = await scriptedServer([json(status, body), json(200, OK_D1)]);
    const clock = fakeClock();
    client = makeClient(server.url, clock);
    const err = await client.geolocate(REQ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(status);
    expect((err as ApiError).code).toBe(code);
    expect(server.seen).toHaveLength(1);
    expect(clock.delays).toEqual([]);
  });

  it('retry: a 302 redirect is never followed or resent; the other origin receives nothing', async () => {
    const other = await scriptedServer([json(200, OK_D1)]);
    try {
      server = await scriptedServer([(res) => { res.writeHead(302, { location: `${other.url}/api/v1/geolocate` }); res.end(); }]);
      client = makeClient(server.url, fakeClock());
      const err = await client.geolocate(REQ).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RedirectError);
      expect((err as RedirectError).location).toBe(`${other.url}/api/v1/geolocate`);
      expect(server.seen).toHaveLength(1);
      expect(other.seen).toHaveLength(0);
      const err2 = await client.credits().catch((e: unknown) => e);
      expect(err2).toBeInstanceOf(RedirectError);
      expect(other.seen).toHaveLength(0);
    } finally {
      await other.close();
    }
  });
});

describe('retry table: GET endpoints (idempotent)', () => {
  it('retry: GET retries 503 and succeeds', async () => {
    server = await scriptedServer([json(503, errBody(503, 'unavailable')), json(503, errBody(503, 'unavailable')), json(200, CREDITS)]);
    client = makeClient(server.url, fakeClock());
    const res = await client.credits();
    expect(res.attempts).toBe(3);
    expect(res.data.data.balance).toBe(10);
    expect(server.seen.map((s) => s.method)).toEqual(['GET', 'GET', 'GET']);
    expect(server.seen[0]!.headers['idempotency-key']).toBeUndefined();
  });

  it('retry: GET retries 429 and a connection reset', async () => {
    server = await scriptedServer([json(429, errBody(429, 'rate_limited'), { 'retry-after': '3' }), reset, json(200, CREDITS)]);
    const clock = fakeClock();
    client = makeClient(server.url, clock);
    const res = await client.credits();
    expect(res.attempts).toBe(3);
    expect(clock.delays[0]).toBe(3000);
  });

  it('retry: GET retries a truncated body', async () => {
    server = await scriptedServer([truncate(200, CREDITS), json(200, CREDITS)]);
    client = makeClient(server.url, fakeClock());
    expect((await client.credits()).attempts).toBe(2);
  });
});

describe('retry table: POST /cases (unsafe: no key)', () => {
  it('retry: POST /cases is not retried on 500', async () => {
    server = await scriptedServer([json(500, errBody(500, 'server_error')), json(200, CASE)]);
    client = makeClient(server.url, fakeClock());
    const err = await client.createCase({ name: 'Harbour' }).catch((e: unknown) => e);
    expect((err as ApiError).status).toBe(500);
    expect(server.seen).toHaveLength(1);
  });

  it('retry: POST /cases is not retried on a reset, a truncated body or an unreadable body', async () => {
    for (const step of [reset, truncate(200, CASE), text(200, '<html>created?</html>')]) {
      server = await scriptedServer([step, json(200, CASE)]);
      client = makeClient(server.url, fakeClock());
      const err = await client.createCase({ name: 'Harbour' }).catch((e: unknown) => e);
      expect(err instanceof NetworkError || err instanceof ContractError).toBe(true);
      if (err instanceof NetworkError) expect(err.mayHaveRun).toBe(true);
      expect(server.seen).toHaveLength(1);
      await client.close();
      await server.close();
    }
    server = client = undefined;
  });

  it('retry: a POST /cases answer off the contract is kept, with its deviations, and never resent', async () => {
    server = await scriptedServer([json(201, { success: true, data: { ...CASE, description: null } }), json(200, CASE)]);
    client = makeClient(server.url, fakeClock());
    const res = await client.createCase({ name: 'Harbour' });
    expect(res.data).toMatchObject({ id: 'case_1', description: null });
    expect(res.deviations).toEqual(['body: the case is wrapped in {success, data}', 'status: 201 where the spec answers 200', 'description: Invalid input: expected string, received null (got null)']);
    expect(server.seen).toHaveLength(1);
  });

  it('retry: POST /cases is retried on 429', async () => {
    server = await scriptedServer([json(429, errBody(429, 'rate_limited', { retry_after: 2 })), json(200, CASE)]);
    const clock = fakeClock();
    client = makeClient(server.url, clock);
    const res = await client.createCase({ name: 'Harbour' });
    expect(res.data.id).toBe('case_1');
    expect(clock.delays).toEqual([2000]);
    expect(server.seen).toHaveLength(2);
  });

  it('retry: POST /cases is retried on ECONNREFUSED (nothing reached the server)', async () => {
    const port = await freePort();
    const clock = fakeClock();
    clock.onSleep = async (_ms, i) => {
      if (i === 1) server = await scriptedServer([json(200, CASE)], port);
    };
    client = makeClient(`http://127.0.0.1:${port}`, clock);
    const res = await client.createCase({ name: 'Harbour', teamId: 't1' });
    expect(res.attempts).toBe(3);
    expect(server!.seen).toHaveLength(1);
    expect(JSON.parse(server!.seen[0]!.body.toString())).toEqual({ name: 'Harbour', teamId: 't1' });
  });
});

describe('retry: shared budget and hook', () => {
  it('retry: a shared RetryBudget caps retries across requests; onRetry reports each', async () => {
    server = await scriptedServer([json(502, errBody(502, 'analysis_failed'))]);
    client = makeClient(server.url, fakeClock());
    const budget = { remaining: 2 };
    const infos: RetryInfo[] = [];
    const onRetry = (i: RetryInfo) => infos.push(i);
    await expect(client.geolocate(REQ, { retryBudget: budget, onRetry })).rejects.toBeInstanceOf(ApiError);
    await expect(client.geolocate(REQ, { retryBudget: budget, onRetry })).rejects.toBeInstanceOf(ApiError);
    expect(server.seen).toHaveLength(4); // 1 + 2 retries, then 1 with the budget spent
    expect(budget.remaining).toBe(0);
    expect(infos).toEqual([
      { attempt: 1, delayMs: 500, reason: 'unavailable', status: 502 },
      { attempt: 2, delayMs: 1000, reason: 'unavailable', status: 502 },
    ]);
  });
});
