/**
 * Files already hashed on this machine, on a team store (the local file's sqlite/file-hashes.ts,
 * keyed by host too: a path means nothing on another machine). Read 500 paths a query; the new
 * ones written back in one statement (arrays unnested), not one a round trip in a transaction.
 */
import type { Pool } from 'pg';
import type { FileHashCache } from '../api.js';
import type { FileStamp } from '../result-rows.js';
import { RACY_MS, sameStamp } from '../sqlite/file-hashes.js';

const PAGE = 500;

type Known = { dev: number; ino: number; size: number; mtime_ms: number; ctime_ms: number; sha256: string; kind: string };

const UPSERT = `INSERT INTO file_hashes (host, path, dev, ino, size, mtime_ms, ctime_ms, sha256, kind)
  SELECT $1, * FROM unnest($2::text[], $3::float8[], $4::float8[], $5::bigint[], $6::float8[], $7::float8[], $8::text[], $9::text[])
  ON CONFLICT (host, path) DO UPDATE SET dev = excluded.dev, ino = excluded.ino, size = excluded.size, mtime_ms = excluded.mtime_ms, ctime_ms = excluded.ctime_ms, sha256 = excluded.sha256, kind = excluded.kind`;

export async function teamFileHashCache(q: <T>(fn: (p: Pool) => Promise<T>) => Promise<T>, host: string, paths: readonly string[], now: () => number): Promise<FileHashCache> {
  const known = new Map<string, Known>();
  for (let i = 0; i < paths.length; i += PAGE) {
    const rows = await q(async (p) => (await p.query<Known & { path: string }>('SELECT path, dev, ino, size, mtime_ms, ctime_ms, sha256, kind FROM file_hashes WHERE host = $1 AND path = ANY($2)', [host, paths.slice(i, i + PAGE)])).rows);
    for (const r of rows) known.set(r.path, r);
  }
  // By path: one statement may not update a row twice (ON CONFLICT), so a path put twice keeps its last.
  const fresh = new Map<string, { s: FileStamp; sha256: string; kind: string }>();
  return {
    get: (path, s) => {
      const r = known.get(path);
      return r && sameStamp(r, s) ? { sha256: r.sha256, kind: r.kind } : undefined;
    },
    put: (path, s, h) => {
      if (s.ctimeMs >= now() - RACY_MS) return;
      fresh.set(path, { s: { dev: s.dev, ino: s.ino, size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs }, ...h });
    },
    async flush() {
      const rows = [...fresh];
      fresh.clear();
      if (!rows.length) return;
      const col = <T>(f: (r: { s: FileStamp; sha256: string; kind: string }) => T) => rows.map(([, r]) => f(r));
      await q((p) => p.query(UPSERT, [host, rows.map(([path]) => path), col((r) => r.s.dev), col((r) => r.s.ino), col((r) => r.s.size), col((r) => r.s.mtimeMs), col((r) => r.s.ctimeMs), col((r) => r.sha256), col((r) => r.kind)]))
        .catch(() => undefined); // only a cache: the files are hashed again next time
    },
  };
}
