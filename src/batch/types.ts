/**
 * Shapes shared by the batch engine (plan, scheduler, journal, run) and the command that renders
 * them. Records follow DESIGN.md's NDJSON line: {"input", "sha256", "ok", "result" | "error", "exif"}.
 */
import type { Depth, Effort, Scope } from '../api/schemas.js';
import type { StoreError } from '../errors.js';
import type { FetchedFrom, ProvenanceRecord, RecordOrigin } from '../evidence/record-types.js';
import type { SentImage } from '../image/without-metadata.js';
import type { BatchRecord } from '../evidence/answer-record.js';
import type { ReusedSimilar } from '../evidence/copy-events.js';
import type { BatchPlan, BatchProgress, BatchStop, BatchSummary } from '../output/batch-status.js';

// The shapes the layers below also take (media/ the records, output/ the plan, progress and summary) live there.
export type { BatchPlan, BatchProgress, BatchRecord, BatchStop, BatchSummary };

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

/**
 * A copy of a photo located before (its perceptual hash within the near-duplicate distance): the
 * earlier result, the input that result names, and whether that answer was taken for the copy
 * (--reuse-similar: nothing sent) or the copy's own answer was paid for and linked to it.
 */
export interface CopyOf extends ReusedSimilar {
  input: string;
  reused: boolean;
}

/** One failure, as recorded in the journal and printed. `final`: resending cannot change it. */
export interface BatchError {
  code: string;
  message: string;
  status?: number;
  final: boolean;
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
      /** The input was a URL geo fetched: how its bytes were got (the provenance record keeps the job's first). */
      fetched?: FetchedFrom;
      /** A copy of a photo located before: its answer taken from that result, or paid and linked to it. */
      copyOf?: CopyOf;
    }
  | { type: 'retry'; input: string; reason: string; attempt: number; delayMs: number; status?: number }
  | { type: 'paused'; untilMs: number; reason: 'rate_limited' }
  /** The next start waits more than 5 s for the rate limit (pacer.ts says why). */
  | { type: 'waiting'; untilMs: number; why: string }
  | { type: 'progress'; progress: BatchProgress }
  | { type: 'stopped'; stop: BatchStop };

/**
 * `credits`: what the server charged for this answer in this run (0 for a replay of an earlier
 * run). `metadataSent`: whether the service received the image's own metadata (EXIF GPS
 * included), which decides whether the EXIF check is an independent witness; undefined when
 * unknown (old records). `stored`: the result row the answer was committed as; `storeError`: why
 * it could not be (the answer is shown all the same).
 */
export type JobOutcome =
  | { ok: true; result: unknown; replayed: boolean; credits: number; response?: ResponseMeta; metadataSent?: boolean; stored?: StoredRef; storeError?: StoreError; copyOf?: CopyOf }
  | { ok: false; error: BatchError; cause?: unknown; credits?: number; response?: ResponseMeta; metadataSent?: boolean; stored?: StoredRef; storeError?: StoreError };

export interface StoredRef {
  id: number;
  record: ProvenanceRecord;
}

/** How a job was settled: sent now, from this batch's earlier run, a stored result, a copy's earlier result (--reuse-similar), another process, never sent. */
export type SettledHow = 'sent' | 'journal' | 'results' | 'similar' | 'others' | 'not_sent';
