/**
 * A team's PostgreSQL server behind the asynchronous interface (api.ts). One pool of a
 * few connections per geo process; every statement's error becomes one StoreError line
 * (driver.ts pgError) that never holds the URL's password. Claims: claims.ts; results:
 * results.ts; cases and custody: cases.ts; the budget: budget.ts.
 */
import { PgKeptFiles } from './kept-files.js';
import { PgPerceptual } from './perceptual.js';
import { pgCopyLinks } from './copy-links.js';
import type { CopyLinksApi } from '../copy-links.js';
import type { Pool } from 'pg';
import { StoreError } from '../../errors.js';
import type {
  AcquireRequest, Acquired, Analyst, BatchRow, ClaimRow, FailedError, FileHashCache, NewResult, ResultRow, ReuseQuery, ReuseRef,
  StoreApi, StoreStatus, StoredEmbedded, StoredResult, Tag, TaggedRow,
} from '../api.js';
import type { EmbeddedProvenance } from '../../image/embedded.js';
import type { HeadLine } from '../journal-format.js';
import { LEASE_MS, Owner, type ProcessProbe } from '../sqlite/claims.js';
import { FULL_COLUMNS, type FullRow, LIST_COLUMNS, resultColumnsOf, toStored } from '../sqlite/results.js';
import { maskStoreUrl } from '../../config/team-store-url.js';
import { analyst } from '../analyst.js';
import { PgBudget } from './budget.js';
import { PgCases, PgTimestamps } from './cases.js';
import * as claims from './claims.js';
import { pushJournal } from './push.js';
import { endPool, inTx, pgError } from './driver.js';
import { teamStatus } from './status.js';
import { teamFileHashCache } from './file-hashes.js';
import * as results from './results.js';
import { type PaidColumns, Seen, TAG_COLUMNS } from './seen.js';

const PAGE = 500;

export interface PgOptions {
  probe: ProcessProbe;
  now: () => number;
}

export class PgEngine implements StoreApi {
  readonly kind = 'team' as const;
  readonly where: string;
  readonly budget: PgBudget;
  /** Who paid for, and the tags of, the results this process read (seen.ts): history asks for them after reading a page. */
  private readonly seen = new Seen();
  readonly cases: PgCases;
  readonly timestamps: PgTimestamps;
  readonly kept: PgKeptFiles;
  readonly perceptual: PgPerceptual;
  readonly copies: CopyLinksApi;
  private readonly ownerOf: Owner;
  private whoMemo: Analyst | undefined;
  private listedWithPage: number | undefined;
  private renewal: ReturnType<typeof setInterval> | undefined;
  private closed = false;

  constructor(readonly pool: Pool, private readonly url: string, private readonly opts: PgOptions) {
    this.where = maskStoreUrl(url);
    this.ownerOf = new Owner(opts.probe);
    const guard = <T>(fn: () => Promise<T>) => this.guard(fn);
    this.budget = new PgBudget(pool, guard);
    this.cases = new PgCases(pool, guard, opts.now);
    this.timestamps = new PgTimestamps(pool, guard, opts.now);
    this.kept = new PgKeptFiles(pool, guard, opts.now);
    this.perceptual = new PgPerceptual(pool, guard, opts.now, () => this.who.host, (r) => this.seen.keepPaid(r));
    this.copies = pgCopyLinks(pool, guard, opts.now, this.seen);
  }

  /** Who stores and pays here: read on first write, not on open (os.userInfo reads /etc/passwd, ~1 ms a look-up never needs). */
  get who(): Analyst {
    return (this.whoMemo ??= analyst());
  }

  get owner(): string {
    return this.ownerOf.id;
  }

  /** The driver's errors as StoreErrors naming this store (password masked). */
  async guard<T>(fn: () => Promise<T>): Promise<T> {
    if (this.closed) throw new StoreError(`the team store ${this.where} is closed`, 'other');
    try {
      return await fn();
    } catch (err) {
      throw pgError(err, this.url);
    }
  }
  private q<T>(fn: (p: Pool) => Promise<T>): Promise<T> {
    return this.guard(() => fn(this.pool));
  }

  // The same bytes always say the same: the first reading is kept (sqlite/embedded.ts).
  saveEmbedded(sha256: string, e: EmbeddedProvenance): Promise<void> {
    return this.q(async (p) => {
      await p.query('INSERT INTO embedded (sha256, read_at, metadata, c2pa) VALUES ($1, $2, $3, $4) ON CONFLICT (sha256) DO NOTHING', [sha256, new Date(this.opts.now()).toISOString(), JSON.stringify(e.metadata), JSON.stringify(e.c2pa)]);
    });
  }
  embedded(sha256: string): Promise<StoredEmbedded | undefined> {
    return this.q(async (p) => {
      const r = (await p.query<{ sha256: string; read_at: string; metadata: string; c2pa: string }>('SELECT sha256, read_at, metadata, c2pa FROM embedded WHERE sha256 = $1', [sha256])).rows[0];
      return r ? { sha256: r.sha256, read_at: r.read_at, metadata: JSON.parse(r.metadata) as StoredEmbedded['metadata'], c2pa: JSON.parse(r.c2pa) as StoredEmbedded['c2pa'] } : undefined;
    });
  }

  insertResult(r: NewResult): Promise<number> {
    const { row, search } = resultColumnsOf(r);
    return this.q((p) => results.insertRow(p, row, search, this.who));
  }
  setExif(id: number, exif: unknown): Promise<void> {
    // One statement: the record is rewritten in the server, so two writers never lose each other's change.
    return this.q(async (p) => {
      await p.query("UPDATE results SET record = jsonb_set(record::jsonb, '{exif}', $2::jsonb)::text WHERE id = $1", [id, JSON.stringify(exif ?? null)]);
    });
  }
  result(id: number): Promise<StoredResult | undefined> {
    return this.q((p) => results.getResult(p, id));
  }
  newest(limit: number): Promise<ResultRow[]> {
    return this.q((p) => results.newestRows(p, limit));
  }
  /** The count read with history's first page, once (it asks right after); else its own query. */
  count(): Promise<number> {
    const n = this.listedWithPage;
    this.listedWithPage = undefined;
    return n !== undefined ? Promise.resolve(n) : this.q((p) => results.listedCount(p));
  }
  async search(text: string, limit: number): Promise<{ rows: ResultRow[]; total: number; capped: boolean }> {
    const found = await this.q((p) => results.searchRows(p, text, limit));
    const rows = found.rows.map((r) => {
      this.seen.keepTag(r);
      const { batch: _b, video_json: _v, set_json: _s, ...row } = this.seen.keepPaid(r);
      return row;
    });
    return { ...found, rows };
  }
  bySha(prefix: string): Promise<StoredResult[]> {
    return this.q((p) => results.bySha(p, prefix, this.seen));
  }
  byAnalysisId(id: string): Promise<StoredResult[]> {
    return this.q((p) => results.byAnalysisId(p, id, this.seen));
  }
  imagesWithPrefix(prefix: string, n: number): Promise<string[]> {
    return this.q((p) => results.imagesWithPrefix(p, prefix, n));
  }
  reusable(q: ReuseQuery): Promise<ReuseRef | undefined> {
    return this.q((p) => results.reusable(p, q));
  }
  reusableMany(shas: readonly string[], q: Omit<ReuseQuery, 'sha256'>): Promise<Map<string, ReuseRef>> {
    return this.q((p) => results.reusableMany(p, shas, q));
  }
  /** Pages of 500 in id order (keyset, no cursor held open between pages). */
  async *iterate(opts: { includeSandbox: boolean; latestPerImage?: boolean }): AsyncGenerator<StoredResult> {
    const where = `listed = 1 AND usable = 1 ${opts.includeSandbox ? '' : 'AND sandbox = 0'}`;
    const latest = opts.latestPerImage ? 'AND (sha256 IS NULL OR id = (SELECT max(id) FROM results n WHERE n.sha256 = results.sha256 AND n.listed = 1 AND n.usable = 1' + (opts.includeSandbox ? '' : ' AND n.sandbox = 0') + '))' : '';
    let after = 0;
    for (;;) {
      const rows = await this.q(async (p) => (await p.query<FullRow>(`SELECT ${FULL_COLUMNS} FROM results WHERE ${where} ${latest} AND id > $1 ORDER BY id LIMIT ${PAGE}`, [after])).rows);
      for (const r of rows) yield toStored(r);
      if (rows.length < PAGE) return;
      after = rows[rows.length - 1]!.id;
    }
  }
  sandboxCount(): Promise<number> {
    return this.q(async (p) => Number((await p.query<{ n: number }>('SELECT count(*) AS n FROM results WHERE listed = 1 AND usable = 1 AND sandbox = 1')).rows[0]?.n ?? 0));
  }
  paidBy(ids: readonly number[]): Promise<Map<number, Analyst & { at: string }>> {
    return Promise.resolve(this.seen.paidBy(ids) ?? this.q((p) => results.paidBy(p, ids)));
  }

  async *newestTagged(): AsyncGenerator<TaggedRow> {
    let after: { at: string; id: number } | undefined;
    for (let page = 50; ; page = Math.min(page * 4, 2000)) {
      const a = after;
      // The first page reads the listed count too: history asks for it next (count()).
      const sql = `SELECT ${results.SEARCH_COLUMNS}, ${a ? 'NULL' : results.LISTED_TOTAL} AS listed_total FROM results WHERE listed = 1 ${a ? 'AND (stored_at, id) < ($1, $2)' : ''} ORDER BY stored_at DESC, id DESC LIMIT ${page}`;
      const rows = (await this.q(async (p) => (await p.query<TaggedRow & PaidColumns & { listed_total: string | null }>(sql, a ? [a.at, a.id] : [])).rows)).map(({ listed_total: n, ...r }) => {
        if (n !== null) this.listedWithPage = Number(n);
        return this.seen.keepPaid(r);
      });
      yield* rows;
      if (rows.length < page) return;
      const last = rows[rows.length - 1]!;
      after = { at: last.stored_at, id: last.id };
    }
  }
  tagsOf(ids: readonly number[]): Promise<Map<number, Tag>> {
    const seen = this.seen.tagsOf(ids);
    if (seen) return Promise.resolve(seen);
    return this.q(async (p) => new Map((await p.query<Tag>(`SELECT id, ${TAG_COLUMNS} FROM results WHERE id = ANY($1)`, [[...ids]])).rows.map((t) => [t.id, t])));
  }
  batchStarts(ids: readonly string[]): Promise<Map<string, number>> {
    return this.q(async (p) => new Map((await p.query<{ id: string; created_at: number }>('SELECT id, created_at FROM batches WHERE id = ANY($1)', [[...ids]])).rows.map((b) => [b.id, b.created_at])));
  }
  sinceInBatch(batch: string, since: string): Promise<TaggedRow[]> {
    return this.q(async (p) => (await p.query<TaggedRow>(`SELECT ${LIST_COLUMNS}, ${TAG_COLUMNS} FROM results WHERE stored_at >= $1 AND batch = $2 AND listed = 1 ORDER BY stored_at DESC, id DESC`, [since, batch])).rows);
  }
  resultsByIds(ids: readonly number[]): Promise<StoredResult[]> {
    // A page with no video or set asks for none: no round trip for an empty list.
    if (ids.length === 0) return Promise.resolve([]);
    return this.q(async (p) => (await p.query<FullRow>(`SELECT ${FULL_COLUMNS} FROM results WHERE id = ANY($1) ORDER BY id`, [[...new Set(ids)]])).rows.map(toStored));
  }

  // Claims.
  async acquire(fp: string, o: AcquireRequest): Promise<Acquired> {
    this.startRenewal();
    return this.guard(() => inTx(this.pool, (c) => claims.acquire(c, fp, { ...o, owner: this.ownerOf })));
  }
  claim(key: string): Promise<ClaimRow | undefined> {
    return this.q((p) => claims.claimByKey(p, key));
  }
  currentClaim(fp: string): Promise<ClaimRow | undefined> {
    return this.q((p) => claims.currentClaim(p, fp));
  }
  currentClaims(fps: readonly string[]): Promise<Map<string, ClaimRow>> {
    return this.q((p) => claims.currentClaims(p, fps));
  }
  heldElsewhere(c: ClaimRow): boolean {
    return c.state === 'open' && c.owner !== null && !this.ownerOf.isMe(c.owner) && this.ownerOf.mayHold(c.owner, c.leased === true);
  }
  answer(key: string, r: NewResult, credits: number): Promise<number> {
    const { row, search } = resultColumnsOf(r);
    // COMMIT returns only once the server has it (synchronous_commit as the server keeps it):
    // the caller shows the answer after this resolves.
    return this.guard(() => inTx(this.pool, async (c) => {
      const id = await results.insertRow(c, row, search, this.who);
      await claims.markAnswered(c, key, id, credits);
      return id;
    }));
  }
  fail(key: string, error: FailedError): Promise<void> {
    return this.q((p) => claims.markFailed(p, key, error));
  }
  release(key: string): Promise<void> {
    return this.q((p) => claims.release(p, key, this.owner));
  }
  /** Journals of a geo before account fingerprints are imported by the local file only (nothing to adopt here). */
  async adoptLegacyClaim(): Promise<string | undefined> {
    return undefined;
  }
  /** Damaged legacy files are a local file's: the team store has none. */
  async damagedFor(): Promise<string[]> {
    return [];
  }

  saveBatch(id: string, head: Record<string, unknown>): Promise<void> {
    return this.q(async (p) => {
      await p.query('INSERT INTO batches (id, head, created_at, updated_at) VALUES ($1, $2, geo_now_ms(), geo_now_ms()) ON CONFLICT (id) DO UPDATE SET head = excluded.head, updated_at = excluded.updated_at', [id, JSON.stringify(head)]);
    });
  }
  /** A journal file into the team's claims and results, as `geo store push` copies a store (push.ts pushJournal). */
  importJournal(file: string, text: string, batchId: string): Promise<HeadLine> {
    return pushJournal(this, file, text, batchId, this.opts);
  }
  findBatches(prefix: string): Promise<BatchRow[]> {
    const p0 = prefix.toLowerCase();
    return this.q(async (p) => (await p.query<{ id: string; head: string; created_at: number; updated_at: number }>('SELECT id, head, created_at, updated_at FROM batches WHERE id >= $1 AND id < $2 ORDER BY updated_at DESC LIMIT 5', [p0, `${p0}g`])).rows
      .map((r) => ({ ...r, head: JSON.parse(r.head) as Record<string, unknown> })));
  }

  fileHashCache(paths: readonly string[]): Promise<FileHashCache> {
    return teamFileHashCache((fn) => this.q(fn), this.who.host, paths, this.opts.now);
  }

  status(): Promise<StoreStatus> {
    return teamStatus((fn) => this.q(fn), this.where);
  }

  private startRenewal(): void {
    if (this.renewal || this.closed) return;
    this.renewal = setInterval(() => {
      // A server that cannot be reached: the lease runs out and another machine takes over, which is safe.
      claims.renew(this.pool, this.owner).catch(() => undefined);
    }, LEASE_MS / 3);
    this.renewal.unref();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    if (this.renewal) clearInterval(this.renewal);
    // Only a process that took claims has any to release (sqlite/claims.ts Owner): no round trip otherwise.
    if (this.ownerOf.named) await claims.releaseAll(this.pool, this.owner).catch(() => undefined);
    this.closed = true;
    await endPool(this.pool);
  }
}
