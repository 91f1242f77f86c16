/**
 * Conformance, part 2: one row per line of api-spec.md's idempotency state table and its Limits
 * table. Row names quote the spec line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/api/schemas.js';
import { KEYS, type TestSandbox, fixtureB64, startTestSandbox } from '../helpers/sandbox.js';
import { call, geolocate, sleep } from './contract.js';

const paris = fixtureB64('paris.jpg');
const plain = fixtureB64('plain.png');
let sb: TestSandbox;
let slow: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
  slow = await startTestSandbox({ latencyMs: 300 });
});
afterAll(async () => Promise.all([sb.close(), slow.close()]).then(() => undefined));

const idem = (k: string) => ({ 'idempotency-key': k });

describe('idempotency state table', () => {
  it('unseen | POST with an Idempotency-Key | first use of the key | in progress | Analysis runs, credits are debited on success.', async () => {
    const before = slow.ledger().keys[KEYS.pro]!;
    const p = geolocate(slow.url, KEYS.pro, { image_b64: paris }, idem('st-1'));
    await sleep(100);
    expect(slow.ledger().keys[KEYS.pro]!.idempotency['st-1']).toEqual({ requests: 1, state: 'in_progress' });
    expect((await p).status).toBe(200);
    const after = slow.ledger().keys[KEYS.pro]!;
    expect(after.model_calls).toBe(before.model_calls + 1);
    expect(after.api_balance).toBe(before.api_balance - 1);
  });

  it('in progress | POST with the same key | same key still processing | in progress | 409 with code idempotency_in_progress', async () => {
    const p = geolocate(slow.url, KEYS.pro, { image_b64: paris }, idem('st-2'));
    await sleep(100);
    const c = await geolocate(slow.url, KEYS.pro, { image_b64: paris }, idem('st-2'));
    expect([c.status, c.body.code]).toEqual([409, 'idempotency_in_progress']);
    expect(slow.ledger().keys[KEYS.pro]!.idempotency['st-2']!.state).toBe('in_progress');
    expect((await p).status).toBe(200);
  });

  it('in progress | analysis completes | success | completed | Response stored.', async () => {
    await geolocate(slow.url, KEYS.pro, { image_b64: paris }, idem('st-3'));
    expect(slow.ledger().keys[KEYS.pro]!.idempotency['st-3']).toEqual({ requests: 1, state: 'completed' });
  });

  it('completed | POST with the same key | identical payload | completed | Stored response replayed with header Idempotent-Replayed: true; no model call, no credit debit.', async () => {
    const first = await geolocate(sb.url, KEYS.pro, { image_b64: paris, depth: 2 }, idem('st-4'));
    const before = sb.ledger().keys[KEYS.pro]!;
    // Same payload, different key order: still identical (canonical JSON).
    const again = await geolocate(sb.url, KEYS.pro, { depth: 2, image_b64: paris }, idem('st-4'));
    const after = sb.ledger().keys[KEYS.pro]!;
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.body).toEqual(first.body);
    expect(after.model_calls).toBe(before.model_calls);
    expect(after.api_balance).toBe(before.api_balance);
    expect(after.idempotency['st-4']).toEqual({ requests: 2, state: 'completed' });
  });

  it('in progress or completed | POST with the same key | different payload | unchanged | 409.', async () => {
    const p = geolocate(slow.url, KEYS.pro, { image_b64: paris }, idem('st-5'));
    await sleep(100);
    const whileRunning = await geolocate(slow.url, KEYS.pro, { image_b64: plain }, idem('st-5'));
    expect([whileRunning.status, whileRunning.body.code]).toEqual([409, 'idempotency_key_reused']);
    expect(slow.ledger().keys[KEYS.pro]!.idempotency['st-5']!.state).toBe('in_progress');
    await p;
    const afterwards = await geolocate(slow.url, KEYS.pro, { image_b64: plain }, idem('st-5'));
    expect([afterwards.status, afterwards.body.code]).toEqual([409, 'idempotency_key_reused']);
    expect(slow.ledger().keys[KEYS.pro]!.idempotency['st-5']!.state).toBe('completed');
  });
});

function jpegB64OfChars(chars: number): string {
  const buf = Buffer.alloc((chars / 4) * 3);
  buf.set([0xff, 0xd8, 0xff, 0xd9]);
  return buf.toString('base64');
}

describe('limits table', () => {
  it('Request payload | 20 MB maximum (image_b64 max 20 MB): exactly 20,000,000 base64 characters are accepted', async () => {
    const c = await geolocate(sb.url, KEYS.pro, { image_b64: jpegB64OfChars(LIMITS.imageB64MaxChars) });
    expect(c.status).toBe(200);
  });
  it('Request payload | 20 MB maximum (image_b64 max 20 MB): 4 characters more -> 422 invalid_image_b64', async () => {
    const c = await geolocate(sb.url, KEYS.pro, { image_b64: jpegB64OfChars(LIMITS.imageB64MaxChars + 4) });
    expect([c.status, c.body.code]).toEqual([422, 'invalid_image_b64']);
  });
  it('Request payload | 20 MB maximum: a body over the limit -> 422 invalid_request, not buffered', async () => {
    const raw = `{"image_b64":"${'A'.repeat(LIMITS.bodyMaxBytes)}"}`;
    const c = await call(sb.url, 'POST', '/api/v1/geolocate', { key: KEYS.pro, raw, headers: { 'content-type': 'application/json' } });
    expect([c.status, c.body.code]).toEqual([422, 'invalid_request']);
  });

  it('Idempotency-Key length | 256 characters maximum', async () => {
    expect((await geolocate(sb.url, KEYS.pro, { image_b64: plain }, idem('k'.repeat(256)))).status).toBe(200);
    const c = await geolocate(sb.url, KEYS.pro, { image_b64: plain }, idem('k'.repeat(257)));
    expect([c.status, c.body.code]).toEqual([422, 'invalid_request']);
  });

  it('limit query parameter (analyses, cases) | 1 to 200, default 50', async () => {
    const own = await startTestSandbox();
    try {
      for (let i = 0; i < 55; i++) await call(own.url, 'POST', '/api/v1/cases', { key: KEYS.pro, json: { name: `case ${i}` } });
      for (let i = 0; i < 51; i++) await geolocate(own.url, KEYS.enterprise, { image_b64: plain });
      for (const [path, total] of [['/api/v1/cases', 55], ['/api/v1/analyses', 51]] as const) {
        const key = path.endsWith('cases') ? KEYS.pro : KEYS.enterprise;
        expect((await call(own.url, 'GET', path, { key })).body.data).toHaveLength(50);
        expect((await call(own.url, 'GET', `${path}?limit=1`, { key })).body.data).toHaveLength(1);
        expect((await call(own.url, 'GET', `${path}?limit=200`, { key })).body.data).toHaveLength(total);
        for (const bad of ['0', '201', 'abc', '1.5']) {
          const c = await call(own.url, 'GET', `${path}?limit=${bad}`, { key });
          expect([c.status, c.body.code], `${path} limit=${bad}`).toEqual([422, 'invalid_request']);
        }
      }
    } finally {
      await own.close();
    }
  });

  it('scope.radius_km | 1 to 500, default 60', async () => {
    const at = (km: number, radius?: number) => ({ name: 'Paris', lat: 48.85837 + km / 111.2, lng: 2.294481, ...(radius ? { radius_km: radius } : {}) });
    for (const r of [0.5, 501]) expect((await geolocate(sb.url, KEYS.pro, { image_b64: paris, scope: at(0, r) })).body.code).toBe('invalid_scope');
    for (const r of [1, 500]) expect((await geolocate(sb.url, KEYS.pro, { image_b64: paris, scope: at(0, r) })).body.scope_consistent).toBe(true);
    expect((await geolocate(sb.url, KEYS.pro, { image_b64: paris, scope: at(59) })).body.scope_consistent).toBe(true);
    const outside = await geolocate(sb.url, KEYS.pro, { image_b64: paris, scope: at(61) });
    expect(outside.body.scope_consistent).toBe(false);
    expect(outside.body.location.latitude).toBeCloseTo(48.858, 2); // the unscoped (EXIF) estimate
    expect((await geolocate(sb.url, KEYS.pro, { image_b64: paris, scope: at(61, 100) })).body.scope_consistent).toBe(true);
  });

  for (const [tier, key, quota] of [['free', KEYS.free, 5], ['starter (not given by the spec: 15 chosen)', KEYS.starter, 15], ['pro', KEYS.pro, 30], ['enterprise', KEYS.enterprise, 120]] as const) {
    it(`Rate limit, ${tier} key | ${quota} requests per minute`, async () => {
      let t = Date.UTC(2026, 0, 1);
      const own = await startTestSandbox({ rateLimit: undefined, now: () => t });
      try {
        for (let i = 0; i < quota; i++) {
          const c = await call(own.url, 'GET', '/api/v1/credits', { key });
          expect(c.status).toBe(200);
          expect(c.headers['ratelimit-policy']).toBe(`"default";q=${quota};w=60`);
          expect(c.headers['ratelimit-remaining']).toBe(String(quota - i - 1));
        }
        const over = await call(own.url, 'GET', '/api/v1/credits', { key });
        expect([over.status, over.body.code]).toEqual([429, 'rate_limited']);
        expect(over.headers['retry-after']).toBe('60');
        expect(over.headers['ratelimit-reset']).toBe(String((t + 60_000) / 1000));
        t += 60_000;
        expect((await call(own.url, 'GET', '/api/v1/credits', { key })).status).toBe(200);
      } finally {
        await own.close();
      }
    });
  }

  it('Recommended client timeout | 180 seconds: a depth-3 answer comes well inside it', async () => {
    const c = await geolocate(sb.url, KEYS.pro, { image_b64: paris, depth: 3 });
    expect(c.body.timing_ms).toBeLessThan(LIMITS.recommendedTimeoutS * 1000);
  });

  it('Credit cost per successful call | depth 1: 1 credit; depth 2: 2 credits; depth 3: 10 credits', async () => {
    for (const [depth, cost] of [[1, 1], [2, 2], [3, 10]] as const) {
      const before = (await call(sb.url, 'GET', '/api/v1/credits', { key: KEYS.enterprise })).body.data;
      expect((await geolocate(sb.url, KEYS.enterprise, { image_b64: plain, depth })).body.depth).toBe(depth);
      const after = (await call(sb.url, 'GET', '/api/v1/credits', { key: KEYS.enterprise })).body.data;
      expect(before.api_balance - after.api_balance).toBe(cost);
      expect(after.total_used - before.total_used).toBe(cost);
      expect(after.balance).toBe(before.balance); // dedicated API-only credits: the app balance is never touched
      expect(after.total_available).toBe(after.api_balance);
    }
  });

  it('Default depth | 1', async () => {
    const before = sb.ledger().keys[KEYS.starter]!.api_balance;
    const c = await geolocate(sb.url, KEYS.starter, { image_b64: plain });
    expect(c.body.depth).toBe(1);
    expect(c.body.thinking).toBeUndefined();
    expect(sb.ledger().keys[KEYS.starter]!.api_balance).toBe(before - 1);
  });
});
