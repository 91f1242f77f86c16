/**
 * What a worker is given to send one job (worker.ts): the client, the claims and answers
 * (ledger.ts), the budgets that decide whether it may send, and where each outcome goes.
 */
import type { ApiClient } from '../api/client.js';
import type { RetryBudget } from '../api/retry.js';
import type { GeolocateRequest } from '../api/schemas.js';
import type { ProvenanceRecord } from '../evidence/record-types.js';
import type { Journal } from './journal.js';
import type { Ledger } from './ledger.js';
import type { SpendGuard } from './spend-guard.js';
import type { AnswerFacts } from './provenance.js';
import type { Pdq } from '../image/pdq.js';
import type { Job, UploadOptions } from './sources.js';
import type { BatchEvent, JobOutcome, SettledHow } from './types.js';

/** The slice of ApiClient the engine uses (tests and wrappers can supply their own). */
export type BatchClient = Pick<ApiClient, 'geolocate' | 'credits' | 'baseUrl'> & { readonly servedBySandbox?: boolean };

export interface WorkerEnv {
  client: BatchClient;
  ledger: Ledger;
  /** --journal FILE: the batch written out as NDJSON too. */
  journal?: Journal;
  /** --idempotency-key: the caller's own key for the one job. */
  userKey?: string;
  request: Omit<GeolocateRequest, 'image_b64' | 'image_url'>;
  /** How images are prepared (metadata removed or kept). */
  upload?: UploadOptions;
  cost: number;
  budget: RetryBudget;
  /** --max-credits or the consented spend, kept against what the service charged (spend-guard.ts). */
  spend: SpendGuard;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  /** Aborted when no new request may start (stdout closed): requests in flight still finish. */
  stopSending?: AbortSignal;
  /** --case: the case the budget's reservation names (team-budget.ts). */
  caseId?: string;
  emit: (e: BatchEvent) => void;
  /** The provenance record of an answer (provenance.ts), committed with its claim. */
  record: (job: Job, facts: AnswerFacts) => ProvenanceRecord;
  /** false with --no-store: kept for its claim only, not listed. */
  listed: boolean;
  /** Each image's perceptual hash as the plan made it (similar.ts): kept, not made again. */
  hashes?: ReadonlyMap<string, Pdq>;
  /** Called once per job that got an answer (or a local failure). */
  finish: (job: Job, outcome: JobOutcome, how: SettledHow) => Promise<void>;
  /** +1 when the request goes out, -1 when its outcome is in, just before finish (progress line). */
  inFlight?: (delta: 1 | -1) => void;
  /** Said once when another process holds a request this batch wants. */
  onWait?: (job: Job) => void;
  counters: { rateLimited: number };
}
