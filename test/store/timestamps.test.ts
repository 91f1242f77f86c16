/**
 * Timestamp requests in the store (issue 31, item 3; src/store/sqlite/timestamps.ts, migration 3): a store
 * of schema 2 (cases, no timestamps) is migrated in place; a request is recorded pending before
 * anything is sent, once per (case, head, TSA); an unreachable TSA keeps it pending, a refusal
 * fails it (and asking again makes it pending), a reply that holds is kept byte for byte; and the
 * table refuses by itself what the API never writes (a stamped row without its reply, a bad head).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processProbe } from '../../src/cli.js';
import { Store } from '../../src/store/index.js';
import { MIGRATIONS } from '../../src/store/sqlite/schema.js';
import { dbRows, openStore } from '../helpers/store.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'geo-stamps-'));
const head = (s: string) => createHash('sha256').update(s).digest('hex');
const TSA = 'https://tsa.example.org/tsr';

describe('timestamp requests in the store', () => {
  it('a store of schema 2 is migrated in place: its case kept, the timestamps table added', () => {
    const data = tmp();
    const Database = createRequire(import.meta.url)('libsql') as new (p: string) => { exec(s: string): void; close(): void };
    const db = new Database(join(data, 'geo.db'));
    db.exec(MIGRATIONS[0]!);
    db.exec(MIGRATIONS[1]!);
    db.exec("INSERT INTO cases (id, name, created_at) VALUES ('lc_1', 'Harbour fire', '2026-01-01T00:00:00.000Z'); PRAGMA user_version = 2");
    db.close();
    const store = openStore(data);
    store.timestamps().queue({ caseId: 'lc_1', head: head('a'), tsa: TSA });
    store.close();
    expect(dbRows<{ user_version: number }>(data, 'PRAGMA user_version')[0]!.user_version).toBeGreaterThanOrEqual(3);
    expect(dbRows(data, 'SELECT id, name FROM cases')).toEqual([{ id: 'lc_1', name: 'Harbour fire' }]);
    expect(dbRows(data, 'SELECT case_id, state, attempts FROM timestamps')).toEqual([{ case_id: 'lc_1', state: 'pending', attempts: 0 }]);
  });

  it('queued once per (case, head, TSA), pending oldest first; unreachable keeps it pending and counts the attempt', () => {
    const data = tmp();
    let t = Date.parse('2026-03-01T10:00:00Z');
    const store = Store.open(data, { probe: processProbe(), now: () => t });
    try {
      const stamps = store.timestamps();
      const first = stamps.queue({ caseId: 'lc_1', head: head('a'), seq: 4, tsa: TSA });
      t += 1000;
      expect(stamps.queue({ caseId: 'lc_1', head: head('a'), seq: 4, tsa: TSA })).toEqual(first);
      const other = stamps.queue({ caseId: 'lc_1', head: head('a'), tsa: 'https://other.example/tsr' });
      stamps.queue({ caseId: 'lc_2', head: head('b'), tsa: TSA });
      expect(first).toMatchObject({ case_id: 'lc_1', head: head('a'), seq: 4, tsa: TSA, state: 'pending', requested_at: '2026-03-01T10:00:00.000Z', attempts: 0, reply: null });
      expect(stamps.pending().map((r) => r.id)).toEqual([first.id, other.id, other.id + 1]);
      expect(stamps.pending('lc_2')).toHaveLength(1);
      const tried = stamps.unreachable(first.id, 'cannot connect to tsa.example.org (ENOTFOUND)');
      expect(tried).toMatchObject({ state: 'pending', attempts: 1, last_error: 'cannot connect to tsa.example.org (ENOTFOUND)' });
    } finally {
      store.close();
    }
  });

  it('a reply that holds is kept byte for byte; a refusal fails the request and asking again makes it pending', () => {
    const data = tmp();
    const store = openStore(data);
    const reply = Buffer.from([0x30, 0x82, 0x00, 0xff, 0x00, 0x0a, 0x0d, 0x1a]);
    try {
      const stamps = store.timestamps();
      const a = stamps.queue({ caseId: 'lc_1', head: head('a'), tsa: TSA });
      expect(stamps.stamped(a.id, { reply, caPem: '-----BEGIN CERTIFICATE-----\n…', genTime: '2026-03-01T10:00:05.000Z' })).toBe(true);
      // A second process that got a token too finds it stamped already: the first one stays.
      expect(stamps.stamped(a.id, { reply: Buffer.from('other'), caPem: '', genTime: '2026-03-01T10:00:06.000Z' })).toBe(false);
      expect(stamps.queue({ caseId: 'lc_1', head: head('a'), tsa: TSA })).toMatchObject({ state: 'stamped', attempts: 1 });
      const b = stamps.queue({ caseId: 'lc_1', head: head('b'), tsa: TSA });
      expect(stamps.failed(b.id, 'the TSA refused the request: status rejection (badAlg)')).toMatchObject({ state: 'failed', attempts: 1 });
      expect(stamps.pending()).toEqual([]);
      expect(stamps.queue({ caseId: 'lc_1', head: head('b'), tsa: TSA })).toMatchObject({ id: b.id, state: 'pending', attempts: 1 });
      expect(stamps.forCase('lc_1').map((r) => r.state)).toEqual(['stamped', 'pending']);
    } finally {
      store.close();
    }
    // What is on disk, read by sqlite3 itself: the reply's exact bytes.
    const hex = execFileSync('sqlite3', [join(data, 'geo.db'), "SELECT hex(reply) FROM timestamps WHERE state = 'stamped'"], { encoding: 'utf8' }).trim();
    expect(hex).toBe(reply.toString('hex').toUpperCase());
  });

  it('the table itself refuses a stamped row without its reply and a head that is not a SHA-256', () => {
    const data = tmp();
    const store = openStore(data);
    expect(() => store.timestamps().queue({ caseId: 'lc_1', head: 'not-a-head', tsa: TSA })).toThrow(/64 lowercase hex digits/);
    store.timestamps().queue({ caseId: 'lc_1', head: head('a'), tsa: TSA });
    store.close();
    const sqlite = (sql: string) => execFileSync('sqlite3', [join(data, 'geo.db'), sql], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(() => sqlite("UPDATE timestamps SET state = 'stamped'")).toThrow(/CHECK constraint failed/);
    expect(() => sqlite("INSERT INTO timestamps (case_id, head, tsa, state, requested_at) VALUES ('lc_1', 'abc', 'x', 'pending', 'now')")).toThrow(/CHECK constraint failed/);
    expect(() => sqlite("UPDATE timestamps SET state = 'lost'")).toThrow(/CHECK constraint failed/);
  });
});
