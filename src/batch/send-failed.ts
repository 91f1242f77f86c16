/**
 * A request that failed (send-claimed.ts), settled: what it may have cost, its claim written down
 * as failed or released for the next run, and any body worth keeping kept (an unreadable 2xx, or
 * one that carried an error), then handed on like any other outcome.
 */
import { rawB64 } from '../api/decode.js';
import { ApiError, ContractError, NetworkError } from '../api/errors.js';
import { IN_FLIGHT } from './accounting.js';
import { stopFor, toBatchError } from './outcome.js';
import type { TaskControl, TaskResult } from './scheduler.js';
import type { Job } from './sources.js';
import type { Spent } from './spend-guard.js';
import type { WorkerEnv } from './worker-env.js';

/** Told what a request cost once it is known: the credits, the depth answered, what its key was charged. */
export type Charged = (spent: Spent, depth?: number, keyCredits?: number) => void;

/** Retries after which an earlier attempt may have been analysed (and charged) whatever the last one met. */
export const MAY_HAVE_RUN = new Set(['reset', 'timeout', 'truncated', 'bad_body', 'in_progress']);

/**
 * What a request that failed may have cost (spend-guard.ts): an error status, or a connection
 * refused on every attempt, nothing (api-spec.md: failed analyses are not charged); a request with
 * no answer after an attempt that may have run (a reset, a timeout, an unreadable body, 409 in
 * progress, Ctrl-C in flight) is unknown, counted as the most.
 */
function spentOnError(err: unknown, aborted: boolean, ranBefore: boolean): Spent {
  if (aborted || ranBefore) return 'unknown';
  if (err instanceof NetworkError && !err.mayHaveRun) return 0;
  if (err instanceof ApiError && !err.answer && !(err.status === 409 && err.code === 'idempotency_in_progress')) return 0;
  return 'unknown';
}

/** The catch of a claimed send: `sent` once the request went out, `ranBefore` once a retry followed an attempt that may have run. */
export async function failedSend(w: WorkerEnv, job: Job, ctl: TaskControl, key: string, err: unknown, how: { sent: boolean; ranBefore: boolean }, charged: Charged): Promise<TaskResult> {
  const { sent, ranBefore } = how;
  const store = w.ledger.store;
  const aborted = Boolean(w.signal?.aborted);
  // Every attempt's headers were seen already (onAttempt); a 429 that ends the request still closes the gate.
  if (err instanceof ApiError && err.status === 429) {
    w.counters.rateLimited++;
    if (err.rateLimit?.retryAfterS !== undefined) ctl.pauseUntil(w.now() + err.rateLimit.retryAfterS * 1000);
  }
  const error = aborted ? IN_FLIGHT : toBatchError(err);
  if (sent) charged(spentOnError(err, aborted, ranBefore));
  // Cancelled: the claim stays open with its key (released when the store closes), so the rerun
  // resends the same key and the server replays it if it had finished. A final failure is
  // written down; anything else releases the claim for the next run (same key).
  try {
    if (!aborted && error.final) await store.fail(key, error);
    else if (!aborted) await store.release(key);
  } catch {
    // The store is unwritable: the claim's lease runs out and a rerun takes it over, same key.
  }
  const raw = keptOf(err);
  // A 2xx that could not be read, or that carried an error, may be a paid answer in a shape geo
  // cannot use: its bytes are kept (marked unusable, not filed under the key, which stays open so
  // a rerun resends it), with the deviation that names it.
  if (raw.raw !== undefined && !aborted) {
    try {
      const response = { raw: raw.raw, status: raw.status, headers: {}, idempotencyKey: key, ...(raw.deviations?.length ? { deviations: raw.deviations } : {}), ...(raw.receivedSha256 ? { receivedSha256: raw.receivedSha256, ...(raw.bytes ? { rawBytes: raw.bytes } : {}) } : {}) };
      await store.insertResult({ record: w.record(job, { response, replayed: false, unusable: error.message }), ...(raw.bytes ? { rawBytes: raw.bytes } : {}), origin: w.ledger.o.origin, sandbox: false, listed: w.listed, unkeyed: true });
    } catch {
      // The store cannot take it: the key, still open, replays it on the rerun.
    }
  }
  const { bytes: _bytes, receivedSha256: _received, ...journaled } = raw;
  if (!aborted) await w.journal?.append({ t: 'done', id: job.id, key, ok: false, error, ...journaled, at: new Date(w.now()).toISOString() }).catch(() => undefined);
  if (sent) w.inFlight?.(-1);
  await w.finish(job, { ok: false, error, cause: err, ...(raw.raw !== undefined ? { response: { raw: raw.raw, status: raw.status, idempotencyKey: key } } : {}) }, 'sent');
  const stop = stopFor(err, w.budget.remaining, aborted);
  return stop ? { kind: 'stop', stop } : { kind: 'done' };
}

/** The body of a failed request worth keeping: an unreadable 2xx, or a 2xx that carried an error. */
function keptOf(err: unknown): { raw?: string; raw_b64?: string; bytes?: Buffer; status?: number; deviations?: string[]; receivedSha256?: string } {
  const kept = (raw: string, bytes: Buffer | undefined, status: number | undefined, deviations?: string[], receivedSha256?: string) => {
    const b64 = rawB64(raw, bytes);
    return { raw, ...(b64 ? { raw_b64: b64 } : {}), ...(bytes ? { bytes } : {}), ...(status !== undefined ? { status } : {}), ...(deviations?.length ? { deviations } : {}), ...(receivedSha256 ? { receivedSha256 } : {}) };
  };
  if (err instanceof ContractError && err.raw !== undefined) return kept(err.raw, err.rawBytes, err.status, undefined, err.receivedSha256);
  if (err instanceof ApiError && err.answer) return kept(err.answer.raw, err.answer.rawBytes, err.answer.status, err.answer.deviations, err.answer.receivedSha256);
  return {};
}

