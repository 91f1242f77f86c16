/** Every Sandbox-Fault kind, the seeded --faults plan, and what each one costs (DESIGN.md). */
import { describe, expect, it } from 'vitest';
import { parseFaultList } from '../../src/sandbox/faults.js';
import { KEYS, fixtureB64, startTestSandbox, withSandbox } from '../helpers/sandbox.js';
import { broken, call, geolocate } from './contract.js';

const sb = withSandbox();
const plain = fixtureB64('plain.png');
const pro = () => sb.ledger().keys[KEYS.pro]!;
const post = (fault: string, key?: string) =>
  ({ method: 'POST', headers: { authorization: `Bearer ${KEYS.pro}`, 'content-type': 'application/json', 'sandbox-fault': fault, ...(key ? { 'idempotency-key': key } : {}) }, body: JSON.stringify({ image_b64: plain }) }) as RequestInit;

describe('Sandbox-Fault header', () => {
  it('429: rate_limited with Retry-After and retry_after', async () => {
    const c = await geolocate(sb.url, KEYS.pro, { image_b64: plain }, { 'sandbox-fault': '429' });
    expect([c.status, c.body.code, c.headers['retry-after'], c.body.retry_after]).toEqual([429, 'rate_limited', '1', 1]);
  });

  for (const [kind, code, modelCall] of [['500', 'server_error', 0], ['502', 'analysis_failed', 1], ['503', 'service_unavailable', 0]] as const) {
    it(`${kind}: ${code}, never charged`, async () => {
      const before = pro();
      const c = await geolocate(sb.url, KEYS.pro, { image_b64: plain }, { 'sandbox-fault': kind, 'idempotency-key': `f-${kind}` });
      expect([c.status, c.body.code]).toEqual([Number(kind), code]);
      const after = pro();
      expect(after.api_balance).toBe(before.api_balance);
      expect(after.entries).toHaveLength(before.entries.length);
      expect(after.model_calls - before.model_calls).toBe(modelCall);
      // A failed attempt releases its key: the retry runs and is charged once.
      expect(after.idempotency[`f-${kind}`]!.state).toBe('unseen');
      expect((await geolocate(sb.url, KEYS.pro, { image_b64: plain }, { 'idempotency-key': `f-${kind}` })).status).toBe(200);
      expect(pro().api_balance).toBe(before.api_balance - 1);
    });
  }

  it('504: analysis_timeout, retryable, debit and refund both in the ledger', async () => {
    const before = pro();
    const c = await geolocate(sb.url, KEYS.pro, { image_b64: plain }, { 'sandbox-fault': '504' });
    expect([c.status, c.body.code, c.body.retryable]).toEqual([504, 'analysis_timeout', true]);
    const after = pro();
    expect(after.api_balance).toBe(before.api_balance);
    expect(after.total_used).toBe(before.total_used);
    expect(after.entries.slice(before.entries.length).map((e) => [e.kind, e.amount])).toEqual([['debit', 1], ['refund', 1]]);
  });

  it('reset-before: the socket drops before any work (no model call, no debit, key never seen)', async () => {
    const before = pro();
    expect(await broken(sb.url, '/api/v1/geolocate', post('reset-before', 'f-rb'))).toBeInstanceOf(Error);
    const after = pro();
    expect([after.model_calls, after.api_balance, after.idempotency['f-rb']]).toEqual([before.model_calls, before.api_balance, undefined]);
  });

  it('reset-after: analysed and debited, then dropped; the idempotent replay returns it free (one debit)', async () => {
    const before = pro();
    expect(await broken(sb.url, '/api/v1/geolocate', post('reset-after', 'f-ra'))).toBeInstanceOf(Error);
    expect(pro().api_balance).toBe(before.api_balance - 1);
    const replay = await geolocate(sb.url, KEYS.pro, { image_b64: plain }, { 'idempotency-key': 'f-ra' });
    expect([replay.status, replay.headers['idempotent-replayed']]).toEqual([200, 'true']);
    const after = pro();
    expect(after.entries.slice(before.entries.length).filter((e) => e.idempotency_key === 'f-ra').map((e) => e.kind)).toEqual(['debit']);
    expect(after.model_calls).toBe(before.model_calls + 1);
    expect(after.idempotency['f-ra']).toEqual({ requests: 2, state: 'completed' });
  });

  it('truncate: headers and half the body, then the connection drops', async () => {
    const res = await fetch(`${sb.url}/api/v1/credits`, { headers: { 'x-api-key': KEYS.pro, 'sandbox-fault': 'truncate' } });
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
  });

  it('stall:<ms>: the answer is held that long, then given normally', async () => {
    const t0 = performance.now();
    const c = await call(sb.url, 'GET', '/api/v1/credits', { key: KEYS.pro, headers: { 'sandbox-fault': 'stall:300' } });
    expect(c.status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290);
  });

  it('service faults work on the other endpoints too', async () => {
    const c = await call(sb.url, 'GET', '/api/v1/usage', { key: KEYS.pro, headers: { 'sandbox-fault': '503' } });
    expect([c.status, c.body.code]).toEqual([503, 'service_unavailable']);
  });

  it('an unknown kind is 422 invalid_request naming the kinds', async () => {
    const c = await call(sb.url, 'GET', '/api/v1/credits', { key: KEYS.pro, headers: { 'sandbox-fault': 'explode' } });
    expect([c.status, c.body.code]).toEqual([422, 'invalid_request']);
    expect(c.body.message).toMatch(/reset-after/);
  });
});

describe('--faults with --seed', () => {
  async function statuses(faults: string, seed: number): Promise<number[]> {
    const own = await startTestSandbox({ faults, seed });
    try {
      const out: number[] = [];
      for (let i = 0; i < 20; i++) out.push((await geolocate(own.url, KEYS.pro, { image_b64: plain })).status);
      return out;
    } finally {
      await own.close();
    }
  }

  it('the same seed gives the same faults in the same order; another seed differs', async () => {
    const a = await statuses('503:0.3,502:0.2', 7);
    expect(await statuses('503:0.3,502:0.2', 7)).toEqual(a);
    expect(await statuses('503:0.3,502:0.2', 8)).not.toEqual(a);
    expect(a.filter((s) => s === 200).length).toBeGreaterThan(0);
    expect(a.filter((s) => s !== 200).length).toBeGreaterThan(0);
  });

  it('only geolocate requests draw faults', async () => {
    const own = await startTestSandbox({ faults: '503:1' });
    try {
      expect((await call(own.url, 'GET', '/api/v1/credits', { key: KEYS.pro })).status).toBe(200);
      expect((await geolocate(own.url, KEYS.pro, { image_b64: plain })).status).toBe(503);
    } finally {
      await own.close();
    }
  });

  it('bad lists are refused with a readable message', () => {
    expect(parseFaultList('500:0.1,stall:2000:0.05,reset-after:0.05')).toHaveLength(3);
    for (const bad of ['500', 'boom:0.1', '500:2', '500:0.7,503:0.7']) expect(() => parseFaultList(bad), bad).toThrow();
  });
});
