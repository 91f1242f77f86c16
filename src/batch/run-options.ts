/**
 * What runBatch (run.ts) takes and gives: its dependencies (client, store, clock, where events go),
 * the options of the run, and the result.
 */
import type { Readable } from 'node:stream';
import type { Depth, Effort, Scope } from '../api/schemas.js';
import type { StoreApi } from '../store/index.js';
import type { BudgetName, RequestPreview } from './plan.js';
import type { ExifHook } from './records.js';
import type { SpendLimit } from './spend-guard.js';
import type { FrameInput } from './sources.js';
import type { BatchEvent, BatchPlan, BatchRecord, BatchSummary } from './types.js';
import type { BatchClient } from './worker.js';

export interface BatchDeps {
  client: BatchClient;
  env: Record<string, string | undefined>;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  /** Aborted when no new request may start (stdout closed); requests in flight finish and are stored. */
  stopSending?: AbortSignal;
  /** --case: the case whose spend this is, named with each reservation (geo store budget show, by case). */
  caseId?: string;
  onEvent?: (e: BatchEvent) => void;
  /** Where relative paths start (the command passes the process's folder). */
  cwd: string;
  /** For `-`; absent means empty. */
  stdin?: Readable;
  /** Asked when the plan needs consent; false cancels (nothing sent). Absent: refused (consent.ts). */
  confirm?: (plan: BatchPlan) => Promise<boolean>;
  /** Why there is no confirm, for the refusal ("stdin is not a terminal"). */
  noPrompt?: string;
  /** The record's exif block (evidence engine); default null. Never fails a record. */
  exif?: ExifHook;
  /** accountFingerprint of the client's key: claims and results are this account's only. */
  account?: string;
  /**
   * The service's identity for claims and reuse (default the client's base URL). `--sandbox` starts
   * a sandbox on a new port each run, so it passes one name for all of them (Ctx.serviceId).
   */
  origin?: string;
  /** The store: claims, results, batch heads (the local file or a team's server). */
  store: StoreApi;
  /** Called between phases once the inputs number LARGE_BATCH or more (Runtime.frugalMemory). */
  frugalMemory?: () => void;
  /** geo's version, for the provenance records. */
  version: string;
  /** A 'progress' event every this many ms while requests run (a terminal's live line); default none. */
  tickMs?: number;
}

export interface BatchOptions {
  inputs: string[];
  fromFile?: string;
  /** Default: the --resume batch's depth, else 1. */
  depth?: Depth;
  effort?: Effort;
  scope?: Scope;
  batchId?: string;
  model?: string;
  async?: boolean;
  /** One input only: the key to send it with (the caller's own idempotency, e.g. a case number). */
  idempotencyKey?: string;
  concurrency?: number;
  /** --journal FILE: the batch written there too; false or absent: the store only. */
  journal?: string | false;
  /** --resume FILE or batch id. */
  resume?: string;
  /** Ignore what the store holds (but requests still in flight): send again, with new keys. */
  fresh?: boolean;
  maxCredits?: number;
  /**
   * The budget kept while sending, when the caller decides it (geo eval: what is left of the
   * consent given for all its batches); default from maxCredits, yes and the plan (spend-guard.ts).
   */
  spendLimit?: SpendLimit;
  /** Who set maxCredits, for the refusal (default: --max-credits). */
  budgetName?: BudgetName;
  /** Consent to the plan whatever its cost (--yes). */
  yes?: boolean;
  confirmThreshold?: number;
  dryRun?: boolean;
  downscale?: boolean;
  /**
   * --reuse-similar: an image that looks like a photo this account located before (its perceptual
   * hash within the near-duplicate distance) takes that answer instead of being sent, recorded as
   * a reuse of that result (similar.ts). Without it such images are sent, and linked to it.
   */
  reuseSimilar?: boolean;
  /** Send files with their metadata (default: removed before upload). Undefined: a resumed batch decides. */
  keepMetadata?: boolean;
  /** --service-fetch: URLs are sent as image_url for the service to fetch (default: geo fetches them). Undefined: a resumed batch decides. */
  serviceFetch?: boolean;
  /** --keep-original: each input's bytes as read (a file's, a fetched photo's) kept in the store (keep-original.ts). */
  keepOriginal?: boolean;
  /** false (--no-store): answers are kept for their claims only, not listed in history or exports. */
  listed?: boolean;
  /**
   * false: every record goes out as a 'finished' event and is not kept for the result (records
   * come back empty; the summary still counts them). What a run printing one line per input uses,
   * so 100,000 inputs never hold 100,000 answers.
   */
  keepRecords?: boolean;
  /** Retries shared by the whole batch; default max(10, requests to send). */
  retryBudget?: number;
  /** A video's frames, made in memory; `inputs` then names the videos (the journal's command). */
  frames?: FrameInput[];
  /** --together: the inputs are one set of photos of one scene. */
  together?: boolean;
  /** Files written after the run (--report): refused before anything is sent if one is an input (prepare.ts). */
  writes?: ReadonlyArray<{ path: string; what: string }>;
}

export interface BatchResult {
  plan: BatchPlan;
  records: BatchRecord[];
  /** --dry-run: each request as it would be sent, made when read (plan.ts previewRequests). */
  previews?: AsyncIterable<RequestPreview>;
  summary: BatchSummary;
}
