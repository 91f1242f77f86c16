/**
 * One test per row of the retry table in src/api/retry.ts, for POST /geolocate (the keyed class):
 * every retried attempt carries the same Idempotency-Key and the same body bytes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { ApiError, ContractError, NetworkError, TimeoutError } from '../../src/api/errors.js';
import {
  OK_D1, REQ, type Scripted, errBody, fakeClock, freePort, hang, json, makeClient, reset, sameKeyAndBytes, scriptedServer, text, truncate,
} from './helpers.js';

let server: Scripted | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  server = client = undefined;
});

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function expectOneKeyAndBody(s: Scripted, attempts: number): void {
  expect(s.seen).toHaveLength(attempts);
  const { keys, bodies } = sameKeyAndBytes(s.seen);
  expect(keys.size).toBe(1);
  expect([...keys][0]).toMatch(UUID_V4);
  expect(bodies.size).toBe(1);
  expect(JSON.parse(s.seen[0]!.body.toString())).toEqual(REQ);
}

async function statusRow(status: number, code: string, retries: number) {
  const clock = fakeClock();
  server = await scriptedServer([json(status, errBody(status, code))]);
  client = makeClient(server.url, clock);
  const err = await client.geolocate(REQ).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  expect((err as ApiError).status).toBe(status);
  expectOneKeyAndBody(server, retries + 1);
  // Full jitter with random() = 0.5: half of base * 2^(n-1).
  expect(clock.delays).toEqual([500, 1000, 2000].slice(0, retries));
}

describe('retry table: POST /geolocate', () => {
  it('retry: connection refused is retried with the same Idempotency-Key (nothing reached the server)', async () => {
    const port = await freePort();
    const clock = fakeClock();
    // The server comes up during the first backoff: attempt 1 is refused, attempt 2 lands.
    clock.onSleep = async (_ms, i) => {
      if (i === 0) server = await scriptedServer([json(200, OK_D1)], port);
    };
    client = makeClient(`http://127.0.0.1:${port}`, clock);
    const res = await client.geolocate(REQ, { idempotencyKey: 'key-refused-1' });
    expect(res.attempts).toBe(2);
    expect(server!.seen).toHaveLength(1);
    expect(server!.seen[0]!.headers['idempotency-key']).toBe('key-refused-1');
  });

  it('retry: connection refused gives up after 3 retries with NetworkError(mayHaveRun=false)', async () => {
    const clock = fakeClock();
    client = makeClient(`http://127.0.0.1:${await freePort()}`, clock);
    const err = await client.geolocate(REQ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).mayHaveRun).toBe(false);
    expect((err as NetworkError).causeCode).toBe('ECONNREFUSED');
    expect(clock.delays).toHaveLength(3);
  });

  it('retry: connection reset is retried with the same Idempotency-Key and body bytes', async () => {
    server = await scriptedServer([reset, reset, json(200, OK_D1)]);
    client = makeClient(server.url, fakeClock());
    const res = await client.geolocate(REQ);
    expect(res.attempts).toBe(3);
    expectOneKeyAndBody(server, 3);
    expect(res.idempotencyKey).toBe(server.seen[0]!.headers['idempotency-key']);
  });

  it('retry: a reset on every attempt ends in NetworkError(mayHaveRun=true) after 3 retries', async () => {
    server = await scriptedServer([reset]);
    client = makeClient(server.url, fakeClock());
    const err = await client.geolocate(REQ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).mayHaveRun).toBe(true);
    expectOneKeyAndBody(server, 4);
  });

  it('retry: a per-attempt timeout is retried up to 2 times with the same Idempotency-Key', async () => {
    server = await scriptedServer([hang]);
    client = makeClient(server.url, fakeClock(), { timeoutMs: 150 });
    const err = await client.geolocate(REQ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expectOneKeyAndBody(server, 3);
  });

  it('retry: a truncated body is retried with the same Idempotency-Key', async () => {
    server = await scriptedServer([truncate(200, OK_D1), json(200, OK_D1, { 'idempotent-replayed': 'true' })]);
    client = makeClient(server.url, fakeClock());
    const res = await client.geolocate(REQ);
    expect(res.attempts).toBe(2);
    expect(res.replayed).toBe(true);
    expectOneKeyAndBody(server, 2);
  });

  it('retry: a 2xx body that is not JSON is an unknown outcome, retried up to 2 times with the same key', async () => {
    server = await scriptedServer([text(200, '<html>oops</html>')]);
    client = makeClient(server.url, fakeClock());
    const err = await client.geolocate(REQ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContractError);
    expect((err as ContractError).status).toBe(200);
    expectOneKeyAndBody(server, 3);
  });

  it('never: a 2xx JSON body off the contract is returned with its deviations, not retried (a replay would carry the same body)', async () => {
    const { confidence: _c, ...broken } = OK_D1;
    server = await scriptedServer([json(200, { ...broken, timing_ms: -1 }), json(200, OK_D1, { 'idempotent-replayed': 'true' })]);
    client = makeClient(server.url, fakeClock());
    const res = await client.geolocate(REQ);
    expect(res.data).not.toHaveProperty('confidence');
    expect(res.deviations).toEqual(['confidence: missing', 'timing_ms: Too small: expected number to be >=0 (got -1)']);
    expect(res.replayed).toBe(false);
    expectOneKeyAndBody(server, 1);
  });

  it('retry: 500 is retried up to 2 times with the same Idempotency-Key', () => statusRow(500, 'server_error', 2));
  it('retry: 502 is retried up to 3 times with the same Idempotency-Key', () => statusRow(502, 'analysis_failed', 3));
  it('retry: 503 is retried up to 3 times with the same Idempotency-Key', () => statusRow(503, 'unavailable', 3));
  it('retry: 504 is retried up to 2 times with the same Idempotency-Key', () => statusRow(504, 'analysis_timeout', 2));

  it('retry: 429 is retried up to 4 times with the same Idempotency-Key', async () => {
    server = await scriptedServer([json(429, errBody(429, 'rate_limited'))]);
    const clock = fakeClock();
    client = makeClient(server.url, clock);
    const err = await client.geolocate(REQ).catch((e: unknown) => e);
    expect((err as ApiError).code).toBe('rate_limited');
    expectOneKeyAndBody(server, 5);
    expect(clock.delays).toEqual([500, 1000, 2000, 4000]); // no hint: backoff
  });

  it('retry: a 429 with Retry-After waits the server\'s time and resends with the same key and bytes (test/api/retry-429.test.ts: every rule)', async () => {
    server = await scriptedServer([json(429, errBody(429, 'rate_limited', { retry_after: 3 }), { 'retry-after': '7', ratelimit: '"default";r=0;t=5' }), json(200, OK_D1)]);
    const clock = fakeClock();
    client = makeClient(server.url, clock);
    const res = await client.geolocate(REQ);
    expect(clock.delays).toEqual([7000]);
    expect(res.attempts).toBe(2);
    expectOneKeyAndBody(server, 2);
  });

  it('retry: 409 idempotency_in_progress polls with backoff until success, same key', async () => {
    const busy = json(409, errBody(409, 'idempotency_in_progress'));
    server = await scriptedServer([busy, busy, busy, busy, busy, json(200, OK_D1, { 'idempotent-replayed': 'true' })]);
    const clock = fakeClock();
    client = makeClient(server.url, clock);
    const res = await client.geolocate(REQ);
    expect(res.attempts).toBe(6);
    expect(res.replayed).toBe(true);
    expect(clock.delays).toEqual([500, 1000, 2000, 4000, 8000]);
    expectOneKeyAndBody(server, 6);
  });

  it("retry: 409 idempotency_in_progress stops polling at the request's deadline", async () => {
    server = await scriptedServer([json(409, errBody(409, 'idempotency_in_progress'))]);
    const clock = fakeClock();
    const start = clock.now();
    client = makeClient(server.url, clock, { retry: { deadlineMs: 30_000 } });
    const err = await client.geolocate(REQ).catch((e: unknown) => e);
    expect((err as ApiError).code).toBe('idempotency_in_progress');
    expect(clock.now() - start).toBeLessThanOrEqual(30_000);
    // 0.5+1+2+4+8+10 = 25.5 s of polls; the next wait (10 s) would end after the 30 s deadline.
    expect(clock.delays).toEqual([500, 1000, 2000, 4000, 8000, 10000]);
    expect(server.seen.length).toBe(7);
  });
});
