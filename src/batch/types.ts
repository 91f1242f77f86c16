/**
 * Shapes shared by the batch engine (plan, scheduler, journal, run) and the command that renders
 * them. Records follow DESIGN.md's NDJSON line: {"input", "sha256", "ok", "result" | "error", "exif"}.
 */
import type { Depth, Effort, Scope } from '../api/schemas.js';
import type { StoreError } from '../errors.js';
import type { ProvenanceRecord, RecordOrigin } from '../evidence/record-types.js';
import type { SentImage } from '../image/without-metadata.js';

/** What goes into every request of the batch besides the image (journal hash input too). */
export interface BatchParams {
  depth: Depth;
  effort?: Effort;
  scope?: Scope;
  batch_id?: string;
  model?: string;
  /** 202 instead of the result (locate --async); part of the journal's identity like the rest. */
  async?: boolean;
}

/** What the exchange said besides the body (single-input views, provenance records). */
export interface ResponseMeta {
  /** The body text as received (locate --json prints it); bytes that are not UTF-8 as \udcXX escapes. */
  raw?: string;
  /** The body's bytes exactly as received, but the key: masked (api/mask.ts). What the store keeps. */
  rawBytes?: Buffer;
  /** The key was masked out of the body: the sha256 of the bytes as received (the record says so). */
  receivedSha256?: string;
  status?: number;
  headers?: Record<string, string>;
  requestId?: string;
  idempotencyKey?: string;
  attempts?: number;
  elapsedMs?: number;
  /** How the answer is off the contract, one line per field (response.ts); shown as warnings. */
  deviations?: string[];
  /** The image bytes that went out: their sha256 and what metadata was removed (provenance). */
  sent?: SentImage;
}

/** Where a result settled from the provenance store came from (the note names it). */
export interface ReusedFrom {
  /** stored_at of the record: when that answer arrived. */
  storedAt: string;
  depth: number;
  analysisId: string | null;
  /** Its row in the store. */
  resultId: number;
  /** That answer was made from the file as it was, metadata included (or from before geo removed it). */
  withMetadata?: boolean;
  /** Who paid for it, on a team store, when another role did (a colleague's answer is theirs, not "yours"). */
  paidBy?: string;
}

/** One failure, as recorded in the journal and printed. `final`: resending cannot change it. */
export interface BatchError {
  code: string;
  message: string;
  status?: number;
  final: boolean;
}

/** One line of NDJSON output, one per input (duplicates share the result of their image). */
export interface BatchRecord {
  input: string;
  /** null for https URLs: the service fetches them, we never see the bytes. */
  sha256: string | null;
  ok: boolean;
  result?: unknown;
  error?: { code: string; message: string; status?: number };
  /** Filled by the evidence engine through deps.exif; null until then. */
  exif: unknown;
}

export interface BatchProgress {
  done: number;
  failed: number;
  /** Inputs never sent because the batch stopped (also counted in failed). */
  notSent: number;
  /** Inputs found in a folder but unusable (HEIC, empty…): recorded, never sent, not failures. */
  skipped: number;
  total: number;
  inFlight: number;
  /** Whole seconds since the batch began. */
  elapsedS: number;
  creditsSpent: number;
  /** Completions per minute over the last minute (or since the start). */
  ratePerMin: number;
  /** undefined until a rate is known. */
  etaS?: number;
}

/** What a batch will do before it sends anything (plan.ts buildPlan): counts, cost, consent. */
export interface BatchPlan {
  /** Every input, the skipped ones included. */
  inputs: number;
  /** Inputs found in a folder but unusable (HEIC, empty, not an image…): recorded, never sent. */
  skipped: Array<{ input: string; reason: string }>;
  unique: number;
  /** Unique images an earlier run of this batch answered: re-emitted, not sent. */
  fromJournal: number;
  /** Unique images a stored result of an earlier command answers (ledger.ts): not sent, not charged. */
  fromResults: number;
  /** Of those to send: requests another geo process is sending now (waited for, not sent twice). */
  inFlightElsewhere: number;
  /** Of those to send: images whose only stored record was damaged (paying again needs consent). */
  damaged: number;
  toSend: number;
  depth: number;
  costPerImage: number;
  /** The most this run can spend (failures are not charged, replays are free). */
  credits: number;
  /** GET /credits total_available; undefined when it could not be read. */
  available?: number;
  insufficient: boolean;
  confirmThreshold: number;
  /** Above the threshold, or above the balance: the command asks on a TTY unless --yes. */
  needsConfirm: boolean;
  /** Jobs that need sharp (conversion or --downscale). */
  conversions: number;
  journal?: string;
  /** The batch's id in the store (`geo locate --resume ID`). */
  batch?: string;
  /** The request fields every image is sent with (provenance records keep them). */
  request: Record<string, unknown>;
}

/** Why the batch stopped before every input was tried. */
export interface BatchStop {
  /** `budget`: the next request could pass --max-credits or the consented spend, by what the service charged (spend-guard.ts). */
  reason: 'auth' | 'credits' | 'budget' | 'forbidden' | 'not_found' | 'retry_budget' | 'rate_limited' | 'cancelled' | 'output_closed' | 'store' | 'error';
  error: unknown;
}

export type BatchEvent =
  | { type: 'plan'; plan: BatchPlan }
  | { type: 'notice'; message: string }
  /** A request about to go out (its turn taken); `service`: the origin it goes to. */
  | { type: 'started'; input: string; sha256: string | null; idempotencyKey: string; service: string }
  | {
      type: 'finished'; record: BatchRecord; fromJournal: boolean; replayed: boolean;
      /** Absolute path of a local input (reports and provenance re-read or name it). */
      path?: string;
      /** Present for answers (this run's, or an earlier run's raw body from the journal). */
      response?: ResponseMeta;
      /** The error as thrown, for failures of this run (a one-input locate reports it as such). */
      cause?: unknown;
      /** Answered by a stored result of an earlier command (ledger.ts): nothing sent, not charged. */
      reused?: ReusedFrom;
      /** Answered by this run (sent now), not from the store or another process. */
      sentNow?: boolean;
      /** Answered while another geo process sent the request: nothing sent, not charged here. */
      fromOthers?: boolean;
      /** The result row this answer is (committed now, or the stored one it came from). */
      stored?: { id: number; record: ProvenanceRecord };
      /** The store could not take this paid answer: it is shown, and its key replays it free. */
      storeError?: StoreError;
      /** What this answer cost in this run (0: a replay or an earlier answer). */
      credits?: number;
      /** The job's origin: a video's frame or a photo of a set. */
      origin?: RecordOrigin;
    }
  | { type: 'retry'; input: string; reason: string; attempt: number; delayMs: number; status?: number }
  | { type: 'paused'; untilMs: number; reason: 'rate_limited' }
  /** The next start waits more than 5 s for the rate limit (pacer.ts says why). */
  | { type: 'waiting'; untilMs: number; why: string }
  | { type: 'progress'; progress: BatchProgress }
  | { type: 'stopped'; stop: BatchStop };

export interface BatchSummary {
  inputs: number;
  unique: number;
  ok: number;
  /** Sent and failed (422, 5xx after retries, …). */
  failed: number;
  notSent: number;
  /** Sent when the batch was cancelled, no answer: may have been charged (accounting.ts). */
  inFlight: number;
  /** Found in a folder but unusable; never sent. */
  skipped: number;
  /** Unique images answered from an earlier run's journal (nothing sent). */
  fromJournal: number;
  /** Unique images answered by a stored result of an earlier command (nothing sent). */
  fromResults: number;
  /** Of those, how many another role paid for (a team store's colleagues); absent when none. */
  fromColleagues?: number;
  /** Unique images another geo process sent while this one waited (nothing sent here). */
  fromOthers: number;
  /** Paid answers the store could not take (shown all the same; their keys replay them free). */
  unstored: number;
  /** Answers the server replayed for an idempotency key (charged nothing this run). */
  replayed: number;
  creditsSpent: number;
  retriesUsed: number;
  rateLimited: number;
  elapsedMs: number;
  concurrency: number;
  /** --journal FILE, when the batch was also written there. */
  journal?: string;
  /** The batch's id in the store: `geo locate --resume ID` runs it again. */
  batch?: string;
  stopped?: BatchStop;
}

/**
 * `credits`: what the server charged for this answer in this run (0 for a replay of an earlier
 * run). `metadataSent`: whether the service received the image's own metadata (EXIF GPS
 * included), which decides whether the EXIF check is an independent witness; undefined when
 * unknown (old records). `stored`: the result row the answer was committed as; `storeError`: why
 * it could not be (the answer is shown all the same).
 */
export type JobOutcome =
  | { ok: true; result: unknown; replayed: boolean; credits: number; response?: ResponseMeta; metadataSent?: boolean; stored?: StoredRef; storeError?: StoreError }
  | { ok: false; error: BatchError; cause?: unknown; credits?: number; response?: ResponseMeta; metadataSent?: boolean; stored?: StoredRef; storeError?: StoreError };

export interface StoredRef {
  id: number;
  record: ProvenanceRecord;
}

/** How a job was settled: sent now, from this batch's earlier run, a stored result, another process, never sent. */
export type SettledHow = 'sent' | 'journal' | 'results' | 'others' | 'not_sent';
