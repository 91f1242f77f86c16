/**
 * The results half of the local store (Store, store.ts, builds on it): paid answers with their
 * raw bytes, the scenes they gather back into, what originals said about themselves, and the
 * cache of file hashes that finds an input's results again without reading it.
 */
import type { EmbeddedProvenance } from '../../image/embedded.js';
import { analyst } from '../analyst.js';
import type { FileHashCache } from '../api.js';
import { fileHashCache } from '../file-hash-cache.js';
import type { NewResult, ResultRow, ReuseQuery, ReuseRef, StoredEmbedded, StoredResult, Tag, TaggedRow } from '../result-rows.js';
import { getEmbedded, saveEmbedded } from './embedded.js';
import { fileHashes, saveFileHashes } from './file-hashes.js';
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
   * A cache of file hashes for these paths (store/file-hash-cache.ts): get() answers from one
   * query made now, put() remembers, written a thousand at a time in one transaction each.
   */
  fileHashCache(paths: readonly string[]): FileHashCache {
    const known = this.guard(() => fileHashes(this.sql, paths));
    return fileHashCache(known, { now: () => this.opts.now(), write: (rows) => saveFileHashes(this.sql, rows), flushAt: 1000 });
  }
}
