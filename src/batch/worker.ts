/**
 * Sends one job: journal the key (fsync'd) BEFORE the request, send with that key, journal the
 * outcome with the raw body, then hand it on. The order is what makes kill -9 safe (journal.ts),
 * and what keeps a paid answer that deviates: it is on disk before anything shows or stores it.
 */
import type { ApiClient } from '../api/client.js';
import { chargeOf } from '../api/charge.js';
import { rawB64 } from '../api/decode.js';
import { ApiError, ContractError } from '../api/errors.js';
import type { RetryBudget } from '../api/retry.js';
import type { Depth, GeolocateRequest } from '../api/schemas.js';
import { IN_FLIGHT } from './accounting.js';
import { type Journal, newIdempotencyKey } from './journal.js';
import { classifyAnswer, stopFor, toBatchError } from './outcome.js';
import type { TaskControl, TaskResult } from './scheduler.js';
import { type Job, type UploadOptions, prepareUpload } from './sources.js';
import type { BatchError, BatchEvent, ResponseMeta } from './types.js';

/** The slice of ApiClient the engine uses (tests and wrappers can supply their own). */
export type BatchClient = Pick<ApiClient, 'geolocate' | 'credits' | 'baseUrl'> & { readonly servedBySandbox?: boolean };

/** `credits`: what the server charged for this answer in this run (0 for a replay of an earlier run). */
/**
 * `metadataSent`: whether the service received the image's own metadata (EXIF GPS included), which
 * decides whether the EXIF check is an independent witness; undefined when unknown (old records).
 */
export type JobOutcome =
  | { ok: true; result: unknown; replayed: boolean; credits: number; response?: ResponseMeta; metadataSent?: boolean }
  | { ok: false; error: BatchError; cause?: unknown; credits?: number; response?: ResponseMeta; metadataSent?: boolean };

export interface WorkerEnv {
  client: BatchClient;
  journal?: Journal;
  /** id -> idempotency key (from the journal, or made here). */
  keys: Map<string, string>;
  request: Omit<GeolocateRequest, 'image_b64' | 'image_url'>;
  /** How images are prepared (metadata removed or kept). */
  upload?: UploadOptions;
  cost: number;
  budget: RetryBudget;
  now: () => number;
  signal?: AbortSignal;
  emit: (e: BatchEvent) => void;
  /** Called once per job that got an answer (or a local failure). */
  finish: (job: Job, outcome: JobOutcome) => Promise<void>;
  /** +1 when the request goes out, -1 when its outcome is in, just before finish (progress line). */
  inFlight?: (delta: 1 | -1) => void;
  counters: { rateLimited: number };
}

export async function sendJob(w: WorkerEnv, job: Job, ctl: TaskControl): Promise<TaskResult> {
  let key = w.keys.get(job.id);
  // A key made here has never been sent: a replay header on its first answer proves nothing (charge.ts).
  const firstSend = key === undefined;
  if (key === undefined) {
    key = newIdempotencyKey();
    // On disk before a single byte goes out: if we die after sending, the rerun reuses this key.
    await w.journal?.append({ t: 'send', id: job.id, key, input: job.inputs[0]!, at: new Date(w.now()).toISOString() });
    w.keys.set(job.id, key);
  }
  let sent = false;
  try {
    const upload = await prepareUpload(job, w.upload);
    if (upload.notice) w.emit({ type: 'notice', message: upload.notice });
    const req = { ...w.request, ...(upload.image_url !== undefined ? { image_url: upload.image_url } : {}) } as GeolocateRequest;
    // Our turn under the rate limit, taken last: what the pacer counts is what the server sees.
    const turn = await ctl.go().catch((err: unknown) => ({ cancelled: err }));
    // Not sent (the batch stopped, or Ctrl-C while waiting): the run records it as not_sent; its
    // journal "send" line only means a rerun sends it with this key.
    if (turn === undefined) return { kind: 'done' };
    if (typeof turn === 'object') return { kind: 'stop', stop: { reason: 'cancelled', error: turn.cancelled } };
    w.emit({ type: 'started', input: job.inputs[0]!, sha256: job.sha256, idempotencyKey: key });
    sent = true;
    w.inFlight?.(1);
    const res = await w.client.geolocate(req, {
      idempotencyKey: key,
      ...(upload.image ? { image: upload.image } : {}),
      ...(w.signal ? { signal: w.signal } : {}),
      retryBudget: w.budget,
      // Issue 21: every attempt's headers pace the batch, and a resend waits for its turn.
      beforeAttempt: () => ctl.again(),
      onAttempt: (a) => ctl.attempt(a.rateLimit, { ...(a.status !== undefined ? { status: a.status } : {}), rttMs: a.rttMs }),
      onRetry: (info) => {
        w.emit({ type: 'retry', input: job.inputs[0]!, reason: info.reason, attempt: info.attempt, delayMs: info.delayMs, ...(info.status !== undefined ? { status: info.status } : {}) });
        if (info.reason === 'rate_limited') {
          w.counters.rateLimited++;
          // The client waits this long before its retry; every other worker waits with it.
          ctl.pauseUntil(w.now() + info.delayMs);
        }
      },
    });
    // Latency only from single-attempt answers: a retried one measures backoff, not the service.
    if (res.attempts === 1) ctl.latency(res.elapsedMs);
    // What the server charged, by what the answer says (api/charge.ts, issue 21): its own depth,
    // and a replay header counts as free only where the key can have been answered before.
    const charge = chargeOf({ askedDepth: (w.request.depth ?? 1) as Depth, data: res.data, replayed: res.replayed, attempts: res.attempts, firstSend });
    const credits = charge.credits;
    const replayed = res.replayed && !charge.deviations.some((d) => d.startsWith('Idempotent-Replayed'));
    const answer = classifyAnswer(res.data, res.status, w.request.async === true);
    const allDeviations = [...res.deviations, ...charge.deviations];
    const deviations = allDeviations.length ? { deviations: allDeviations } : {};
    const at = new Date(w.now()).toISOString();
    // raw_b64 beside raw when the text alone would not give the bytes back (issue 21).
    const b64 = rawB64(res.raw, res.rawBytes);
    const kept = { raw: res.raw, ...(b64 ? { raw_b64: b64 } : {}), status: res.status, credits, ...deviations };
    await w.journal?.append(answer.ok ? { t: 'done', id: job.id, key, ok: true, result: answer.result, ...kept, ...(replayed ? { replayed: true } : {}), at } : { t: 'done', id: job.id, key, ok: false, error: answer.error, ...kept, at });
    // The sha256 of the bytes sent is taken as they stream; a server that answered before reading
    // them all leaves it to one more local pass (never a reason to lose the answer).
    await upload.settle?.().catch(() => undefined);
    const response: ResponseMeta = {
      raw: res.raw, rawBytes: res.rawBytes, status: res.status, headers: res.headers, idempotencyKey: key, attempts: res.attempts, elapsedMs: res.elapsedMs, ...(res.requestId ? { requestId: res.requestId } : {}), ...deviations,
      ...(upload.sent ? { sent: upload.sent } : {}),
    };
    if (sent) w.inFlight?.(-1);
    // A URL is fetched by the service itself, metadata and all.
    const metadataSent = upload.sent ? upload.sent.metadata === 'kept' : true;
    await w.finish(job, answer.ok ? { ok: true, result: answer.result, replayed, credits, response, metadataSent } : { ok: false, error: answer.error, credits, response, metadataSent });
    return { kind: 'done' };
  } catch (err) {
    const aborted = Boolean(w.signal?.aborted);
    // Every attempt's headers were seen already (onAttempt); a 429 that ends the request still closes the gate.
    if (err instanceof ApiError && err.status === 429) {
      w.counters.rateLimited++;
      if (err.rateLimit?.retryAfterS !== undefined) ctl.pauseUntil(w.now() + err.rateLimit.retryAfterS * 1000);
    }
    const error = aborted ? IN_FLIGHT : toBatchError(err);
    // A cancelled request stays "sent, no outcome": the rerun resends the same key and the
    // server replays it if it had finished. Anything else is written down.
    // An unreadable 2xx is kept as it came too (it may be the only copy of a paid answer), and so
    // is a 2xx carrying an error body, with the deviation that names it (issue 21).
    const raw = keptOf(err);
    if (!aborted) await w.journal?.append({ t: 'done', id: job.id, key, ok: false, error, ...raw, at: new Date(w.now()).toISOString() });
    if (sent) w.inFlight?.(-1);
    await w.finish(job, { ok: false, error, cause: err });
    const stop = stopFor(err, w.budget.remaining, aborted);
    return stop ? { kind: 'stop', stop } : { kind: 'done' };
  }
}

/** The body of a failed request worth keeping in the journal: an unreadable 2xx, or a 2xx that carried an error. */
function keptOf(err: unknown): { raw?: string; raw_b64?: string; status?: number; deviations?: string[] } {
  if (err instanceof ContractError && err.raw !== undefined) {
    const b64 = rawB64(err.raw, err.rawBytes);
    return { raw: err.raw, ...(b64 ? { raw_b64: b64 } : {}), status: err.status };
  }
  if (err instanceof ApiError && err.answer) {
    const a = err.answer;
    const b64 = rawB64(a.raw, a.rawBytes);
    return { raw: a.raw, ...(b64 ? { raw_b64: b64 } : {}), status: a.status, deviations: a.deviations };
  }
  return {};
}
