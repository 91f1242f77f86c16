/**
 * The store's results (src/store/sqlite/results.ts): a record and its raw bytes come back exactly as
 * stored; the reuse look-up finds only the same image, request fields, service and account, the
 * newest first, whatever the field order; an answer stored twice under one key is one row; history
 * and search read the columns, newest first; files are 0600 in a folder geo made 0700, and an
 * existing folder keeps its mode.
 */
import { chmodSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRecord } from '../../src/evidence/records.js';
import { PARIS_SHA, forensicBody, parisRecord, sydneyRecord } from '../export/fixtures.js';
import { dbRows, openStore } from '../helpers/store.js';
import { SEARCH_COUNT } from '../../src/store/sqlite/results.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'geo-store-'));
const mode = (p: string) => statSync(p).mode & 0o777;
const BASE = 'http://127.0.0.1:4010';
const ACCOUNT = '0123456789abcdef0123';
const scope = { name: 'Paris', lat: 48.86, lng: 2.35 };

function record(o: { id: string; now: number; account?: string; baseUrl?: string; request?: Record<string, unknown>; status?: number }) {
  const body = forensicBody({ analysis_id: o.id });
  return buildRecord({
    input: { path: 'paris.jpg', sha256: PARIS_SHA },
    request: o.request ?? { image_b64: 'AAAA', depth: 3, scope },
    response: { data: body, raw: JSON.stringify(body), status: o.status ?? 200, headers: {}, replayed: false, idempotencyKey: `key-${o.id}` },
    baseUrl: o.baseUrl ?? BASE, cliVersion: 'test', now: o.now, ...(o.account !== undefined ? { account: o.account } : {}),
  });
}

describe('results in the store', () => {
  it('a record and its raw bytes come back as stored; the database is 0600 in a folder geo made 0700', () => {
    const parent = tmp();
    const dir = join(parent, 'new', 'geo');
    const store = openStore(dir);
    const raw = Buffer.from([...Buffer.from('{"a":1,"bad":"'), 0xff, 0xfe, ...Buffer.from('"}')]);
    const id = store.insertResult({ record: parisRecord(), rawBytes: raw, sandbox: false, listed: true });
    const back = store.result(id)!;
    expect(back.raw).toEqual(raw);
    // Bytes that are not UTF-8: the text shows them as \udcXX escapes and raw_b64 gives them back (issue 21).
    expect(back.record.response.raw).toBe('{"a":1,"bad":"\\udcff\\udcfe"}');
    expect({ ...back.record, response: { ...back.record.response, raw: undefined } }).toEqual({ ...parisRecord(), response: { ...parisRecord().response, raw: undefined, raw_b64: raw.toString('base64') } });
    store.close();
    expect(mode(join(dir, 'geo.db'))).toBe(0o600);
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(parent, 'new'))).toBe(0o700);
  });

  it('an existing folder keeps its mode (a 1777 folder keeps its sticky bit)', () => {
    const dir = tmp();
    chmodSync(dir, 0o1777);
    openStore(dir).close();
    expect(statSync(dir).mode & 0o7777).toBe(0o1777);
  });

  it('reuse: the newest matching answer only, never one of another account, service, fields or status', () => {
    const store = openStore(tmp());
    const q = { sha256: PARIS_SHA, request: { scope: { lng: 2.35, lat: 48.86, name: 'Paris' }, depth: 3 }, origin: BASE, account: ACCOUNT };
    const put = (r: ReturnType<typeof record>) => store.insertResult({ record: r, sandbox: false, listed: true });
    expect(store.reusable(q)).toBeUndefined();
    put(record({ id: 'an_legacy', now: Date.UTC(2026, 0, 1) })); // no account: before fingerprints
    put(record({ id: 'an_other_acct', now: Date.UTC(2026, 0, 2), account: 'ffffffffffffffffffff' }));
    put(record({ id: 'an_other_base', now: Date.UTC(2026, 0, 3), account: ACCOUNT, baseUrl: 'https://oceanir.ai' }));
    put(record({ id: 'an_effort', now: Date.UTC(2026, 0, 4), account: ACCOUNT, request: { depth: 3, scope, effort: 'low' } }));
    expect(store.reusable(q)).toBeUndefined();
    put(record({ id: 'an_old', now: Date.UTC(2026, 0, 5), account: ACCOUNT }));
    put(record({ id: 'an_new', now: Date.UTC(2026, 0, 6), account: ACCOUNT }));
    put(record({ id: 'an_newest_but_202', now: Date.UTC(2026, 0, 7), account: ACCOUNT, status: 202 }));
    expect(store.reusable(q)?.analysis_id).toBe('an_new');
    expect(store.reusable({ ...q, request: { ...q.request, depth: 2 } })).toBeUndefined();
    // A --fresh batch being resumed takes only what was answered since it started.
    expect(store.reusable({ ...q, since: new Date(Date.UTC(2026, 0, 6, 1)).toISOString() })).toBeUndefined();
    store.close();
  });

  it('one answer stored twice under its key (two processes racing) is one row', () => {
    const store = openStore(tmp());
    const a = store.insertResult({ record: parisRecord(), sandbox: false, listed: true });
    const b = store.insertResult({ record: parisRecord(), sandbox: false, listed: true });
    expect(b).toBe(a);
    expect(store.count()).toBe(1);
    store.close();
  });

  it('history lists the columns newest first; search finds words of paths, places, reasoning and ids; a prefix or an analysis id finds a result', () => {
    const store = openStore(tmp());
    store.insertResult({ record: parisRecord(), sandbox: false, listed: true });
    store.insertResult({ record: sydneyRecord(), sandbox: true, listed: true });
    store.insertResult({ record: { ...parisRecord(), idempotency_key: 'hidden', stored_at: '2030-01-01T00:00:00.000Z' }, sandbox: false, listed: false });
    expect(store.count()).toBe(2);
    expect(store.newest(10).map((r) => [r.input_path, r.sandbox])).toEqual([['photos/sydney.jpg', 1], ['fixtures/images/paris.jpg', 0]]);
    expect(store.search('sydn', 10).rows.map((r) => r.input_path)).toEqual(['photos/sydney.jpg']);
    expect(store.search('images paris', 10).rows.map((r) => r.input_path)).toEqual(['fixtures/images/paris.jpg']);
    expect(store.search('an_paris_1', 10).total).toBe(1);
    expect(store.search('nowhere-at-all', 10)).toEqual({ rows: [], total: 0, capped: false });
    expect(store.bySha(PARIS_SHA.slice(0, 8)).map((r) => r.record.input.path)).toEqual(['fixtures/images/paris.jpg']);
    expect(store.byAnalysisId('an_paris_1')).toHaveLength(1);
    expect(store.sandboxCount()).toBe(1);
    expect([...store.iterate({ includeSandbox: false })].map((r) => r.record.input.path)).toEqual(['fixtures/images/paris.jpg']);
    store.close();
  });

  it('a search counts its matches without reading the results table: the full-text index, less the unlisted ones by their partial index', () => {
    const data = tmp();
    const store = openStore(data);
    store.insertResult({ record: parisRecord(), sandbox: false, listed: true });
    store.insertResult({ record: { ...parisRecord(), idempotency_key: 'hidden', stored_at: '2030-01-01T00:00:00.000Z' }, sandbox: false, listed: false });
    expect(store.search('paris', 10).total).toBe(1);
    store.close();
    const plan = dbRows<{ detail: string }>(data, `EXPLAIN QUERY PLAN ${SEARCH_COUNT}`, '"paris"*', 10_001).map((r) => r.detail);
    expect(plan.join('\n')).toMatch(/USING COVERING INDEX results_unlisted/);
    expect(plan.filter((d) => /^(SCAN|SEARCH) (results|r)\b(?! USING COVERING INDEX results_unlisted)/.test(d))).toEqual([]);
  });
});
