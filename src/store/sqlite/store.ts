/**
 * The ONE local database (DESIGN.md "Layers": src/store/): results with their raw bytes, claims,
 * batch heads; migrations; the import of older files. Nothing else in geo opens it or writes SQL.
 * The results half is result-store.ts; the file and its error guard, store-file.ts.
 *
 * Every method turns SQLite's errors into a StoreError that names the file and what to do, so a
 * caller holding a paid answer can still print it and say which key replays it (batch/ledger.ts).
 */
import { keepFile, keptFile } from './kept-files.js';
import type { KeptFile } from '../kept-rows.js';
import { findBatches, saveBatch } from './batches.js';
import {
  type AcquireOptions, LEASE_MS, Owner, type ProcessProbe,
  acquire, claimByKey, currentClaim, currentClaims, markAnswered, markFailed, openClaim, release, releaseAll, renew,
} from './claims.js';
import { type ImportReport, type LegacyFolders, importJournal, importLegacy } from './import.js';
import type { HeadLine } from '../journal-format.js';
import { openDatabase } from './open.js';
import { insertResult } from './results.js';
import type { Sql } from './sqlite.js';
import { CaseStore } from './case-store.js';
import { TimestampStore } from './timestamps.js';
import { SqlitePerceptual } from './perceptual.js';
import { sqliteCopyLinks } from './copy-links.js';
import type { CopyLinksApi } from '../copy-links.js';
import { SqliteBudget } from './budget.js';
import { SqliteRows } from './rows.js';
import { ResultStore } from './result-store.js';
import type { OpenOptions } from './store-file.js';
import type { Acquired, BatchRow, ClaimRow, FailedError } from '../claim-rows.js';
import type { NewResult, ResultRow, ReuseQuery, ReuseRef, StoredEmbedded, StoredResult, Tag, TaggedRow } from '../result-rows.js';

export type { CaseLinked, CaseResultRow, CaseRow, NewCase, NewTimestamp, StampedReply, TimestampRow, TimestampState } from '../case-rows.js';
export type { CaseStore, TimestampStore };
export type { StoredEmbedded };
export type { Acquired, ClaimRow, FailedError, NewResult, ProcessProbe, ResultRow, ReuseQuery, ReuseRef, StoredResult, BatchRow, ImportReport, LegacyFolders, Tag, TaggedRow };
export type { OpenOptions };
export { KEY_REUSED, fingerprint, parseError } from './claims.js';
export { dbPath } from './open.js';

export class Store extends ResultStore {
  readonly owner: Owner;
  private renewal: ReturnType<typeof setInterval> | undefined;
  /** Whether any legacy claim without an account, or any damaged legacy file, exists (read once). */
  private accountless: boolean | undefined;
  private damaged: boolean | undefined;
  private caseStore: CaseStore | undefined;
  private timestampStore: TimestampStore | undefined;
  private budgetStore: SqliteBudget | undefined;
  private perceptualStore: SqlitePerceptual | undefined;
  private copyLinks: CopyLinksApi | undefined;

  private constructor(sql: Sql, dataDir: string, opts: OpenOptions) {
    super(sql, dataDir, opts);
    this.owner = new Owner(opts.probe);
  }

  static open(dataDirPath: string, opts: OpenOptions): Store {
    const store = new Store(openDatabase(dataDirPath), dataDirPath, opts);
    if (opts.legacy) store.guard(() => importLegacy(store.sql, opts.legacy!, opts.now(), opts.warn ?? (() => undefined)));
    return store;
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

  /** Bytes kept on purpose by sha256: exhibits, working copies, kept originals (kept-files.ts). */
  keepFile(bytes: Uint8Array, mediaType: string): { sha256: string; size: number } {
    return this.guard(() => keepFile(this.sql, bytes, mediaType, new Date(this.opts.now()).toISOString()));
  }
  keptFile(sha256: string): KeptFile | undefined {
    return this.guard(() => keptFile(this.sql, sha256));
  }

  /** Perceptual hashes of images and the near-duplicate index over them (perceptual.ts). */
  perceptual(): SqlitePerceptual {
    return (this.perceptualStore ??= new SqlitePerceptual(this.sql, (fn) => this.guard(fn), this.opts.now));
  }

  /** Results that are copies of earlier ones (copy-links.ts). */
  copies(): CopyLinksApi {
    return (this.copyLinks ??= sqliteCopyLinks(this.sql, (fn) => this.guard(fn), this.opts.now));
  }

  /** The credit budget and its spend (budget.ts). */
  budget(): SqliteBudget {
    return (this.budgetStore ??= new SqliteBudget(this.sql, (fn) => this.guard(fn), this.opts.now));
  }

  /** Every row as stored, for `geo store push` and `geo store status` (rows.ts). */
  rows(): SqliteRows {
    return new SqliteRows(this.sql, <T>(fn: () => T) => this.guard(fn));
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
