/** ApiClient: base URL rule, auth header, validation before sending, streaming, caps, error mapping, debug. */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, imageFromBuffer } from '../../src/api/client.js';
import { ApiError, BaseUrlError, ContractError, RequestValidationError } from '../../src/api/errors.js';
import { KEY, OK_D1, REQ, type Scripted, errBody, fakeClock, json, makeClient, scriptedServer, truncate } from './helpers.js';

let server: Scripted | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  server = client = undefined;
});

describe('base URL', () => {
  it('refuses plain http to a non-loopback host before any socket, and malformed URLs', () => {
    for (const bad of ['http://example.com', 'http://10.0.0.5:4010', 'ftp://example.com', 'not a url', 'https://u:p@example.com', 'https://example.com/?a=1']) {
      expect(() => new ApiClient({ baseUrl: bad, apiKey: KEY }), bad).toThrow(BaseUrlError);
    }
    try {
      new ApiClient({ baseUrl: 'http://example.com', apiKey: KEY });
    } catch (e) {
      expect(String((e as Error).message)).not.toContain(KEY);
    }
  });

  it('accepts https anywhere and http on loopback; keeps a path prefix without trailing slash', () => {
    expect(new ApiClient({ baseUrl: 'https://oceanir.ai/', apiKey: KEY }).baseUrl).toBe('https://oceanir.ai');
    expect(new ApiClient({ baseUrl: 'https://gw.example/geo/', apiKey: KEY }).baseUrl).toBe('https://gw.example/geo');
    for (const ok of ['http://127.0.0.1:4010', 'http://localhost:4010', 'http://[::1]:4010']) {
      expect(() => new ApiClient({ baseUrl: ok, apiKey: KEY })).not.toThrow();
    }
  });
});

describe('requests', () => {
  it('sends the key only as Authorization: Bearer, and the debug log never shows it', async () => {
    server = await scriptedServer([json(200, OK_D1, { 'x-request-id': 'req_9' })]);
    const lines: string[] = [];
    client = makeClient(server.url, fakeClock(), { debug: (l) => lines.push(l), userAgent: 'geo-cli/test' });
    const res = await client.geolocate(REQ);
    const h = server.seen[0]!.headers;
    expect(h.authorization).toBe(`Bearer ${KEY}`);
    expect(h['x-api-key']).toBeUndefined();
    expect(h['content-type']).toBe('application/json');
    expect(h['user-agent']).toBe('geo-cli/test');
    expect(res.requestId).toBe('req_9');
    expect(res.raw).toBe(JSON.stringify(OK_D1));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.join('\n')).not.toContain(KEY);
    expect(lines.join('\n')).toContain('authorization: Bearer [REDACTED]');
    expect(lines.some((l) => l.startsWith('< 200 POST'))).toBe(true);
  });

  it('GET /docs is sent without the key and returns the HTML as is', async () => {
    server = await scriptedServer([(res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<h1>docs</h1>'); }]);
    client = makeClient(server.url, fakeClock());
    const res = await client.docs();
    expect(res.data).toBe('<h1>docs</h1>');
    expect(server.seen[0]!.headers.authorization).toBeUndefined();
  });

  it('problemJson asks for application/problem+json first', async () => {
    server = await scriptedServer([json(200, { success: true, data: {} })]);
    client = makeClient(server.url, fakeClock(), { problemJson: true });
    await client.usage();
    expect(server.seen[0]!.headers.accept).toBe('application/problem+json, application/json');
  });

  it('passes list queries and checks limit before sending', async () => {
    server = await scriptedServer([json(200, { success: true, data: [{ id: 'x', extra: 1 }] })]);
    client = makeClient(server.url, fakeClock());
    const res = await client.analyses({ q: 'eiffel tower', city: 'paris', limit: 5 });
    expect(server.seen[0]!.url).toBe('/api/v1/analyses?q=eiffel+tower&city=paris&limit=5');
    expect(res.data.data[0]).toEqual({ id: 'x', extra: 1 });
    await expect(client.listCases({ limit: 201 })).rejects.toBeInstanceOf(RequestValidationError);
    expect(server.seen).toHaveLength(1);
  });

  it('streams a base64 image source with an exact Content-Length, identical bytes on every attempt', async () => {
    server = await scriptedServer([json(503, errBody(503, 'unavailable')), json(200, OK_D1)]);
    client = makeClient(server.url, fakeClock());
    const b64 = Buffer.from('not really a jpeg but bytes '.repeat(500)).toString('base64');
    await client.geolocate({ depth: 1, scope: { name: 'Paris', lat: 48.85, lng: 2.35 } }, { image: imageFromBuffer(b64, 1000) });
    expect(server.seen).toHaveLength(2);
    for (const s of server.seen) {
      expect(Number(s.headers['content-length'])).toBe(s.body.length);
      expect(JSON.parse(s.body.toString())).toEqual({ image_b64: b64, depth: 1, scope: { name: 'Paris', lat: 48.85, lng: 2.35 } });
    }
    expect(server.seen[0]!.body.equals(server.seen[1]!.body)).toBe(true);
  });
});

describe('client-side validation sends nothing', () => {
  it('effort above the depth gives effort_exceeds_depth with max_effort', async () => {
    server = await scriptedServer([json(200, OK_D1)]);
    client = makeClient(server.url, fakeClock());
    const err = await client.geolocate({ ...REQ, depth: 1, effort: 'high' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as RequestValidationError).code).toBe('effort_exceeds_depth');
    expect((err as RequestValidationError).maxEffort).toBe('low');
    expect(server.seen).toHaveLength(0);
  });

  it('an Idempotency-Key of 257 characters is refused; 256 is sent', async () => {
    server = await scriptedServer([json(200, OK_D1)]);
    client = makeClient(server.url, fakeClock());
    await expect(client.geolocate(REQ, { idempotencyKey: 'k'.repeat(257) })).rejects.toBeInstanceOf(RequestValidationError);
    expect(server.seen).toHaveLength(0);
    await client.geolocate(REQ, { idempotencyKey: 'k'.repeat(256) });
    expect(server.seen[0]!.headers['idempotency-key']).toBe('k'.repeat(256));
  });

  it('a streamed image above 20 MB, a data: prefix, or a missing image are refused', async () => {
    server = await scriptedServer([json(200, OK_D1)]);
    client = makeClient(server.url, fakeClock());
    const huge = { length: 20_000_001, stream: () => { throw new Error('must not be read'); } };
    const cases: Array<[Promise<unknown>, string]> = [
      [client.geolocate({ depth: 1 }, { image: huge }), 'invalid_image_b64'],
      [client.geolocate({ image_b64: 'data:image/jpeg;base64,AAAA' }), 'invalid_image_b64'],
      [client.geolocate({ depth: 2 }), 'invalid_request'],
      [client.geolocate({ ...REQ, scope: { name: 'X', lat: 1, lng: 2, captured_at: '2025-02-29' } }), 'invalid_scope'],
    ];
    for (const [p, code] of cases) expect(((await p.catch((e: unknown) => e)) as RequestValidationError).code).toBe(code);
    await expect(client.createCase({ name: '  ' })).rejects.toBeInstanceOf(RequestValidationError);
    expect(server.seen).toHaveLength(0);
  });
});

describe('responses', () => {
  it('surfaces Idempotent-Replayed and the rate-limit headers', async () => {
    server = await scriptedServer([json(200, OK_D1, { 'idempotent-replayed': 'true', ratelimit: '"default";r=29;t=42', 'ratelimit-policy': '"default";q=30;w=60' })]);
    const clock = fakeClock();
    client = makeClient(server.url, clock);
    const res = await client.geolocate(REQ, { idempotencyKey: 'abc' });
    expect(res).toMatchObject({ replayed: true, idempotencyKey: 'abc', attempts: 1, status: 200 });
    expect(res.rateLimit).toEqual({ limit: 30, remaining: 29, resetAt: clock.now() + 42_000, windowS: 60 });
  });

  it('a 202 async answer parses with the async schema', async () => {
    server = await scriptedServer([json(202, { success: true, status: 'queued', job_id: 'job_1', analysis_id: null })]);
    client = makeClient(server.url, fakeClock());
    const res = await client.geolocate({ ...REQ, async: true });
    expect(res.status).toBe(202);
    expect(res.data).toMatchObject({ job_id: 'job_1' });
  });

  it('a response above maxResponseBytes is an unknown outcome, not retried', async () => {
    const big = { ...OK_D1, reasoning: 'x'.repeat(5000) };
    server = await scriptedServer([json(200, big), (res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify(big)); }]);
    client = makeClient(server.url, fakeClock(), { maxResponseBytes: 1000 });
    await expect(client.geolocate(REQ)).rejects.toBeInstanceOf(ContractError);
    await expect(client.geolocate(REQ)).rejects.toThrow(/cap/); // chunked, no Content-Length
    expect(server.seen).toHaveLength(2);
  });

  it('a truncated body on POST /cases is a ContractError marked truncated', async () => {
    server = await scriptedServer([truncate(200, { id: 'c', name: 'n', description: '', createdAt: 'a', updatedAt: 'b' })]);
    client = makeClient(server.url, fakeClock());
    const err = await client.createCase({ name: 'n' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContractError);
    expect((err as ContractError).truncated).toBe(true);
  });

  it('maps both error forms, extras and rate limits onto ApiError', async () => {
    const rl = { ratelimit: '"default";r=0;t=30', 'x-request-id': 'req_1' };
    server = await scriptedServer([
      json(403, errBody(403, 'depth_not_permitted', { max_depth: 1, hint: 'use depth 1', details: { cap: 1 } }), rl),
      json(504, { type: 'https://x/p', title: 'Timeout', status: 504, detail: 'analysis timed out', code: 'analysis_timeout', retryable: true }),
      (res) => { res.writeHead(418, { 'content-type': 'text/plain', 'retry-after': '5' }); res.end('teapot'); },
    ]);
    client = makeClient(server.url, fakeClock(), { retry: { max: { gateway_timeout: 0 } } });
    const e1 = (await client.geolocate(REQ).catch((e: unknown) => e)) as ApiError;
    expect(e1).toMatchObject({ status: 403, code: 'depth_not_permitted', maxDepth: 1, hint: 'use depth 1', details: { cap: 1 }, requestId: 'req_1' });
    expect(e1.rateLimit?.remaining).toBe(0);
    const e2 = (await client.geolocate(REQ).catch((e: unknown) => e)) as ApiError;
    expect(e2).toMatchObject({ status: 504, code: 'analysis_timeout', message: 'analysis timed out', retryable: true });
    const e3 = (await client.credits().catch((e: unknown) => e)) as ApiError;
    expect(e3).toBeInstanceOf(ApiError);
    expect(e3).toMatchObject({ status: 418, code: 'http_418', retryAfter: 5, body: 'teapot' });
  });
});
