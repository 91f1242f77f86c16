/**
 * The store's ONE asynchronous interface (DESIGN.md "Layers": src/store/), whichever engine
 * answers: the embedded SQLite file (sqlite/engine.ts, the default) or a team's PostgreSQL server
 * (postgres/engine.ts). Callers get a StoreApi from openStore() (index.ts) and never learn which
 * engine it is: what a person must be told (which store, where) is in status() and `where`.
 *
 * The promises are the same on both engines:
 * - a claim is one row per idempotency key, found by the request's fingerprint, taken in one
 *   indivisible step; a lease ends by the store's own clock (SQLite: this machine's; PostgreSQL:
 *   the server's now()), and an owner on another host is taken for gone only when it ends;
 * - answer() commits the answer with its claim before anyone shows it;
 * - custody appends to one case are serialised, so each log stays one chain;
 * - the budget is reserved before a request is sent, in one conditional update.
 * No API key and no image bytes are ever given to the store.
 */
import type { CopyLink, CopyLinksApi } from './copy-links.js';
import type { KeptFilesApi } from './kept-rows.js';
import type { NearResult, Perceptual, PerceptualApi, ScannedResult } from './perceptual-rows.js';
import type { CustodyStorage } from '../evidence/custody-log.js';
import type { HeadLine } from './journal-format.js';
import type { Acquired, BatchRow, ClaimRow, FailedError } from './claim-rows.js';
import type { CaseLinked, CaseResultRow, CaseRow, NewCase, NewTimestamp, StampedReply, TimestampRow } from './case-rows.js';
import type { FileHash, FileStamp, NewResult, ResultRow, ReuseQuery, ReuseRef, StoredEmbedded, StoredResult, Tag, TaggedRow } from './result-rows.js';
import type { EmbeddedProvenance } from '../image/embedded.js';

export type { CopyLink, CopyLinksApi, NearResult, Perceptual, PerceptualApi, ScannedResult };
export type { Acquired, BatchRow, CaseLinked, CaseResultRow, CaseRow, ClaimRow, FailedError, FileHash, FileStamp, NewCase, NewResult, NewTimestamp, ResultRow, ReuseQuery, ReuseRef, StampedReply, StoredEmbedded, StoredResult, Tag, TaggedRow, TimestampRow };

/** What acquire() needs besides the fingerprint (the owner and the clock are the engine's). */
export interface AcquireRequest {
  batch?: string;
  input?: string;
  /** Only claims made at or after this time (ms) count as answers (a --fresh batch). */
  since?: number;
  /** The caller's own key (--idempotency-key): sent only if no other key holds this request. */
  key?: string;
  /** The key a new claim gets when the caller has none of its own (default a fresh UUID). */
  newKey?: string;
}

/** Who did something, as the team store records it beside each paid answer and each reservation. */
export interface Analyst {
  /**
   * The database role the team store's server authenticated (session_user), written by the server
   * (postgres/schema-roles.ts): who paid. Absent on the local file, and on a team result stored
   * before roles were recorded.
   */
  role?: string;
  /** OS user name, as the machine said it: a detail beside the role, never proof of who. */
  user: string;
  host: string;
}

export type BudgetPeriod = 'day' | 'week' | 'month';

export interface Budget {
  cap: number;
  per: BudgetPeriod;
  /** The current period's start (ISO-8601 UTC, by the store's clock). */
  since: string;
  /** Credits the service charged this period (settled reservations). */
  spent: number;
  /** Credits held by requests in flight. */
  reserved: number;
}

export interface Spend {
  /** "user@host" or a case id. */
  who: string;
  credits: number;
  requests: number;
}

export type Reserved = { ok: true } | { ok: false; budget: Budget };

export interface BudgetApi {
  /** The budget in force (undefined: none set, nothing is capped). */
  get(): Promise<Budget | undefined>;
  set(cap: number, per: BudgetPeriod): Promise<Budget>;
  clear(): Promise<void>;
  /**
   * Holds `credits` against the cap before the request with idempotency key `key` is sent, in one
   * conditional update (never two requests both fitting the last credits). One reservation per key:
   * a key resent after its process died keeps the one it had (the service charges a key once).
   * No budget set: always ok (the spend is still recorded, for `budget show`).
   */
  reserve(key: string, credits: number, who: Analyst & { caseId?: string }): Promise<Reserved>;
  /** What the service charged (its answered depth: api/charge.ts): spent, the rest let go. */
  settle(key: string, charged: number): Promise<void>;
  /** The service did not charge (502, 503, content_blocked, a 504's refund): all let go. */
  release(key: string): Promise<void>;
  /** This period's spend by analyst and by case, largest first. */
  spend(): Promise<{ byAnalyst: Spend[]; byCase: Spend[] }>;
}

export interface CaseApi extends CustodyStorage {
  /** `first` builds the case_created line; `role` as for CustodyStorage.append. */
  create(c: NewCase, first: (role?: string) => string): Promise<CaseRow>;
  list(): Promise<CaseRow[]>;
  find(ref: string): Promise<CaseRow[]>;
  linked(caseId: string): Promise<CaseLinked[]>;
  isLinked(caseId: string, resultId: number): Promise<boolean>;
  /** A storage whose next appends also link this result to the case, in the same transaction. */
  linking(resultId: number): CustodyStorage;
}

export interface TimestampApi {
  queue(t: NewTimestamp): Promise<TimestampRow>;
  pending(caseId?: string): Promise<TimestampRow[]>;
  forCase(caseId: string): Promise<TimestampRow[]>;
  stamped(id: number, s: StampedReply): Promise<boolean>;
  unreachable(id: number, error: string): Promise<TimestampRow>;
  failed(id: number, error: string): Promise<TimestampRow>;
}

export interface FileHashCache {
  get(path: string, s: FileStamp): FileHash | undefined;
  put(path: string, s: FileStamp, h: FileHash): void;
  flush(): Promise<void>;
}

export interface StoreCounts {
  results: number;
  openClaims: number;
  cases: number;
  custodyEntries: number;
}

export interface StoreStatus {
  /** 'local' (the SQLite file) or 'team' (a PostgreSQL server): what a person is told. */
  kind: 'local' | 'team';
  /** The file's path, or the URL with its password masked. */
  where: string;
  schema: number;
  /** The newest schema this geo knows. */
  knows: number;
  /** One round trip to the store (a trivial query), in milliseconds. */
  rttMs: number;
  counts: StoreCounts;
}

export interface StoreApi {
  readonly kind: 'local' | 'team';
  /** For messages: the file's path, or the URL with its password masked. */
  readonly where: string;
  /** This process's owner id for claims ("host:pid:start:nonce"), made when first asked for (sqlite/claims.ts Owner). */
  readonly owner: string;

  // Results.
  insertResult(r: NewResult): Promise<number>;
  setExif(id: number, exif: unknown): Promise<void>;
  result(id: number): Promise<StoredResult | undefined>;
  newest(limit: number): Promise<ResultRow[]>;
  count(): Promise<number>;
  search(text: string, limit: number): Promise<{ rows: ResultRow[]; total: number; capped: boolean }>;
  bySha(prefix: string): Promise<StoredResult[]>;
  byAnalysisId(id: string): Promise<StoredResult[]>;
  imagesWithPrefix(prefix: string, n: number): Promise<string[]>;
  reusable(q: ReuseQuery): Promise<ReuseRef | undefined>;
  reusableMany(shas: readonly string[], q: Omit<ReuseQuery, 'sha256'>): Promise<Map<string, ReuseRef>>;
  iterate(opts: { includeSandbox: boolean; latestPerImage?: boolean }): AsyncGenerator<StoredResult>;
  sandboxCount(): Promise<number>;
  /** Who stored (and so paid for) a result, and when: the team store's history says it per row. */
  paidBy(ids: readonly number[]): Promise<Map<number, Analyst & { at: string }>>;

  // The frames of a video and the photos of a set, gathered back.
  newestTagged(): AsyncGenerator<TaggedRow>;
  tagsOf(ids: readonly number[]): Promise<Map<number, Tag>>;
  batchStarts(ids: readonly string[]): Promise<Map<string, number>>;
  sinceInBatch(batch: string, since: string): Promise<TaggedRow[]>;
  resultsByIds(ids: readonly number[]): Promise<StoredResult[]>;

  // Claims.
  acquire(fp: string, o: AcquireRequest): Promise<Acquired>;
  claim(key: string): Promise<ClaimRow | undefined>;
  currentClaim(fp: string): Promise<ClaimRow | undefined>;
  currentClaims(fps: readonly string[]): Promise<Map<string, ClaimRow>>;
  /**
   * Whether an open claim's holder may still be sending: its lease has not run out by the store's
   * clock when the row was read (ClaimRow.leased), and, on this host only, its process still runs.
   */
  heldElsewhere(c: ClaimRow): boolean;
  /** The answer and its claim's completion in one transaction: committed before anyone shows it. */
  answer(key: string, r: NewResult, credits: number): Promise<number>;
  fail(key: string, error: FailedError): Promise<void>;
  release(key: string): Promise<void>;
  adoptLegacyClaim(legacyFp: string, fp: string): Promise<string | undefined>;
  damagedFor(sha256: string): Promise<string[]>;

  /** What an original said about itself before it was stripped (kept once per sha256; never sent). */
  saveEmbedded(sha256: string, e: EmbeddedProvenance): Promise<void>;
  embedded(sha256: string): Promise<StoredEmbedded | undefined>;

  readonly budget: BudgetApi;
  readonly cases: CaseApi;
  readonly timestamps: TimestampApi;
  /** Bytes kept on purpose, by sha256 (kept-rows.ts). */
  readonly kept: KeptFilesApi;
  /** Perceptual hashes of images by sha256, and the near-duplicate look-up (perceptual-rows.ts). */
  readonly perceptual: PerceptualApi;
  /** Results that are copies of earlier ones: paid and linked, or reused (copy-links.ts). */
  readonly copies: CopyLinksApi;

  // Batches.
  saveBatch(id: string, head: Record<string, unknown>): Promise<void>;
  findBatches(prefix: string): Promise<BatchRow[]>;
  /** A journal file's keys and answers into claims and results (`--resume FILE`, `--journal FILE` that holds a batch). */
  importJournal(file: string, text: string, batchId: string): Promise<HeadLine>;

  /** Files already hashed on THIS machine (paths mean nothing on another one). */
  fileHashCache(paths: readonly string[]): Promise<FileHashCache>;

  status(): Promise<StoreStatus>;
  /** Releases this process's open claims (a rerun resends their keys at once) and closes. */
  close(): Promise<void>;
}
