/**
 * Cases in the store (issue 24, src/store/sqlite/cases.ts): migration 2 upgrades a database of schema 1
 * in place; a case and its case_created entry land together; an append that would not be an entry
 * stores nothing; and two processes appending to one case at the same moment both land, every
 * entry once, the chain intact (BEGIN IMMEDIATE: the second reads the first's entry as its last).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordCase } from '../../src/commands/cases/local.js';
import { parseEntry } from '../../src/evidence/custody.js';
import { verifyChain } from '../../src/evidence/custody-verify.js';
import { asStoreApi } from '../../src/store/index.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/sqlite/schema.js';
import { parisRecord } from '../export/fixtures.js';
import { dbRows, openStore } from '../helpers/store.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'geo-cases-'));
const ROOT = new URL('../../', import.meta.url).pathname;
const CHILD = new URL('./custody-child.ts', import.meta.url).pathname;

async function newCase(data: string, name = 'Harbour fire') {
  const store = openStore(data);
  try {
    return await recordCase({ storeApi: async () => asStoreApi(store, Date.now), now: Date.now, version: 'test' }, { name, description: '', team: null });
  } finally {
    store.close();
  }
}

describe('cases in the store', () => {
  it('a database of schema 1 is migrated in place: its results kept, the case tables added', () => {
    const data = tmp();
    const Database = createRequire(import.meta.url)('libsql') as new (p: string) => { exec(s: string): void; close(): void };
    const db = new Database(join(data, 'geo.db'));
    db.exec(MIGRATIONS[0]!);
    db.exec('PRAGMA user_version = 1');
    db.close();
    const store = openStore(data);
    const id = store.insertResult({ record: parisRecord(), sandbox: false, listed: true });
    store.close();
    // Migrated to the newest schema (later issues add migrations after 2).
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(2);
    expect(dbRows<{ user_version: number }>(data, 'PRAGMA user_version')[0]!.user_version).toBe(SCHEMA_VERSION);
    expect(dbRows(data, "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('cases', 'case_results', 'custody') ORDER BY name").map((r) => r.name)).toEqual(['case_results', 'cases', 'custody']);
    expect(dbRows(data, 'SELECT id FROM results')).toEqual([{ id }]);
  });

  it('a case lands with its case_created entry; its count and head are pinned on the case row', async () => {
    const data = tmp();
    const c = await newCase(data);
    expect(c).toMatchObject({ name: 'Harbour fire', service: null, custody_entries: 1, results: 0 });
    const [row] = dbRows<{ case_id: string; seq: number; line: string }>(data, 'SELECT case_id, seq, line FROM custody');
    const entry = parseEntry(row!.line);
    expect(entry).toMatchObject({ case: c.id, seq: 1, event: 'case_created', data: { case: { id: c.id, name: 'Harbour fire' } } });
    expect(c.custody_head).toBe(entry.hash);
  });

  it('an append whose line is not an entry stores nothing', async () => {
    const data = tmp();
    const c = await newCase(data);
    const store = openStore(data);
    try {
      await expect(store.cases().append(c.id, () => '{"not":"an entry"}')).rejects.toThrow(/schema is not geo.custody\/1/);
    } finally {
      store.close();
    }
    expect(dbRows(data, 'SELECT count(*) AS n FROM custody')).toEqual([{ n: 1 }]);
  });

  it('two processes appending to one case at once: both land, every entry once, the chain intact', async () => {
    const data = tmp();
    const c = await newCase(data);
    const start = join(tmp(), 'go');
    const n = 100;
    const run = (tag: string) => new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify({ data, caseId: c.id, n, tag, start })], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (b: Buffer) => (out += b.toString()));
      child.stderr.on('data', (b: Buffer) => (out += b.toString()));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`child ${tag} exited ${code}: ${out}`))));
    });
    const both = Promise.all([run('a'), run('b')]);
    // Both children are loaded and polling before either may append.
    await new Promise((r) => setTimeout(r, 1500));
    writeFileSync(start, '');
    expect(await both).toEqual(['done\n', 'done\n']);
    const lines = dbRows<{ line: string }>(data, 'SELECT line FROM custody WHERE case_id = ? ORDER BY seq', c.id).map((r) => r.line);
    expect(lines).toHaveLength(1 + 2 * n);
    expect(verifyChain(lines, { caseId: c.id })).toMatchObject({ ok: true, entries: 1 + 2 * n });
    const entries = lines.map(parseEntry);
    for (const tag of ['a', 'b']) expect(entries.filter((e) => e.user === tag).map((e) => (e.data.file as { size: number }).size)).toEqual([...Array(n).keys()]);
    // Interleaved, not one after the other: the appends really did overlap.
    const users = entries.slice(1).map((e) => e.user).join('');
    expect(users).not.toBe('a'.repeat(n) + 'b'.repeat(n));
    expect(users).not.toBe('b'.repeat(n) + 'a'.repeat(n));
    expect(dbRows(data, 'SELECT custody_entries, custody_head FROM cases WHERE id = ?', c.id)).toEqual([{ custody_entries: 1 + 2 * n, custody_head: entries.at(-1)!.hash }]);
  }, 30_000);
});
