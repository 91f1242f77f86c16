/**
 * Conformance, part 1: one row per line of api-spec.md "Error cases for POST /api/v1/geolocate".
 * Row names quote the spec line. Each row runs against a fresh-enough sandbox over real HTTP, and
 * `call()` checks every body and header against schemas.ts.
 */
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, type TestSandbox, fixtureB64, startTestSandbox } from '../helpers/sandbox.js';
import { type Call, call, geolocate, sleep } from './contract.js';

let sb: TestSandbox;
let slow: TestSandbox;
let tight: TestSandbox;
let imageServer: ReturnType<typeof createServer>;
let imageBase = '';
const paris = fixtureB64('paris.jpg');
const plain = fixtureB64('plain.png');

beforeAll(async () => {
  sb = await startTestSandbox();
  slow = await startTestSandbox({ latencyMs: 400 });
  tight = await startTestSandbox({ rateLimit: 1 });
  imageServer = createServer((req, res) => {
    if (req.url === '/paris.jpg') res.end(Buffer.from(paris, 'base64'));
    else res.writeHead(404).end('no');
  });
  await new Promise<void>((r) => imageServer.listen(0, '127.0.0.1', r));
  const a = imageServer.address();
  imageBase = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
});
afterAll(async () => {
  await Promise.all([sb.close(), slow.close(), tight.close()]);
  await new Promise((r) => imageServer.close(r));
});

interface Row {
  line: string;
  status: number;
  code: string;
  run: () => Promise<Call>;
  more?: (c: Call) => void;
}

const rows: Row[] = [
  { line: '400 | code value not shown | Malformed JSON body.', status: 400, code: 'malformed_json',
    run: () => call(sb.url, 'POST', '/api/v1/geolocate', { key: KEYS.pro, raw: '{"image_b64": ', headers: { 'content-type': 'application/json' } }) },
  { line: '401 | unauthorized | Missing or invalid API key. (missing)', status: 401, code: 'unauthorized', run: () => call(sb.url, 'POST', '/api/v1/geolocate', { json: { image_b64: paris } }) },
  { line: '401 | unauthorized | Missing or invalid API key. (invalid, x-api-key)', status: 401, code: 'unauthorized', run: () => call(sb.url, 'POST', '/api/v1/geolocate', { key: 'orca_live_nope', xApiKey: true, json: { image_b64: paris } }) },
  { line: '402 | payment_required | Insufficient credits for the requested depth.', status: 402, code: 'payment_required',
    run: () => geolocate(sb.url, KEYS.broke, { image_b64: paris }), more: (c) => expect(c.body.details).toEqual({ balance: 0, cost: 1 }) },
  { line: '402 | prepaid_credits_exhausted | Enterprise prepaid allocation is spent; contact the operator, do not retry.', status: 402, code: 'prepaid_credits_exhausted',
    run: () => geolocate(sb.url, KEYS.exhausted, { image_b64: paris }) },
  { line: '403 | forbidden | Key not allowed to call the endpoint. (batch:submit is enterprise only)', status: 403, code: 'forbidden',
    run: () => geolocate(sb.url, KEYS.pro, { image_b64: paris, batch_id: 'batch_sandbox' }) },
  { line: "403 | depth_not_permitted | Requested depth above the key's cap; body carries max_depth. (key cap)", status: 403, code: 'depth_not_permitted',
    run: () => geolocate(sb.url, KEYS.d1cap, { image_b64: paris, depth: 2 }), more: (c) => expect(c.body.max_depth).toBe(1) },
  { line: "403 | depth_not_permitted | Requested depth above the key's cap (tier cap, before any async branch)", status: 403, code: 'depth_not_permitted',
    run: () => geolocate(sb.url, KEYS.starter, { image_b64: paris, depth: 3, async: true }), more: (c) => expect(c.body.max_depth).toBe(2) },
  { line: '404 | not_found | No such endpoint', status: 404, code: 'not_found', run: () => call(sb.url, 'POST', '/api/v1/geolocation', { key: KEYS.pro, json: {} }) },
  { line: '404 | not_found | also the batch_id does not exist', status: 404, code: 'not_found', run: () => geolocate(sb.url, KEYS.enterprise, { image_b64: paris, batch_id: 'batch_other' }) },
  { line: '404 | not_found | also the batch_id ... is bound to another key', status: 404, code: 'not_found', run: () => geolocate(sb.url, KEYS.exhausted, { image_b64: paris, batch_id: 'batch_sandbox' }) },
  { line: '405 | method_not_allowed | Method other than POST.', status: 405, code: 'method_not_allowed',
    run: () => call(sb.url, 'GET', '/api/v1/geolocate', { key: KEYS.pro }), more: (c) => expect(c.headers.allow).toBe('POST') },
  { line: '409 | idempotency_in_progress | Same Idempotency-Key still processing.', status: 409, code: 'idempotency_in_progress',
    run: async () => {
      const first = geolocate(slow.url, KEYS.pro, { image_b64: paris }, { 'idempotency-key': 'row-409-a' });
      await sleep(100);
      const second = await geolocate(slow.url, KEYS.pro, { image_b64: paris }, { 'idempotency-key': 'row-409-a' });
      expect((await first).status).toBe(200);
      return second;
    } },
  { line: '409 | (conflict) | Idempotency key reused with a different payload.', status: 409, code: 'idempotency_key_reused',
    run: async () => {
      expect((await geolocate(sb.url, KEYS.pro, { image_b64: paris }, { 'idempotency-key': 'row-409-b' })).status).toBe(200);
      return geolocate(sb.url, KEYS.pro, { image_b64: paris, depth: 2 }, { 'idempotency-key': 'row-409-b' });
    } },
  { line: '422 | invalid_request | No image_b64 or image_url given', status: 422, code: 'invalid_request', run: () => geolocate(sb.url, KEYS.pro, { depth: 1 }) },
  { line: '422 | invalid_request | ... or image_url could not be fetched.', status: 422, code: 'invalid_request', run: () => geolocate(sb.url, KEYS.pro, { image_url: `${imageBase}/missing.jpg` }) },
  { line: '422 | invalid_effort | Unknown effort value.', status: 422, code: 'invalid_effort', run: () => geolocate(sb.url, KEYS.pro, { image_b64: paris, effort: 'extreme' }) },
  { line: "422 | effort_exceeds_depth | Effort above the depth's normal level; carries max_effort.", status: 422, code: 'effort_exceeds_depth',
    run: () => geolocate(sb.url, KEYS.pro, { image_b64: paris, depth: 1, effort: 'high' }), more: (c) => expect(c.body.max_effort).toBe('low') },
  { line: '422 | content_blocked | Image failed content-safety screening; never charged.', status: 422, code: 'content_blocked',
    run: () => geolocate(sb.url, KEYS.broke, { image_b64: fixtureB64('blocked.png') }) },
  { line: '422 | invalid_image_b64 | image_b64 not decodable', status: 422, code: 'invalid_image_b64', run: () => geolocate(sb.url, KEYS.pro, { image_b64: 'not base64!' }) },
  { line: '422 | invalid_image_b64 | ... or carries a data: prefix.', status: 422, code: 'invalid_image_b64', run: () => geolocate(sb.url, KEYS.pro, { image_b64: `data:image/jpeg;base64,${paris}` }) },
  { line: '422 | invalid_scope | Scope cannot be parsed', status: 422, code: 'invalid_scope', run: () => geolocate(sb.url, KEYS.pro, { image_b64: paris, scope: { name: 'Paris' } }) },
  { line: '422 | invalid_scope | (includes invalid scope.captured_at).', status: 422, code: 'invalid_scope',
    run: () => geolocate(sb.url, KEYS.pro, { image_b64: paris, scope: { name: 'Paris', lat: 48.85, lng: 2.35, captured_at: '2025-02-29' } }) },
  { line: '422 | webhook_required_for_async | async: true with analysis history disabled.', status: 422, code: 'webhook_required_for_async',
    run: () => geolocate(sb.url, KEYS.nohistory, { image_b64: paris, async: true }) },
  { line: '429 | rate_limited | Rate limit exceeded; retry after retry_after seconds; Retry-After header sent.', status: 429, code: 'rate_limited',
    run: async () => {
      expect((await geolocate(tight.url, KEYS.pro, { image_b64: plain })).status).toBe(200);
      return geolocate(tight.url, KEYS.pro, { image_b64: plain });
    } },
  { line: '500 | server_error | Internal error.', status: 500, code: 'server_error', run: () => geolocate(sb.url, KEYS.pro, { image_b64: paris }, { 'sandbox-fault': '500' }) },
  { line: '502 | analysis_failed | Upstream failure; retry or lower depth; not charged.', status: 502, code: 'analysis_failed', run: () => geolocate(sb.url, KEYS.pro, { image_b64: paris }, { 'sandbox-fault': '502' }) },
  { line: '503 | (unavailable) | Inference backend unavailable; transient, retry with backoff; not charged.', status: 503, code: 'service_unavailable', run: () => geolocate(sb.url, KEYS.pro, { image_b64: paris }, { 'sandbox-fault': '503' }) },
  { line: '504 | analysis_timeout | Timed out; retryable: true; credits refunded automatically.', status: 504, code: 'analysis_timeout',
    run: () => geolocate(sb.url, KEYS.pro, { image_b64: paris }, { 'sandbox-fault': '504' }), more: (c) => expect(c.body.retryable).toBe(true) },
];

describe('geolocate error table', () => {
  it.each(rows.map((r) => [r.line, r] as const))('%s', async (_line, row) => {
    const c = await row.run();
    expect(c.status).toBe(row.status);
    expect(c.body.code).toBe(row.code);
    expect(c.body.success).toBe(false);
    row.more?.(c);
  });

  it('every status of the spec table has a row', () => {
    const statuses = new Set(rows.map((r) => r.status));
    for (const s of [400, 401, 402, 403, 404, 405, 409, 422, 429, 500, 502, 503, 504]) expect(statuses.has(s), String(s)).toBe(true);
  });

  it('no row above charged anything it should not: 402, 422, 500, 502, 503 never debit; 504 debits and refunds', () => {
    const broke = sb.ledger().keys[KEYS.broke]!;
    expect(broke.entries).toEqual([]);
    const pro = sb.ledger().keys[KEYS.pro]!;
    const refunds = pro.entries.filter((e) => e.kind === 'refund');
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.reason).toMatch(/504/);
  });
});
