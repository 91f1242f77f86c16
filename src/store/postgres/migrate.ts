/**
 * The team store's schema version (schema.ts): checked by every command, applied only by `geo store
 * migrate` (an admin role: analysts' roles have no DDL, docs/store.md "A team store"). A store behind this
 * geo is refused with the command that brings it up; a store ahead of it (written by a newer geo)
 * is refused with "upgrade geo", as the local file is (sqlite/open.ts).
 */
import type { Pool, QueryResult } from 'pg';
import { StoreError } from '../../errors.js';
import { maskStoreUrl } from '../../config/team-store-url.js';
import { inTx } from './driver.js';
import { PG_MIGRATIONS, PG_SCHEMA_VERSION } from './schema.js';
import { VersionGate } from './version-gate.js';

/** The version the server holds, on every command's first round trip (version-gate.ts). */
export const VERSION_SQL = 'SELECT coalesce(max(version), 0) AS v FROM schema_version';

/**
 * What VERSION_SQL answered: 0 for a database geo never migrated. The table is read at once and
 * its absence (42P01, undefined_table) means 0, rather than asking to_regclass first.
 */
function versionOf(r: QueryResult<{ v: number | null }> | undefined, err: unknown): number {
  if (err !== undefined) {
    if ((err as { code?: string }).code === '42P01') return 0;
    throw err;
  }
  return Number(r?.rows[0]?.v ?? 0);
}

/** A store migrated by a newer geo: this one neither uses nor migrates it. */
function newerError(v: number, url: string, hint: string): StoreError {
  return new StoreError(`the team store ${maskStoreUrl(url)} was migrated by a newer geo (schema ${v}; this geo knows ${PG_SCHEMA_VERSION})`, 'newer', hint);
}

/** Refuses a store this geo cannot use as it is (before anything is read or written). */
function usableVersion(v: number, url: string): number {
  const where = maskStoreUrl(url);
  if (v > PG_SCHEMA_VERSION) throw newerError(v, url, 'upgrade geo (npm install -g geo-cli), or run with --store local');
  if (v < PG_SCHEMA_VERSION) {
    throw new StoreError(
      v === 0 ? `the team store ${where} has no geo schema yet` : `the team store ${where} has schema ${v}; this geo needs ${PG_SCHEMA_VERSION}`,
      'older', 'its admin runs: geo store migrate (with a role that may create tables); --store local uses this machine\'s store meanwhile',
    );
  }
  return v;
}

/** The gate a command's pool passes: the version checked with its first query (version-gate.ts). */
export function versionGate(url: string): VersionGate {
  return new VersionGate(VERSION_SQL, (r, err) => void usableVersion(versionOf(r as QueryResult<{ v: number | null }> | undefined, err), url));
}

/**
 * Applies the migrations the server lacks, in one transaction (all or none); two admins migrating at
 * once are serialised by an advisory lock (the second finds nothing left to do).
 */
export async function migrate(pool: Pool, url: string): Promise<{ from: number; to: number }> {
  return inTx(pool, async (c) => {
    await c.query('SELECT pg_advisory_xact_lock(7321032)');
    await c.query('CREATE TABLE IF NOT EXISTS schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now(), applied_by text NOT NULL DEFAULT current_user)');
    const from = versionOf(await c.query<{ v: number | null }>(VERSION_SQL), undefined);
    if (from > PG_SCHEMA_VERSION) throw newerError(from, url, 'upgrade geo first');
    for (let v = from; v < PG_SCHEMA_VERSION; v++) {
      await c.query(PG_MIGRATIONS[v]!);
      await c.query('INSERT INTO schema_version (version) VALUES ($1)', [v + 1]);
    }
    return { from, to: PG_SCHEMA_VERSION };
  });
}
