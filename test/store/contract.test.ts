/**
 * The store's contract (issue 32, src/store/api.ts), the SAME cases against both engines: the local
 * SQLite file and a real PostgreSQL (test/helpers/postgres.ts; skipped, with the reason, where none
 * can be started). "Two machines" are two StoreApi instances with owners of their own (another
 * pid, and for the team store another host name), over one store.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CustodyLog } from '../../src/evidence/custody-log.js';
import { buildRecord } from '../../src/evidence/records.js';
import { METADATA_FORMAT } from '../../src/image/metadata.js';
import { type ProcessProbe, type StoreApi, openStore } from '../../src/store/index.js';
import { forensicBody } from '../export/fixtures.js';
import { freshStore, type Postgres, startPostgres } from '../helpers/postgres.js';

const BASE = 'http://127.0.0.1:4010';
const sha = (n: number) => n.toString(16).padStart(64, '0');
const aliveProbe = (pid: number): ProcessProbe => ({ pid, start: '1', alive: () => true });

function record(i: number, o: { city?: string; input?: string } = {}) {
  const body = forensicBody({ analysis_id: `an_${i}` });
  if (o.city) (body.location as Record<string, unknown>).city = o.city;
  return buildRecord({
    input: { path: o.input ?? `img_${String(i).padStart(3, '0')}.jpg`, sha256: sha(i) },
    request: { image_b64: 'AAAA', depth: 1 },
    response: { data: body, raw: JSON.stringify(body), status: 200, headers: {}, replayed: false, idempotencyKey: `key-${i}` },
    baseUrl: BASE, cliVersion: 'test', now: Date.parse('2026-03-01T00:00:00Z') + i * 1000, account: 'acct',
  });
}

let pg: Postgres | undefined;
let skip = '';
beforeAll(async () => {
  const started = startPostgres();
  if ('skip' in started) skip = started.skip;
  else pg = started;
}, 120_000);
afterAll(() => pg?.stop());

/** admin: the store as its admin opens it (the team store's budget is the admin's); spender: how budget show names an analyst reserving as { user: 'ana', host: 'h1' }. */
type Engine = { name: string; open(pid: number, o?: { now?: () => number }): Promise<StoreApi>; admin(): Promise<StoreApi | undefined>; spender: string; fresh(): Promise<void> };

let dataDir = '';
const engines: Engine[] = [
  {
    name: 'local SQLite',
    fresh: async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'geo-contract-'));
    },
    open: (pid, o = {}) => openStore({ kind: 'local', dataDir }, { probe: aliveProbe(pid), now: o.now ?? Date.now }),
    admin: () => Promise.resolve(undefined),
    spender: 'ana@h1',
  },
  {
    name: 'team PostgreSQL',
    fresh: async () => {
      await freshStore(pg!);
    },
    open: (pid, o = {}) => openStore({ kind: 'team', url: pg!.analystUrl }, { probe: aliveProbe(pid), now: o.now ?? Date.now }),
    admin: () => openStore({ kind: 'team', url: pg!.adminUrl }, { probe: aliveProbe(9009), now: Date.now }),
    // The role the server authenticated, not the OS user the machine sent.
    spender: 'geo_analyst',
  },
];

describe.each(engines)('the store contract: $name', (engine) => {
  const ready = () => engine.name === 'local SQLite' || pg !== undefined;
  let a: StoreApi;
  let b: StoreApi;
  const both = async () => {
    if (!ready()) return false;
    await engine.fresh();
    a = await engine.open(1001);
    b = await engine.open(2002);
    return true;
  };
  const done = async () => {
    await a?.close();
    await b?.close();
  };

  it('results: a record and its raw bytes come back as stored, listed newest first, found by sha256, analysis id and words', async (t) => {
    if (!(await both())) return t.skip(skip);
    try {
      const raw = Buffer.from('{"a":1,"bad":"\xff"}', 'latin1');
      const id = await a.insertResult({ record: record(1, { city: 'Paris' }), rawBytes: raw, sandbox: false, listed: true });
      await a.insertResult({ record: record(2, { city: 'Tokyo' }), sandbox: false, listed: true });
      expect((await b.result(id))!.raw).toEqual(raw);
      expect((await b.newest(5)).map((r) => r.analysis_id)).toEqual(['an_2', 'an_1']);
      expect(await b.count()).toBe(2);
      expect((await b.bySha(sha(1))).map((r) => r.id)).toEqual([id]);
      expect(await b.imagesWithPrefix(sha(1).slice(0, 8), 5)).toHaveLength(2);
      expect((await b.byAnalysisId('an_2')).length).toBe(1);
      expect((await b.search('pari', 10)).rows.map((r) => r.analysis_id)).toEqual(['an_1']);
      expect((await b.search('img 002', 10)).rows.map((r) => r.analysis_id)).toEqual(['an_2']);
      // The same answer (same key) is never stored twice.
      expect(await b.insertResult({ record: record(1, { city: 'Paris' }), rawBytes: raw, sandbox: false, listed: true })).toBe(id);
    } finally {
      await done();
    }
  });

  it('embedded: what an original said about itself is kept once per sha256 and read back as stored', async (t) => {
    if (!(await both())) return t.skip(skip);
    try {
      const first = { metadata: { format: METADATA_FORMAT as typeof METADATA_FORMAT, tags: { 'EXIF:Make': 'Canon' } }, c2pa: { present: false as const } };
      await a.saveEmbedded(sha(7), first);
      await b.saveEmbedded(sha(7), { ...first, metadata: { format: METADATA_FORMAT as typeof METADATA_FORMAT, tags: { 'EXIF:Make': 'Other' } } });
      const got = (await b.embedded(sha(7)))!;
      expect(got).toMatchObject({ sha256: sha(7), metadata: first.metadata, c2pa: { present: false } });
      expect(await a.embedded(sha(8))).toBeUndefined();
    } finally {
      await done();
    }
  });

  it('file hashes: a hash put by one opener is found by another while the file\'s stamp is unchanged; a changed stamp, or a change in the last two seconds, is not trusted', async (t) => {
    if (!(await both())) return t.skip(skip);
    try {
      const old = { dev: 1, ino: 2, size: 3, mtimeMs: Date.now() - 60_000, ctimeMs: Date.now() - 60_000 };
      const racy = { ...old, ino: 4, ctimeMs: Date.now() - 500 };
      const put = await a.fileHashCache(['/x/old.jpg', '/x/racy.jpg']);
      expect(put.get('/x/old.jpg', old)).toBeUndefined();
      put.put('/x/old.jpg', old, { sha256: sha(1), kind: 'jpeg' });
      put.put('/x/racy.jpg', racy, { sha256: sha(2), kind: 'jpeg' });
      await put.flush();
      const got = await b.fileHashCache(['/x/old.jpg', '/x/racy.jpg']);
      expect(got.get('/x/old.jpg', old)).toEqual({ sha256: sha(1), kind: 'jpeg' });
      expect(got.get('/x/old.jpg', { ...old, ctimeMs: old.ctimeMs + 1 })).toBeUndefined();
      expect(got.get('/x/racy.jpg', racy)).toBeUndefined();
    } finally {
      await done();
    }
  });

  it('claims: two machines asking for one fingerprint at once: exactly one sends, the other waits, then reads the answer', async (t) => {
    if (!(await both())) return t.skip(skip);
    try {
      const fp = 'f'.repeat(64);
      const got = await Promise.all([a.acquire(fp, { input: 'x.jpg' }), b.acquire(fp, { input: 'x.jpg' })]);
      const sends = got.filter((g) => g.kind === 'send');
      expect(sends).toHaveLength(1);
      expect(got.map((g) => g.kind).sort()).toEqual(['send', 'wait']);
      expect(new Set(got.map((g) => g.key)).size).toBe(1);
      const winner = got[0]!.kind === 'send' ? a : b;
      const other = winner === a ? b : a;
      const held = (await other.claim(sends[0]!.key))!;
      expect(other.heldElsewhere(held)).toBe(true);
      await winner.answer(sends[0]!.key, { record: record(7), sandbox: false, listed: true }, 1);
      const after = await other.acquire(fp, {});
      expect(after.kind).toBe('answered');
    } finally {
      await done();
    }
  });

  it('leases: an owner on another host is gone only when its lease ran out by the store\'s clock, then its key is resent', async (t) => {
    if (!(await both())) return t.skip(skip);
    // A laptop whose clock is 10 hours ahead: on the team store its clock decides nothing.
    const skewed = await engine.open(3003, { now: () => Date.now() + 10 * 3600_000 });
    try {
      const fp = 'e'.repeat(64);
      const first = await a.acquire(fp, {});
      expect(first.kind).toBe('send');
      if (engine.name === 'team PostgreSQL') {
        // Another host's owner: no pid probe, its live lease holds whatever this laptop's clock says.
        pg!.sql(`UPDATE claims SET owner = 'elsewhere:42:1:abcd' WHERE key = '${first.key}'`);
        expect((await skewed.acquire(fp, {})).kind).toBe('wait');
        pg!.sql(`UPDATE claims SET lease_until = geo_now_ms() - 1 WHERE key = '${first.key}'`);
      } else {
        // The local file's clock is this machine's: its lease has run out for the skewed one.
      }
      const taken = await skewed.acquire(fp, {});
      expect(taken).toMatchObject({ kind: 'send', key: first.key, takeover: true });
    } finally {
      await skewed.close();
      await done();
    }
  });

  it('budget: reservations from two machines at once never pass the cap; settle counts the charge, release lets it go', async (t) => {
    if (!(await both())) return t.skip(skip);
    try {
      const admin = await engine.admin();
      await (admin ?? a).budget.set(10, 'month');
      await admin?.close();
      const who = { user: 'ana', host: 'h1' };
      const tries = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).budget.reserve(`k${i}`, 3, { ...who, caseId: 'lc_1' })));
      const ok = tries.filter((r) => r.ok).length;
      expect(ok).toBe(3);
      const keys = tries.map((r, i) => (r.ok ? `k${i}` : '')).filter(Boolean);
      await a.budget.settle(keys[0]!, 1);
      await b.budget.release(keys[1]!);
      // A key resent after its process died keeps its one reservation.
      expect(await b.budget.reserve(keys[2]!, 3, who)).toEqual({ ok: true });
      expect(await a.budget.get()).toMatchObject({ cap: 10, per: 'month', spent: 1, reserved: 3 });
      expect((await a.budget.reserve('k-new', 6, who)).ok).toBe(true);
      expect((await a.budget.reserve('k-over', 1, who)).ok).toBe(false);
      await a.budget.settle(keys[2]!, 3);
      const spend = await b.budget.spend();
      expect(spend.byAnalyst).toEqual([{ who: engine.spender, credits: 4, requests: 2 }]);
      expect(spend.byCase).toEqual([{ who: 'lc_1', credits: 4, requests: 2 }]);
    } finally {
      await done();
    }
  });

  it('custody: two machines appending to one case at once: every entry lands and the chain verifies', async (t) => {
    if (!(await both())) return t.skip(skip);
    try {
      const { serializeEntry, sealEntry } = await import('../../src/evidence/custody.js');
      const actor = { user: 'ana', host: 'm1', geo: 'test' };
      await a.cases.create({ id: 'lc_t2', name: 'Harbour fire', description: '', team: null, created_at: new Date().toISOString(), service: null, service_id: null, service_note: null },
        () => serializeEntry(sealEntry(undefined, 'lc_t2', { event: 'case_created', data: { case: { id: 'lc_t2', name: 'Harbour fire' } } }, actor, new Date())));
      const logA = new CustodyLog(a.cases, actor, Date.now);
      const logB = new CustodyLog(b.cases, { user: 'bo', host: 'm2', geo: 'test' }, Date.now);
      const ev = (n: number) => ({ event: 'input_hashed' as const, data: { input: { path: `p${n}.jpg`, sha256: sha(n), size: n } } });
      await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? logA : logB).append('lc_t2', ev(i))));
      const report = await logA.verify('lc_t2');
      expect(report).toMatchObject({ ok: true, entries: 21 });
      const row = (await b.cases.find('lc_t2'))[0]!;
      expect(row.custody_entries).toBe(21);
      const users = (await b.cases.lines('lc_t2')).map((l) => (JSON.parse(l) as { user: string }).user);
      expect(new Set(users)).toEqual(new Set(['ana', 'bo']));
    } finally {
      await done();
    }
  });
});

describe('the team store counts a search to PG_COUNT_CAP (200), or to the page asked for', () => {
  it('250 Lisbons: "20 of 200+", newest first; --limit 230 counts to 230+; a rarer word is counted exactly', async (t) => {
    if (!pg) return t.skip(skip);
    await freshStore(pg!);
    const s = await openStore({ kind: 'team', url: pg.analystUrl }, { probe: aliveProbe(3003), now: Date.now });
    try {
      for (let i = 1; i <= 250; i++) await s.insertResult({ record: record(i, { city: i % 50 === 0 ? 'Porto' : 'Lisbon' }), sandbox: false, listed: true });
      const page = await s.search('lisbon', 20);
      expect({ total: page.total, capped: page.capped }).toEqual({ total: 200, capped: true });
      expect(page.rows.map((r) => r.analysis_id).slice(0, 2)).toEqual(['an_249', 'an_248']);
      expect(await s.search('lisbon', 230)).toMatchObject({ total: 230, capped: true });
      expect(await s.search('porto', 20)).toMatchObject({ total: 5, capped: false });
    } finally {
      await s.close();
    }
  }, 60_000);
});
