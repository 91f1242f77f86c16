/**
 * Shapes shared by the batch engine (plan, scheduler, journal, run) and the command that renders
 * them. Records follow DESIGN.md's NDJSON line: {"input", "sha256", "ok", "result" | "error", "exif"}.
 */
import type { Depth, Effort, Scope } from '../api/schemas.js';

/** What goes into every request of the batch besides the image (journal hash input too). */
export interface BatchParams {
  depth: Depth;
  effort?: Effort;
  scope?: Scope;
  batch_id?: string;
  model?: string;
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
  total: number;
  inFlight: number;
  creditsSpent: number;
  /** Completions per minute over the last minute (or since the start). */
  ratePerMin: number;
  /** undefined until a rate is known. */
  etaS?: number;
}

/** Why the batch stopped before every input was tried. */
export interface BatchStop {
  reason: 'auth' | 'credits' | 'forbidden' | 'not_found' | 'retry_budget' | 'cancelled' | 'error';
  error: unknown;
}

export type BatchEvent =
  | { type: 'plan'; plan: import('./plan.js').BatchPlan }
  | { type: 'notice'; message: string }
  | { type: 'started'; input: string; sha256: string | null; idempotencyKey: string }
  | { type: 'finished'; record: BatchRecord; fromJournal: boolean; replayed: boolean }
  | { type: 'retry'; input: string; reason: string; attempt: number; delayMs: number; status?: number }
  | { type: 'paused'; untilMs: number; reason: 'rate_limited' }
  | { type: 'progress'; progress: BatchProgress }
  | { type: 'stopped'; stop: BatchStop };

export interface BatchSummary {
  inputs: number;
  unique: number;
  ok: number;
  failed: number;
  notSent: number;
  /** Unique images answered from an earlier run's journal (nothing sent). */
  fromJournal: number;
  /** Answers the server replayed for an idempotency key (charged nothing this run). */
  replayed: number;
  creditsSpent: number;
  retriesUsed: number;
  rateLimited: number;
  elapsedMs: number;
  concurrency: number;
  journal?: string;
  stopped?: BatchStop;
}
