/**
 * The results half of the local store (Store, store.ts, builds on it): paid answers with their
 * raw bytes, the scenes they gather back into, what originals said about themselves, and the
 * cache of file hashes that finds an input's results again without reading it.
 */
import type { EmbeddedProvenance } from '../../image/embedded.js';
import { analyst } from '../analyst.js';
import type { FileHash, FileStamp, NewResult, ResultRow, ReuseQuery, ReuseRef, StoredEmbedded, StoredResult, Tag, TaggedRow } from '../result-rows.js';
import { getEmbedded, saveEmbedded } from './embedded.js';
import { RACY_MS, fileHashes, sameStamp, saveFileHashes } from './file-hashes.js';
import { type PaidBy, paidBy } from './paid-by.js';
import {
  byAnalysisId, bySha, getResult, imagesWithPrefix, insertResult, iterateResults, listedCount, newestRows, reusable, reusableMany, sandboxCount, searchRows, setExif,
} from './results.js';
import { batchStarts, newestTagged, resultsByIds, sinceInBatch, tagsOf } from './scenes.js';
import { StoreFile } from './store-file.js';

export abstract class ResultStore extends StoreFile {
  // Results.
  insertResult(r: NewResult): number {
    return this.guard(() => insertResult(this.sql, r));
  }
  /** Many results in one transaction (one commit, one fsync): bulk loads, bench/store.mjs. */
  insertMany(rs: readonly NewResult[]): void {
    this.guard(() => this.sql.tx(() => {
      for (const r of rs) insertResult(this.sql, r);
    }));
  }
  setExif(id: number, exif: unknown): void {
    this.guard(() => setExif(this.sql, id, exif));
  }
  result(id: number): StoredResult | undefined {
    return this.guard(() => getResult(this.sql, id));
  }
  newest(limit: number): ResultRow[] {
    return this.guard(() => newestRows(this.sql, limit));
  }
  count(): number {
    return this.guard(() => listedCount(this.sql));
  }
  search(text: string, limit: number): { rows: ResultRow[]; total: number; capped: boolean } {
    return this.guard(() => searchRows(this.sql, text, limit));
  }
  bySha(prefix: string): StoredResult[] {
    return this.guard(() => bySha(this.sql, prefix));
  }
  byAnalysisId(id: string): StoredResult[] {
    return this.guard(() => byAnalysisId(this.sql, id));
  }
  /** Who paid for these results and when (paid-by.ts): the analyst recorded, else this machine's user. */
  paidBy(ids: readonly number[]): Map<number, PaidBy> {
    return this.guard(() => paidBy(this.sql, ids, analyst()));
  }
  imagesWithPrefix(prefix: string, n: number): string[] {
    return this.guard(() => imagesWithPrefix(this.sql, prefix, n));
  }
  reusable(q: ReuseQuery): ReuseRef | undefined {
    return this.guard(() => reusable(this.sql, q));
  }
  reusableMany(shas: readonly string[], q: Omit<ReuseQuery, 'sha256'>): Map<string, ReuseRef> {
    return this.guard(() => reusableMany(this.sql, shas, q));
  }
  /** Streams rows; a damaged page met mid-way is a StoreError too. */
  iterate(opts: { includeSandbox: boolean; latestPerImage?: boolean }): Generator<StoredResult> {
    return this.guarded(() => iterateResults(this.sql, opts));
  }

  // The frames of a video and the photos of a set, gathered back (store/scenes.ts).
  newestTagged(): Generator<TaggedRow> {
    return this.guarded(() => newestTagged(this.sql));
  }
  tagsOf(ids: readonly number[]): Map<number, Tag> {
    return this.guard(() => tagsOf(this.sql, ids));
  }
  batchStarts(ids: readonly string[]): Map<string, number> {
    return this.guard(() => batchStarts(this.sql, ids));
  }
  sinceInBatch(batch: string, since: string): TaggedRow[] {
    return this.guard(() => sinceInBatch(this.sql, batch, since));
  }
  resultsByIds(ids: readonly number[]): StoredResult[] {
    return this.guard(() => resultsByIds(this.sql, ids));
  }
  sandboxCount(): number {
    return this.guard(() => sandboxCount(this.sql));
  }

  // What originals said about themselves before they were stripped (sqlite/embedded.ts).
  saveEmbedded(sha256: string, e: EmbeddedProvenance): void {
    this.guard(() => saveEmbedded(this.sql, sha256, e, new Date(this.opts.now()).toISOString()));
  }
  embedded(sha256: string): StoredEmbedded | undefined {
    return this.guard(() => getEmbedded(this.sql, sha256));
  }

  /**
   * A cache of file hashes for these paths (store/file-hashes.ts): get() answers from one query
   * made now, put() remembers, flush() writes what was put in one transaction. A store that cannot
   * be written only loses the cache (the files are hashed again next time).
   */
  fileHashCache(paths: readonly string[]): { get(path: string, s: FileStamp): FileHash | undefined; put(path: string, s: FileStamp, h: FileHash): void; flush(): void } {
    const known = this.guard(() => fileHashes(this.sql, paths));
    const fresh: Array<{ path: string; stamp: FileStamp } & FileHash> = [];
    const flush = () => {
      try {
        if (fresh.length) saveFileHashes(this.sql, fresh.splice(0));
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
        if (s.ctimeMs >= this.opts.now() - RACY_MS) return;
        // The five numbers, not the caller's fs.Stats (a batch of 100,000 files would hold them all),
        // written a thousand at a time (memory that does not grow with the batch).
        fresh.push({ path, stamp: { dev: s.dev, ino: s.ino, size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs }, ...h });
        if (fresh.length >= 1000) flush();
      },
      flush,
    };
  }
}
