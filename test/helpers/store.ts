/**
 * The store (src/store/) for tests that need results in place before a command runs: they are
 * written through the store module itself, as geo writes them.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { processProbe } from '../../src/cli.js';
import type { ProvenanceRecord } from '../../src/evidence/records.js';
import { Store } from '../../src/store/index.js';

export function openStore(dataDir: string): Store {
  return Store.open(dataDir, { probe: processProbe(), now: Date.now });
}

/** Stores one record as a result (listed, not a sandbox's unless said); returns its row id. */
export function saveRecord(dataDir: string, rec: ProvenanceRecord, opts: { sandbox?: boolean } = {}): number {
  const store = openStore(dataDir);
  try {
    return store.insertResult({ record: rec, sandbox: Boolean(opts.sandbox), listed: true });
  } finally {
    store.close();
  }
}

/** Every listed result's record, oldest first (what history and export see). */
export function storedRecords(dataDir: string, opts: { includeSandbox?: boolean } = { includeSandbox: true }): ProvenanceRecord[] {
  const store = openStore(dataDir);
  try {
    return [...store.iterate({ includeSandbox: opts.includeSandbox ?? true })].map((r) => r.record);
  } finally {
    store.close();
  }
}

/**
 * Rows of the store read as an outside observer would (sqlite3 on the file), read-only: what the
 * tests check is what is on disk, not what geo's own reading of it says.
 */
export function dbRows<T = Record<string, unknown>>(dataDir: string, sql: string, ...params: unknown[]): T[] {
  const Database = createRequire(import.meta.url)('libsql') as new (path: string, opts?: { readonly?: boolean }) => { prepare(s: string): { all(...p: unknown[]): T[] }; close(): void };
  const db = new Database(join(dataDir, 'geo.db'), { readonly: true });
  try {
    return db.prepare(sql).all(...params);
  } finally {
    db.close();
  }
}
