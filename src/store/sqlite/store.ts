/**
 * The ONE local database (DESIGN.md "Layers": src/store/): results with their raw bytes, claims,
 * batch heads; migrations; the import of older files. Nothing else in geo opens it or writes SQL.
 *
 * Every method turns SQLite's errors into a StoreError that names the file and what to do, so a
 * caller holding a paid answer can still print it and say which key replays it (batch/ledger.ts).
 */
import { StoreError } from '../../errors.js';
import { type BatchRow, findBatches, saveBatch } from './batches.js';
import {
  type AcquireOptions, type Acquired, type ClaimRow, type FailedError, LEASE_MS, Owner, type ProcessProbe,
  acquire, claimByKey, currentClaim, currentClaims, markAnswered, markFailed, openClaim, release, releaseAll, renew,
} from './claims.js';
import { type ImportReport, type LegacyFolders, importJournal, importLegacy } from './import.js';
import type { HeadLine } from '../../batch/journal-format.js';
import { type FileHash, type FileStamp, RACY_MS, fileHashes, sameStamp, saveFileHashes } from './file-hashes.js';
import { dbPath, openDatabase, storeError } from './open.js';
import {
  type NewResult, type ResultRow, type ReuseQuery, type ReuseRef, type StoredResult,
  byAnalysisId, bySha, getResult, imagesWithPrefix, insertResult, iterateResults, listedCount, newestRows, reusable, reusableMany, sandboxCount, searchRows, setExif,
} from './results.js';
import { type Tag, type TaggedRow, batchStarts, newestTagged, resultsByIds, sinceInBatch, tagsOf } from './scenes.js';
import type { Sql } from './sqlite.js';
import { CaseStore } from './case-store.js';
import { TimestampStore } from './timestamps.js';
import { type StoredEmbedded, getEmbedded, saveEmbedded } from './embedded.js';
import type { EmbeddedProvenance } from '../../image/embedded.js';
import { SqliteBudget } from './budget.js';
import { SqliteRows } from './rows.js';
import { type PaidBy, paidBy } from './paid-by.js';
import { analyst } from '../analyst.js';

export type { CaseLinked, CaseResultRow, CaseRow, NewCase } from './case-store.js';
export type { NewTimestamp, StampedReply, TimestampRow, TimestampState } from './timestamps.js';
export type { CaseStore, TimestampStore };
export type { StoredEmbedded };
export type { Acquired, ClaimRow, FailedError, NewResult, ProcessProbe, ResultRow, ReuseQuery, ReuseRef, StoredResult, BatchRow, ImportReport, LegacyFolders, Tag, TaggedRow };
export { KEY_REUSED, fingerprint, parseError } from './claims.js';
export { dbPath } from './open.js';

export interface OpenOptions {
  probe: ProcessProbe;
  now: () => number;
  /** Older files to import once (JSON records, NDJSON journals); absent, none. */
  legacy?: LegacyFolders;
  /** A line for stderr (damaged legacy files, the import's summary). */
  warn?: (line: string) => void;
}

export class Store {
  readonly path: string;
  readonly owner: Owner;
  private renewal: ReturnType<typeof setInterval> | undefined;
  private closed = false;
  /** Whether any legacy claim without an account, or any damaged legacy file, exists (read once). */
  private accountless: boolean | undefined;
  private damaged: boolean | undefined;
  private caseStore: CaseStore | undefined;
  private timestampStore: TimestampStore | undefined;
  private budgetStore: SqliteBudget | undefined;

  private constructor(private readonly sql: Sql, readonly dataDir: string, private readonly opts: OpenOptions) {
    this.path = dbPath(dataDir);
    this.owner = new Owner(opts.probe);
  }

  static open(dataDirPath: string, opts: OpenOptions): Store {
    const store = new Store(openDatabase(dataDirPath), dataDirPath, opts);
    if (opts.legacy) store.guard(() => importLegacy(store.sql, opts.legacy!, opts.now(), opts.warn ?? (() => undefined)));
    return store;
  }

  /** SQLite's errors as StoreErrors naming this file. */
  private guard<T>(fn: () => T): T {
    if (this.closed) throw new StoreError(`${this.path} is closed`, 'other');
    try {
      return fn();
    } catch (err) {
      throw storeError(err, this.path);
    }
  }

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
  private *guarded<T>(make: () => Iterator<T>): Generator<T> {
    const it = this.guard(make);
    for (;;) {
      const next = this.guard(() => it.next());
      if (next.done) return;
      yield next.value;
    }
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

  // Claims.
  acquire(fp: string, o: Omit<AcquireOptions, 'owner' | 'now'>): Acquired {
    this.startRenewal();
    return this.guard(() => acquire(this.sql, fp, { ...o, owner: this.owner, now: this.opts.now() }));
  }
  claim(key: string): ClaimRow | undefined {
    return this.guard(() => claimByKey(this.sql, key));
  }
  currentClaim(fp: string): ClaimRow | undefined {
    return this.guard(() => currentClaim(this.sql, fp));
  }
  currentClaims(fps: readonly string[]): Map<string, ClaimRow> {
    return this.guard(() => currentClaims(this.sql, fps));
  }
  /** Whether an open claim's holder may still be sending (another live process), or it is free to take. */
  heldElsewhere(c: ClaimRow): boolean {
    return c.state === 'open' && c.owner !== null && !this.owner.isMe(c.owner) && this.owner.mayBeAlive(c.owner, c.lease_until, this.opts.now());
  }
  /** The answer and its claim's completion, in one transaction: committed before anyone shows it. */
  answer(key: string, r: NewResult, credits: number): number {
    return this.guard(() => this.sql.tx(() => {
      const id = insertResult(this.sql, r);
      markAnswered(this.sql, key, id, credits, this.opts.now());
      return id;
    }));
  }
  /** A claim imported without an account (legacy journal) rebound to this account's fingerprint, open, to be resent. */
  adoptLegacyClaim(legacyFp: string, fp: string): string | undefined {
    // Most stores never held such a journal: one look at a flag, then no per-image query at all.
    this.accountless ??= this.guard(() => this.sql.one("SELECT 1 FROM meta WHERE name = 'accountless_claims'") !== undefined);
    if (!this.accountless) return undefined;
    // Read first: nearly every image has no such claim, and a read takes no write lock.
    if (!this.guard(() => currentClaim(this.sql, legacyFp))) return undefined;
    return this.guard(() => this.sql.tx(() => {
      const c = currentClaim(this.sql, legacyFp);
      // Another key already holds this request open: it goes first (claims.ts acquire), never a second open claim beside it.
      if (!c || c.fp === fp || openClaim(this.sql, fp)) return undefined;
      this.sql.run("UPDATE claims SET fp = ?, state = 'open', result_id = NULL, error = NULL, owner = NULL, lease_until = NULL, updated_at = ? WHERE key = ?", fp, this.opts.now(), c.key);
      return c.key;
    }));
  }
  fail(key: string, error: FailedError): void {
    this.guard(() => markFailed(this.sql, key, error, this.opts.now()));
  }
  release(key: string): void {
    this.guard(() => release(this.sql, key, this.owner, this.opts.now()));
  }

  /** Local cases, their results and custody logs (case-store.ts). */
  cases(): CaseStore {
    return (this.caseStore ??= new CaseStore(this.sql, (fn) => this.guard(fn), this.opts.now));
  }

  /** Trusted-timestamp requests of custody heads: pending, stamped or failed (timestamps.ts). */
  timestamps(): TimestampStore {
    return (this.timestampStore ??= new TimestampStore(this.sql, (fn) => this.guard(fn), this.opts.now));
  }

  /** The credit budget and its spend (budget.ts). */
  budget(): SqliteBudget {
    return (this.budgetStore ??= new SqliteBudget(this.sql, (fn) => this.guard(fn), this.opts.now));
  }

  /** Every row as stored, for `geo store push` and `geo store status` (rows.ts). */
  rows(): SqliteRows {
    return new SqliteRows(this.sql, <T>(fn: () => T) => this.guard(fn));
  }

  // What originals said about themselves before they were stripped (sqlite/embedded.ts).
  saveEmbedded(sha256: string, e: EmbeddedProvenance): void {
    this.guard(() => saveEmbedded(this.sql, sha256, e, new Date(this.opts.now()).toISOString()));
  }
  embedded(sha256: string): StoredEmbedded | undefined {
    return this.guard(() => getEmbedded(this.sql, sha256));
  }

  // Batches.
  saveBatch(id: string, head: Record<string, unknown>): void {
    this.guard(() => saveBatch(this.sql, id, head, this.opts.now()));
  }
  findBatches(prefix: string): BatchRow[] {
    return this.guard(() => findBatches(this.sql, prefix));
  }

  /** A journal file's keys and answers into claims and results (`--resume FILE`, `--journal FILE`). */
  importJournal(file: string, text: string, batchId: string): HeadLine {
    return this.guard(() => this.sql.tx(() => importJournal(this.sql, file, text, this.opts.now(), batchId)));
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

  /** Legacy files that could not be imported and held a record of this image (never paid again silently). */
  damagedFor(sha256: string): string[] {
    this.damaged ??= this.guard(() => this.sql.one("SELECT 1 FROM legacy_files WHERE outcome = 'damaged' LIMIT 1") !== undefined);
    if (!this.damaged) return [];
    return this.guard(() => this.sql.all<{ file: string }>("SELECT file FROM legacy_files WHERE sha256 = ? AND outcome = 'damaged'", sha256).map((r) => r.file));
  }

  /** PRAGMA integrity_check (geo doctor): 'ok' or the first problems SQLite names. */
  integrity(): string {
    return this.guard(() => this.sql.all<{ integrity_check: string }>('PRAGMA integrity_check(5)').map((r) => r.integrity_check).join('; '));
  }

  private startRenewal(): void {
    if (this.renewal || this.closed) return;
    this.renewal = setInterval(() => {
      try {
        renew(this.sql, this.owner, this.opts.now());
      } catch {
        // A busy or full store: the lease runs out and another process takes over, which is safe.
      }
    }, LEASE_MS / 3);
    this.renewal.unref();
  }

  /** Releases this process's open claims (a rerun resends their keys at once) and closes. */
  close(): void {
    if (this.closed) return;
    if (this.renewal) clearInterval(this.renewal);
    try {
      releaseAll(this.sql, this.owner, this.opts.now());
    } catch {
      // Their leases run out instead.
    }
    this.closed = true;
    this.sql.db.close();
  }
}
