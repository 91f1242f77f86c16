/**
 * Files already hashed (store/schema.ts file_hashes): a path's sha256 and image type, trusted only
 * while its device, inode, size, mtime and ctime are all unchanged. ctime cannot be set back by
 * any tool (touch -d sets mtime only), so a file rewritten in place is read again. A file whose
 * ctime is within the last two seconds when it is hashed is not remembered: it may still be being
 * written within the filesystem's timestamp resolution (git's "racy" entries).
 */
import type { Sql } from './sqlite.js';
import type { FileHash, FileStamp } from '../result-rows.js';

interface Row extends FileHash {
  path: string;
  dev: number;
  ino: number;
  size: number;
  mtime_ms: number;
  ctime_ms: number;
}

/** How recent a change may be and still be remembered (see above). */
export const RACY_MS = 2000;

export function sameStamp(r: Pick<Row, 'dev' | 'ino' | 'size' | 'mtime_ms' | 'ctime_ms'>, s: FileStamp): boolean {
  return r.dev === s.dev && r.ino === s.ino && r.size === s.size && r.mtime_ms === s.mtimeMs && r.ctime_ms === s.ctimeMs;
}

/** The remembered rows of these paths, one query per 500. */
export function fileHashes(sql: Sql, paths: readonly string[]): Map<string, Row> {
  const out = new Map<string, Row>();
  for (let i = 0; i < paths.length; i += 500) {
    const chunk = paths.slice(i, i + 500);
    for (const r of sql.all<Row>(`SELECT path, dev, ino, size, mtime_ms, ctime_ms, sha256, kind FROM file_hashes WHERE path IN (${chunk.map(() => '?').join(',')})`, ...chunk)) out.set(r.path, r);
  }
  return out;
}

export function saveFileHashes(sql: Sql, rows: ReadonlyArray<{ path: string; stamp: FileStamp } & FileHash>): void {
  sql.tx(() => {
    for (const r of rows) {
      sql.run(
        'INSERT INTO file_hashes (path, dev, ino, size, mtime_ms, ctime_ms, sha256, kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(path) DO UPDATE SET dev = excluded.dev, ino = excluded.ino, size = excluded.size, mtime_ms = excluded.mtime_ms, ctime_ms = excluded.ctime_ms, sha256 = excluded.sha256, kind = excluded.kind',
        r.path, r.stamp.dev, r.stamp.ino, r.stamp.size, r.stamp.mtimeMs, r.stamp.ctimeMs, r.sha256, r.kind,
      );
    }
  });
}
