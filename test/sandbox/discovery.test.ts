/** Routing, auth headers, docs HTML, OpenAPI, problem+json, and the honest results. */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { routeList } from '../../src/api/routes.js';
import { ERROR_CATALOG } from '../../src/sandbox/errors.js';
import { FIXTURES, KEYS, fixtureB64, startTestSandbox, withSandbox } from '../helpers/sandbox.js';
import { call, geolocate } from './contract.js';

const sb = withSandbox();

describe('routing and auth', () => {
  it('every route answers both credential headers', async () => {
    for (const r of routeList.filter((x) => x.auth)) {
      const json = r.method === 'POST' ? (r.operationId === 'createCase' ? { name: 'n' } : { image_b64: fixtureB64('plain.png') }) : undefined;
      for (const xApiKey of [false, true]) {
        const c = await call(sb.url, r.method, r.path, { key: KEYS.enterprise, xApiKey, json });
        expect(c.status, `${r.method} ${r.path}`).toBe(200);
      }
      expect((await call(sb.url, r.method, r.path, { json })).status).toBe(401);
    }
  });

  it('other methods on known paths: 405 with Allow; unknown paths: 404', async () => {
    for (const path of new Set(routeList.map((r) => r.path))) {
      const allowed = routeList.filter((r) => r.path === path).map((r) => r.method);
      for (const m of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((x) => !allowed.includes(x as 'GET'))) {
        const c = await call(sb.url, m, path, { key: KEYS.pro });
        expect([c.status, c.body.code, c.headers.allow], `${m} ${path}`).toEqual([405, 'method_not_allowed', allowed.join(', ')]);
      }
    }
    for (const path of ['/api/v1/nope', '/api/v2/geolocate', '/', '/__sandbox/nope']) expect((await call(sb.url, 'GET', path, { key: KEYS.pro })).status).toBe(404);
  });

  it('Accept: application/problem+json gets the problem-only form', async () => {
    const c = await call(sb.url, 'POST', '/api/v1/geolocate', { key: KEYS.d1cap, json: { image_b64: fixtureB64('plain.png'), depth: 3 }, headers: { accept: 'application/problem+json' } });
    expect(c.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(c.body).toMatchObject({ status: 403, code: 'depth_not_permitted', max_depth: 1, title: 'Depth not permitted' });
    expect(c.body.success).toBeUndefined();
    const j = await call(sb.url, 'GET', '/api/v1/credits', { headers: { accept: 'application/json, application/problem+json;q=0.5' } });
    expect(j.body.success).toBe(false);
  });
});

describe('docs and OpenAPI', () => {
  it('GET /api/v1/docs needs no key and lists every operation, status, request field and error code', async () => {
    const c = await call(sb.url, 'GET', '/api/v1/docs');
    expect(c.headers['content-type']).toMatch(/^text\/html/);
    for (const r of routeList) {
      expect(c.text).toContain(r.operationId);
      expect(c.text).toContain(`${r.method} ${r.path}`);
      for (const s of r.statuses) expect(c.text).toContain(`<b>${s}</b>`);
    }
    for (const f of ['image_url', 'image_b64', 'depth', 'effort', 'batch_id', 'scope', 'async', 'scope.radius_km']) expect(c.text).toContain(f);
    for (const code of Object.keys(ERROR_CATALOG)) expect(c.text).toContain(`id="${code}"`);
    expect(c.text).toMatch(/does not show this body/);
  });

  it('GET /__sandbox/openapi.json is OpenAPI 3.1 with every route, its statuses and schemas', async () => {
    const c = await call(sb.url, 'GET', '/__sandbox/openapi.json');
    const doc = c.body;
    expect(doc.openapi).toBe('3.1.0');
    for (const r of routeList) {
      const op = doc.paths[r.path][r.method.toLowerCase()];
      expect(op.operationId).toBe(r.operationId);
      expect(Object.keys(op.responses).map(Number).sort()).toEqual([...r.statuses].sort());
      if (r.body) expect(op.requestBody.content['application/json'].schema.type).toBe('object');
    }
    const geo = doc.paths['/api/v1/geolocate'].post;
    expect(Object.keys(geo.requestBody.content['application/json'].schema.properties)).toEqual(expect.arrayContaining(['image_b64', 'image_url', 'scope', 'async']));
    expect(geo.responses['200'].content['application/json'].schema.properties.forensic).toBeDefined();
    expect(geo.responses['422'].content['application/json'].schema.$ref).toBe('#/components/schemas/ApiError');
  });

  it('GET /__sandbox/ledger lists every seeded key with tier and balances', async () => {
    const c = await call(sb.url, 'GET', '/__sandbox/ledger');
    expect(Object.keys(c.body.keys)).toEqual(Object.values(KEYS));
    expect(c.body.keys[KEYS.d1cap]).toMatchObject({ tier: 'pro', max_depth: 1 });
  });
});

const lan = Object.values(networkInterfaces()).flat().find((i) => i && !i.internal && i.family === 'IPv4')?.address;
it.skipIf(!lan)('the ledger answers loopback callers only (403 forbidden from a LAN address)', async () => {
  const own = await startTestSandbox({ host: '0.0.0.0' });
  try {
    const fromLan = await call(`http://${lan}:${own.port}`, 'GET', '/__sandbox/ledger');
    expect([fromLan.status, fromLan.body.code]).toEqual([403, 'forbidden']);
    expect((await call(`http://127.0.0.1:${own.port}`, 'GET', '/__sandbox/ledger')).status).toBe(200);
  } finally {
    await own.close();
  }
});

const manifest = JSON.parse(readFileSync(FIXTURES + 'manifest.json', 'utf8')) as { images: Array<{ file: string; lat: number | null; lng: number | null }> };

describe('results', () => {
  for (const [file, country] of [['paris.jpg', 'France'], ['tokyo.jpg', 'Japan'], ['sydney.jpg', 'Australia'], ['newyork.jpg', 'United States of America']] as const) {
    it(`${file}: located at its EXIF GPS, ${country}, confidence 0.9`, async () => {
      const m = manifest.images.find((i) => i.file === file)!;
      const c = await geolocate(sb.url, KEYS.pro, { image_b64: fixtureB64(file) });
      expect(c.body.location.latitude).toBeCloseTo(m.lat!, 2);
      expect(c.body.location.longitude).toBeCloseTo(m.lng!, 2);
      expect(c.body.location.country).toBe(country);
      expect(c.body.location.maps.osm).toContain('openstreetmap.org');
      expect(c.body.confidence).toBe(0.9);
      expect(c.body.reasoning.startsWith('[sandbox]')).toBe(false);
    });
  }

  for (const file of ['nogps.jpg', 'plain.png', 'zero.jpg']) {
    it(`${file}: deterministic synthetic result, reasoning starts [sandbox], low confidence`, async () => {
      const a = await geolocate(sb.url, KEYS.pro, { image_b64: fixtureB64(file) });
      const b = await geolocate(sb.url, KEYS.pro, { image_b64: fixtureB64(file) });
      expect(a.body.reasoning.startsWith('[sandbox]')).toBe(true);
      expect(a.body.confidence).toBeLessThan(0.6);
      expect(b.body.location).toEqual(a.body.location);
    });
  }

  it('depth decides the fields: clues with and without bbox at 2; forensic (0-100 candidates) and calibration at 3', async () => {
    const d2 = await geolocate(sb.url, KEYS.pro, { image_b64: fixtureB64('plain.png'), depth: 2, effort: 'low' });
    expect(d2.body.effort).toBe('low');
    expect(d2.body.visual_clues.some((v: { bbox?: unknown }) => v.bbox)).toBe(true);
    expect(d2.body.visual_clues.some((v: { bbox?: unknown }) => !v.bbox)).toBe(true);
    const d3 = await geolocate(sb.url, KEYS.enterprise, { image_b64: fixtureB64('plain.png'), depth: 3, batch_id: 'batch_sandbox' });
    expect(d3.body.batch_id).toBe('batch_sandbox');
    expect(d3.body.forensic.candidates.length).toBeGreaterThan(0);
    for (const cand of d3.body.forensic.candidates) expect(cand.confidence).toBeGreaterThan(1);
    expect(d3.body.calibration.abstain_below).toBe(0.35);
  });

  it('a synthetic result with a scope stays inside it, scope_consistent true, same confidence', async () => {
    const free = await geolocate(sb.url, KEYS.pro, { image_b64: fixtureB64('plain.png') });
    const scoped = await geolocate(sb.url, KEYS.pro, { image_b64: fixtureB64('plain.png'), scope: { name: 'Lyon', lat: 45.76, lng: 4.84, radius_km: 20 } });
    expect(scoped.body.scope_consistent).toBe(true);
    expect(scoped.body.location.city).toBe('Lyon');
    expect(scoped.body.confidence).toBe(free.body.confidence);
  });

  it('image_url on loopback is fetched and located', async () => {
    const server = createServer((_req, res) => res.end(readFileSync(FIXTURES + 'sydney.jpg')));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const a = server.address();
      const c = await geolocate(sb.url, KEYS.pro, { image_url: `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/sydney.jpg` });
      expect(c.body.location.country).toBe('Australia');
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

