/**
 * The local file's SQL for the cache of file hashes (store/file-hash-cache.ts holds the idea:
 * which stamp is trusted, which change is too recent to remember).
 */
import type { Sql } from './sqlite.js';
import type { FreshHash, KnownHash } from '../file-hash-cache.js';

/** The remembered rows of these paths, one query per 500. */
export function fileHashes(sql: Sql, paths: readonly string[]): Map<string, KnownHash> {
  const out = new Map<string, KnownHash>();
  for (let i = 0; i < paths.length; i += 500) {
    const chunk = paths.slice(i, i + 500);
    for (const r of sql.all<KnownHash & { path: string }>(`SELECT path, dev, ino, size, mtime_ms, ctime_ms, sha256, kind FROM file_hashes WHERE path IN (${chunk.map(() => '?').join(',')})`, ...chunk)) out.set(r.path, r);
  }
  return out;
}

export function saveFileHashes(sql: Sql, rows: readonly FreshHash[]): void {
  sql.tx(() => {
    for (const r of rows) {
      sql.run(
        'INSERT INTO file_hashes (path, dev, ino, size, mtime_ms, ctime_ms, sha256, kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(path) DO UPDATE SET dev = excluded.dev, ino = excluded.ino, size = excluded.size, mtime_ms = excluded.mtime_ms, ctime_ms = excluded.ctime_ms, sha256 = excluded.sha256, kind = excluded.kind',
        r.path, r.stamp.dev, r.stamp.ino, r.stamp.size, r.stamp.mtimeMs, r.stamp.ctimeMs, r.sha256, r.kind,
      );
    }
  });
}
