/**
 * The local SQLite file behind the asynchronous interface (api.ts): a thin adapter over the
 * synchronous Store (store.ts), which every caller not yet moved to StoreApi keeps using directly
 * during the move. Each call runs the same synchronous statement, so what made
 * a claim one indivisible step (BEGIN IMMEDIATE) still does.
 */
import type {
  AcquireRequest, Acquired, Analyst, BatchRow, CaseApi, ClaimRow, FailedError, FileHashCache, NewResult, ResultRow, ReuseQuery, ReuseRef,
  StoreApi, StoreStatus, StoredEmbedded, StoredResult, Tag, TaggedRow, TimestampApi,
} from '../api.js';
import type { KeptFilesApi } from '../kept-rows.js';
import type { PerceptualApi } from '../perceptual-rows.js';
import type { CopyLinksApi } from '../copy-links.js';
import type { EmbeddedProvenance } from '../../image/embedded.js';
import type { HeadLine } from '../journal-format.js';
import { SCHEMA_VERSION } from './schema.js';
import type { Store } from './store.js';
import type { SqliteBudget } from './budget.js';

export class SqliteEngine implements StoreApi {
  readonly kind = 'local' as const;
  readonly budget: SqliteBudget;
  readonly cases: CaseApi;
  readonly timestamps: TimestampApi;
  readonly kept: KeptFilesApi;
  readonly perceptual: PerceptualApi;
  readonly copies: CopyLinksApi;

  constructor(readonly sync: Store, private readonly now: () => number) {
    this.kept = { put: async (b, t) => sync.keepFile(b, t), get: async (sha) => sync.keptFile(sha) };
    this.budget = sync.budget();
    this.perceptual = sync.perceptual().api();
    this.copies = sync.copies();
    const c = sync.cases();
    this.cases = {
      create: async (n, first) => c.create(n, first),
      list: async () => c.list(),
      find: async (ref) => c.find(ref),
      linked: async (id) => c.linked(id),
      isLinked: async (id, r) => c.isLinked(id, r),
      lines: (id) => c.lines(id),
      append: (id, make) => c.append(id, make),
      linking: (r) => c.linking(r),
    };
    const t = sync.timestamps();
    this.timestamps = {
      queue: async (x) => t.queue(x),
      pending: async (id) => t.pending(id),
      forCase: async (id) => t.forCase(id),
      stamped: async (id, s) => t.stamped(id, s),
      unreachable: async (id, e) => t.unreachable(id, e),
      failed: async (id, e) => t.failed(id, e),
    };
  }

  get where(): string {
    return this.sync.path;
  }
  get owner(): string {
    return this.sync.owner.id;
  }

  /** The lease judged by this machine's clock, as the file's claims always were. */
  private leased<T extends ClaimRow | undefined>(c: T): T {
    return c && ({ ...c, leased: c.lease_until !== null && c.lease_until > this.now() } as T);
  }

  async saveEmbedded(sha256: string, e: EmbeddedProvenance): Promise<void> {
    this.sync.saveEmbedded(sha256, e);
  }
  async embedded(sha256: string): Promise<StoredEmbedded | undefined> {
    return this.sync.embedded(sha256);
  }

  async insertResult(r: NewResult): Promise<number> {
    return this.sync.insertResult(r);
  }
  async setExif(id: number, exif: unknown): Promise<void> {
    this.sync.setExif(id, exif);
  }
  async result(id: number): Promise<StoredResult | undefined> {
    return this.sync.result(id);
  }
  async newest(limit: number): Promise<ResultRow[]> {
    return this.sync.newest(limit);
  }
  async count(): Promise<number> {
    return this.sync.count();
  }
  async search(text: string, limit: number): Promise<{ rows: ResultRow[]; total: number; capped: boolean }> {
    return this.sync.search(text, limit);
  }
  async bySha(prefix: string): Promise<StoredResult[]> {
    return this.sync.bySha(prefix);
  }
  async byAnalysisId(id: string): Promise<StoredResult[]> {
    return this.sync.byAnalysisId(id);
  }
  async imagesWithPrefix(prefix: string, n: number): Promise<string[]> {
    return this.sync.imagesWithPrefix(prefix, n);
  }
  async reusable(q: ReuseQuery): Promise<ReuseRef | undefined> {
    return this.sync.reusable(q);
  }
  async reusableMany(shas: readonly string[], q: Omit<ReuseQuery, 'sha256'>): Promise<Map<string, ReuseRef>> {
    return this.sync.reusableMany(shas, q);
  }
  async *iterate(opts: { includeSandbox: boolean; latestPerImage?: boolean }): AsyncGenerator<StoredResult> {
    yield* this.sync.iterate(opts);
  }
  async sandboxCount(): Promise<number> {
    return this.sync.sandboxCount();
  }
  /** The analyst the file recorded for the result's key, else this machine's user (paid-by.ts). */
  async paidBy(ids: readonly number[]): Promise<Map<number, Analyst & { at: string }>> {
    return this.sync.paidBy(ids);
  }

  async *newestTagged(): AsyncGenerator<TaggedRow> {
    yield* this.sync.newestTagged();
  }
  async tagsOf(ids: readonly number[]): Promise<Map<number, Tag>> {
    return this.sync.tagsOf(ids);
  }
  async batchStarts(ids: readonly string[]): Promise<Map<string, number>> {
    return this.sync.batchStarts(ids);
  }
  async sinceInBatch(batch: string, since: string): Promise<TaggedRow[]> {
    return this.sync.sinceInBatch(batch, since);
  }
  async resultsByIds(ids: readonly number[]): Promise<StoredResult[]> {
    return this.sync.resultsByIds(ids);
  }

  async acquire(fp: string, o: AcquireRequest): Promise<Acquired> {
    return this.sync.acquire(fp, o);
  }
  async claim(key: string): Promise<ClaimRow | undefined> {
    return this.leased(this.sync.claim(key));
  }
  async currentClaim(fp: string): Promise<ClaimRow | undefined> {
    return this.leased(this.sync.currentClaim(fp));
  }
  async currentClaims(fps: readonly string[]): Promise<Map<string, ClaimRow>> {
    const out = new Map<string, ClaimRow>();
    for (const [fp, c] of this.sync.currentClaims(fps)) out.set(fp, this.leased(c));
    return out;
  }
  heldElsewhere(c: ClaimRow): boolean {
    return c.state === 'open' && c.owner !== null && !this.sync.owner.isMe(c.owner) && this.sync.owner.mayHold(c.owner, c.leased ?? (c.lease_until !== null && c.lease_until > this.now()));
  }
  async answer(key: string, r: NewResult, credits: number): Promise<number> {
    return this.sync.answer(key, r, credits);
  }
  async fail(key: string, error: FailedError): Promise<void> {
    this.sync.fail(key, error);
  }
  async release(key: string): Promise<void> {
    this.sync.release(key);
  }
  async adoptLegacyClaim(legacyFp: string, fp: string): Promise<string | undefined> {
    return this.sync.adoptLegacyClaim(legacyFp, fp);
  }
  async damagedFor(sha256: string): Promise<string[]> {
    return this.sync.damagedFor(sha256);
  }

  async saveBatch(id: string, head: Record<string, unknown>): Promise<void> {
    this.sync.saveBatch(id, head);
  }
  async findBatches(prefix: string): Promise<BatchRow[]> {
    return this.sync.findBatches(prefix);
  }

  async importJournal(file: string, text: string, batchId: string): Promise<HeadLine> {
    return this.sync.importJournal(file, text, batchId);
  }

  async fileHashCache(paths: readonly string[]): Promise<FileHashCache> {
    return this.sync.fileHashCache(paths);
  }

  async status(): Promise<StoreStatus> {
    const rows = this.sync.rows();
    const t0 = performance.now();
    const schema = rows.schemaVersion();
    const rttMs = performance.now() - t0;
    return { kind: 'local', where: this.where, schema, knows: SCHEMA_VERSION, rttMs, counts: rows.counts() };
  }

  async close(): Promise<void> {
    this.sync.close();
  }
}
