/**
 * The reuse look-up (issue 11): only a stored 2xx result of the same image, request fields,
 * service and account is reused, the newest first; field order never matters; --async, records
 * without an account and records of another service or account never are.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findReusable } from '../../src/local/reuse.js';
import { buildRecord, saveRecord } from '../../src/local/store.js';
import { PARIS_SHA, forensicBody } from '../export/fixtures.js';

const BASE = 'http://127.0.0.1:4010';
const ACCOUNT = '0123456789abcdef0123';
const scope = { name: 'Paris', lat: 48.86, lng: 2.35 };

function record(o: { id: string; now: number; account?: string; baseUrl?: string; request?: Record<string, unknown>; status?: number }) {
  const body = forensicBody({ analysis_id: o.id });
  return buildRecord({
    input: { path: 'paris.jpg', sha256: PARIS_SHA },
    request: o.request ?? { image_b64: 'AAAA', depth: 3, scope },
    response: { data: body, raw: JSON.stringify(body), status: o.status ?? 200, headers: {}, replayed: false },
    baseUrl: o.baseUrl ?? BASE, cliVersion: 'test', now: o.now, ...(o.account !== undefined ? { account: o.account } : {}),
  });
}

describe('findReusable', () => {
  it('finds the newest matching record and nothing that differs in account, service, fields or status', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'geo-reuse-'));
    const q = { sha256: PARIS_SHA, request: { scope: { lng: 2.35, lat: 48.86, name: 'Paris' }, depth: 3 }, baseUrl: BASE, account: ACCOUNT };
    expect(await findReusable(dir, q)).toBeUndefined();
    await saveRecord(dir, record({ id: 'an_legacy', now: Date.UTC(2026, 0, 1) })); // no account: before fingerprints
    await saveRecord(dir, record({ id: 'an_other_acct', now: Date.UTC(2026, 0, 2), account: 'ffffffffffffffffffff' }));
    await saveRecord(dir, record({ id: 'an_other_base', now: Date.UTC(2026, 0, 3), account: ACCOUNT, baseUrl: 'https://oceanir.ai' }));
    await saveRecord(dir, record({ id: 'an_effort', now: Date.UTC(2026, 0, 4), account: ACCOUNT, request: { depth: 3, scope, effort: 'low' } }));
    expect(await findReusable(dir, q)).toBeUndefined();
    await saveRecord(dir, record({ id: 'an_old', now: Date.UTC(2026, 0, 5), account: ACCOUNT }));
    await saveRecord(dir, record({ id: 'an_new', now: Date.UTC(2026, 0, 6), account: ACCOUNT }));
    await saveRecord(dir, record({ id: 'an_newest_but_202', now: Date.UTC(2026, 0, 7), account: ACCOUNT, status: 202 }));
    const hit = await findReusable(dir, q);
    expect(hit?.record.response.body.analysis_id).toBe('an_new');
    expect(hit?.file).toContain(PARIS_SHA);
    expect(await findReusable(dir, { ...q, request: { ...q.request, depth: 2 } })).toBeUndefined();
    expect(await findReusable(dir, { ...q, request: { ...q.request, async: true } })).toBeUndefined();
  });
});
