/** Async jobs, analyses history, cases and credits: per principal, never visible to another key. */
import { describe, expect, it } from 'vitest';
import { AsyncAcceptedSchema } from '../../src/api/schemas.js';
import { KEYS, fixtureB64, startTestSandbox, withSandbox } from '../helpers/sandbox.js';
import { call, geolocate, sleep } from './contract.js';

const sb = withSandbox();
const paris = fixtureB64('paris.jpg');
const tokyo = fixtureB64('tokyo.jpg');
const plain = fixtureB64('plain.png');

describe('async', () => {
  it('202 with the sandbox body; the job is debited when it finishes and then appears in analyses', async () => {
    const own = await startTestSandbox({ latencyMs: 300 });
    try {
      const c = await geolocate(own.url, KEYS.pro, { image_b64: tokyo, async: true });
      expect(c.status).toBe(202);
      const body = AsyncAcceptedSchema.parse(c.body);
      expect(body).toMatchObject({ success: true, status: 'queued' });
      expect(body.job_id).toMatch(/^job_/);
      expect(own.ledger().keys[KEYS.pro]!.api_balance).toBe(10_000);
      expect((await call(own.url, 'GET', '/api/v1/analyses', { key: KEYS.pro })).body.data).toEqual([]);
      let items: Array<Record<string, unknown>> = [];
      for (let i = 0; i < 100 && items.length === 0; i++) {
        await sleep(50);
        items = (await call(own.url, 'GET', '/api/v1/analyses', { key: KEYS.pro })).body.data;
      }
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({ analysis_id: body.analysis_id, country: 'Japan', async: true });
      const l = own.ledger().keys[KEYS.pro]!;
      expect([l.api_balance, l.jobs[0]!.status]).toEqual([9_999, 'completed']);
    } finally {
      await own.close();
    }
  });
});

describe('analyses', () => {
  it('history off: analysis_id null, nothing listed', async () => {
    const c = await geolocate(sb.url, KEYS.nohistory, { image_b64: paris });
    expect(c.body.analysis_id).toBeNull();
    expect((await call(sb.url, 'GET', '/api/v1/analyses', { key: KEYS.nohistory })).body.data).toEqual([]);
  });

  it('per principal: one key never sees another key\'s analyses or cases', async () => {
    const mine = await geolocate(sb.url, KEYS.starter, { image_b64: paris });
    expect(mine.body.analysis_id).toMatch(/^an_[0-9a-f]+$/);
    const ids = (key: string) => call(sb.url, 'GET', '/api/v1/analyses?limit=200', { key }).then((c) => c.body.data.map((a: { analysis_id: string }) => a.analysis_id));
    expect(await ids(KEYS.starter)).toContain(mine.body.analysis_id);
    for (const other of [KEYS.pro, KEYS.enterprise, KEYS.free]) expect(await ids(other)).not.toContain(mine.body.analysis_id);
    const kase = await call(sb.url, 'POST', '/api/v1/cases', { key: KEYS.pro, json: { name: 'private' } });
    expect((await call(sb.url, 'GET', '/api/v1/cases', { key: KEYS.enterprise })).body.data.map((c: { id: string }) => c.id)).not.toContain(kase.body.id);
  });

  it('q searches neighborhood, city, country and filename; city filters by slug; newest first', async () => {
    const own = await startTestSandbox();
    try {
      await geolocate(own.url, KEYS.pro, { image_b64: paris, filename: 'eiffel-trip.jpg' });
      await geolocate(own.url, KEYS.pro, { image_b64: tokyo });
      await geolocate(own.url, KEYS.pro, { image_b64: plain });
      const q = async (qs: string) => (await call(own.url, 'GET', `/api/v1/analyses?${qs}`, { key: KEYS.pro })).body.data as Array<Record<string, string>>;
      expect((await q('')).map((a) => a.country)).toEqual(['Canada', 'Japan', 'France']);
      expect((await q('q=france')).map((a) => a.country)).toEqual(['France']);
      expect((await q('q=EIFFEL')).map((a) => a.filename)).toEqual(['eiffel-trip.jpg']);
      expect((await q('q=plateau')).map((a) => a.city)).toEqual(['Montreal']);
      expect((await q('city=montreal')).map((a) => a.city)).toEqual(['Montreal']);
      expect(await q('q=atlantis')).toEqual([]);
    } finally {
      await own.close();
    }
  });
});

describe('cases', () => {
  it('create answers 200 with id, name, description ("" default), teamId and ISO-8601 times; list filters by teamId', async () => {
    const a = await call(sb.url, 'POST', '/api/v1/cases', { key: KEYS.enterprise, json: { name: 'Harbour fire', teamId: 'team_a' } });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ name: 'Harbour fire', description: '', teamId: 'team_a' });
    expect(new Date(a.body.createdAt).toISOString()).toBe(a.body.createdAt);
    expect(a.body.updatedAt).toBe(a.body.createdAt);
    const b = await call(sb.url, 'POST', '/api/v1/cases', { key: KEYS.enterprise, json: { name: 'Other', description: 'd' } });
    expect(b.body.description).toBe('d');
    expect((await call(sb.url, 'GET', '/api/v1/cases?teamId=team_a', { key: KEYS.enterprise })).body.data.map((c: { id: string }) => c.id)).toEqual([a.body.id]);
    expect((await call(sb.url, 'GET', '/api/v1/cases', { key: KEYS.enterprise })).body.data).toHaveLength(2);
  });

  it('free and starter: 402 payment_required, "plan does not include cases"', async () => {
    for (const key of [KEYS.free, KEYS.starter]) {
      for (const [method, json] of [['GET', undefined], ['POST', { name: 'x' }]] as const) {
        const c = await call(sb.url, method, '/api/v1/cases', { key, json });
        expect([c.status, c.body.code]).toEqual([402, 'payment_required']);
        expect(c.body.message).toMatch(/does not include cases/);
      }
    }
  });

  it('a body without a name is 422 invalid_request; broken JSON is 400', async () => {
    expect((await call(sb.url, 'POST', '/api/v1/cases', { key: KEYS.pro, json: { description: 'no name' } })).body.code).toBe('invalid_request');
    const c = await call(sb.url, 'POST', '/api/v1/cases', { key: KEYS.pro, raw: '{', headers: { 'content-type': 'application/json' } });
    expect([c.status, c.body.code]).toEqual([400, 'malformed_json']);
  });
});

describe('account', () => {
  it('credits: dedicated API-only funding, balance kept apart from api_balance', async () => {
    const c = await call(sb.url, 'GET', '/api/v1/credits', { key: KEYS.broke });
    expect(c.body.data).toMatchObject({ balance: 0, api_balance: 0, total_available: 0, total_used: 0 });
    const p = (await call(sb.url, 'GET', '/api/v1/credits', { key: KEYS.pro, xApiKey: true })).body.data;
    expect(p.balance).toBe(500);
    expect(p.total_available).toBe(p.api_balance);
  });

  it('usage: an open object with meter, overage mode and access lifecycle', async () => {
    const c = await call(sb.url, 'GET', '/api/v1/usage', { key: KEYS.exhausted });
    expect(c.body.data).toMatchObject({ tier: 'enterprise', overage_mode: 'blocked', access: { lifecycle: 'prepaid_exhausted' } });
  });
});
