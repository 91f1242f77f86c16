/**
 * A team store's SQL for the cache of file hashes (store/file-hash-cache.ts holds the idea), keyed
 * by host too: a path means nothing on another machine. Read 500 paths a query; the new ones
 * written back in one statement (arrays unnested), not one a round trip in a transaction.
 */
import type { Pool } from 'pg';
import type { FileHashCache } from '../api.js';
import { type KnownHash, fileHashCache } from '../file-hash-cache.js';

const PAGE = 500;

const UPSERT = `INSERT INTO file_hashes (host, path, dev, ino, size, mtime_ms, ctime_ms, sha256, kind)
  SELECT $1, * FROM unnest($2::text[], $3::float8[], $4::float8[], $5::bigint[], $6::float8[], $7::float8[], $8::text[], $9::text[])
  ON CONFLICT (host, path) DO UPDATE SET dev = excluded.dev, ino = excluded.ino, size = excluded.size, mtime_ms = excluded.mtime_ms, ctime_ms = excluded.ctime_ms, sha256 = excluded.sha256, kind = excluded.kind`;

export async function teamFileHashCache(q: <T>(fn: (p: Pool) => Promise<T>) => Promise<T>, host: string, paths: readonly string[], now: () => number): Promise<FileHashCache> {
  const known = new Map<string, KnownHash>();
  for (let i = 0; i < paths.length; i += PAGE) {
    const rows = await q(async (p) => (await p.query<KnownHash & { path: string }>('SELECT path, dev, ino, size, mtime_ms, ctime_ms, sha256, kind FROM file_hashes WHERE host = $1 AND path = ANY($2)', [host, paths.slice(i, i + PAGE)])).rows);
    for (const r of rows) known.set(r.path, r);
  }
  return fileHashCache(known, {
    now,
    write: async (rows) => {
      const col = <T>(f: (r: (typeof rows)[number]) => T) => rows.map(f);
      await q((p) => p.query(UPSERT, [host, col((r) => r.path), col((r) => r.stamp.dev), col((r) => r.stamp.ino), col((r) => r.stamp.size), col((r) => r.stamp.mtimeMs), col((r) => r.stamp.ctimeMs), col((r) => r.sha256), col((r) => r.kind)]));
    },
  });
}
