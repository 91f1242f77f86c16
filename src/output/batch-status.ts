/**
 * What a batch reports about itself, as plain data: its plan before anything is sent, its progress
 * while it runs, its summary and why it stopped. The batch engine (batch/plan.ts, run.ts) makes
 * them; the views (views/batch.ts) draw them, so the shapes live here, below the engine.
 */

export interface BatchProgress {
  done: number;
  failed: number;
  /** Inputs never sent because the batch stopped (also counted in failed). */
  notSent: number;
  /** Inputs found in a folder but unusable (empty, not an image…): recorded, never sent, not failures. */
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
  /** Inputs found in a folder but unusable (empty, not an image, too large…): recorded, never sent. */
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
  /**
   * Of the images not answered by a stored result: those that look like photos this account
   * located before (their perceptual hashes within `similarWithin` bits of a stored result's
   * image), and whether --reuse-similar takes those answers (then they are not in toSend).
   */
  similar: number;
  similarWithin: number;
  reuseSimilar: boolean;
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
  /** Copies of photos located before whose answers were taken (--reuse-similar): nothing sent; absent when none. */
  fromSimilar?: number;
  /** Copies of photos located before, paid for and linked to them; absent when none. */
  copiesLinked?: number;
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
