/**
 * Files already hashed (schema: file_hashes), the idea both engines share: a path's sha256 and
 * image type, trusted only while its device, inode, size, mtime and ctime are all unchanged. ctime
 * cannot be set back by any tool (touch -d sets mtime only), so a file rewritten in place is read
 * again. A file whose ctime is within the last two seconds when it is hashed is not remembered: it
 * may still be being written within the filesystem's timestamp resolution (git's "racy" entries).
 *
 * Each engine keeps only its SQL: the rows it read for these paths, and how it writes the new ones
 * (sqlite/file-hashes.ts, postgres/file-hashes.ts).
 */
import type { FileHashCache } from './api.js';
import type { FileHash, FileStamp } from './result-rows.js';

/** How recent a change may be and still be remembered (see above). */
export const RACY_MS = 2000;

/** A remembered row as both engines store it. */
export interface KnownHash extends FileHash {
  dev: number;
  ino: number;
  size: number;
  mtime_ms: number;
  ctime_ms: number;
}

/** A file hashed in this run, to be written back. */
export type FreshHash = { path: string; stamp: FileStamp } & FileHash;

export function sameStamp(r: Pick<KnownHash, 'dev' | 'ino' | 'size' | 'mtime_ms' | 'ctime_ms'>, s: FileStamp): boolean {
  return r.dev === s.dev && r.ino === s.ino && r.size === s.size && r.mtime_ms === s.mtimeMs && r.ctime_ms === s.ctimeMs;
}

/**
 * get() answers from the rows read once (`known`), put() remembers, flush() writes what was put.
 * `flushAt`: written that many at a time as they come (memory that does not grow with the batch).
 * A write that fails only loses the cache: the files are hashed again next time.
 */
export function fileHashCache(known: ReadonlyMap<string, KnownHash>, o: { now: () => number; write: (rows: FreshHash[]) => void | Promise<void>; flushAt?: number }): FileHashCache {
  // By path: a path put twice keeps its last (one statement may not update a row twice).
  const fresh = new Map<string, FreshHash>();
  const flush = async (): Promise<void> => {
    const rows = [...fresh.values()];
    fresh.clear();
    if (!rows.length) return;
    try {
      await o.write(rows);
    } catch {
      // Only a cache: the next run hashes these files again.
    }
  };
  return {
    get: (path, s) => {
      const r = known.get(path);
      return r && sameStamp(r, s) ? { sha256: r.sha256, kind: r.kind } : undefined;
    },
    put: (path, s, h) => {
      if (s.ctimeMs >= o.now() - RACY_MS) return;
      // The five numbers, not the caller's fs.Stats (a batch of 100,000 files would hold them all).
      fresh.set(path, { path, stamp: { dev: s.dev, ino: s.ino, size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs }, sha256: h.sha256, kind: h.kind });
      // A synchronous write (the local file) is done before this returns.
      if (o.flushAt !== undefined && fresh.size >= o.flushAt) void flush();
    },
    flush,
  };
}
