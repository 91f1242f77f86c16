/**
 * Sends one job: claim the request in the store BEFORE it is sent (the claim holds the
 * idempotency key; another process that wants the same request waits for it instead of paying
 * again), send with that key, commit the answer with its claim, then hand it on. The order is what
 * makes kill -9 safe: a claim left open is resent with the same key, which the service replays
 * free; an answer is committed before anything shows it.
 *
 * If the store cannot take a paid answer (disk full, read-only, locked), the answer is still
 * handed on, with the store's error: the command prints it, says what it cost and which key
 * replays it free. It is never reported as "not sent".
 */
import type { ApiClient } from '../api/client.js';
import { answeredDepth, chargeOf } from '../api/charge.js';
import { rawB64 } from '../api/decode.js';
import { ApiError, ContractError, NetworkError, RetryLaterError } from '../api/errors.js';
import { SANDBOX_HEADER } from '../api/routes.js';
import type { RetryBudget } from '../api/retry.js';
import type { Depth, GeolocateRequest } from '../api/schemas.js';
import { StoreError } from '../errors.js';
import { type ProvenanceRecord, isResultBody } from '../evidence/record-types.js';
import { IN_FLIGHT } from './accounting.js';
import { keepEmbedded } from './embedded.js';
import { holdCredits, settleCredits } from './team-budget.js';
import type { Journal } from './journal.js';
import type { Ledger } from './ledger.js';
import type { SpendGuard, Spent } from './spend-guard.js';
import { classifyAnswer, stopFor, toBatchError } from './outcome.js';
import type { AnswerFacts } from './provenance.js';
import type { TaskControl, TaskResult } from './scheduler.js';
import { type Job, type UploadOptions, prepareUpload } from './sources.js';
import type { BatchEvent, JobOutcome, ResponseMeta, SettledHow, StoredRef } from './types.js';
import { otherKeyLine, waitForClaim } from './wait-claim.js';

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
  /** Called once per job that got an answer (or a local failure). */
  finish: (job: Job, outcome: JobOutcome, how: SettledHow) => Promise<void>;
  /** +1 when the request goes out, -1 when its outcome is in, just before finish (progress line). */
  inFlight?: (delta: 1 | -1) => void;
  /** Said once when another process holds a request this batch wants. */
  onWait?: (job: Job) => void;
  counters: { rateLimited: number };
}

const NOT_SENT = (why: string): JobOutcome => ({ ok: false, error: { code: 'not_sent', message: `not sent: ${why}`, final: false } });

/** The claim decides: send now with a key, or settle from what another process finished. */
async function claimTurn(w: WorkerEnv, job: Job, halted: AbortSignal): Promise<{ key: string; takeover: boolean } | { done: TaskResult }> {
  // The caller's own key meets its request held under another key: said once.
  let said = false;
  const other = (how: 'waiting' | 'resent' | 'reused', key: string) => {
    if (w.userKey === undefined || key === w.userKey || said) return;
    said = true;
    w.emit({ type: 'notice', message: otherKeyLine(job.inputs[0]!, how, key, w.userKey) });
  };
  for (;;) {
    if (halted.aborted) return { done: { kind: 'done' } };
    const acq = await w.ledger.acquire(job, w.userKey);
    if (acq.kind === 'send') {
      if (acq.takeover) other('resent', acq.key);
      return { key: acq.key, takeover: acq.takeover };
    }
    if (acq.kind === 'answered' || acq.kind === 'failed') {
      // Only a claim of this very request settles it: a caller's key used for another one (key_reused) names someone else's answer.
      const claim = await w.ledger.store.claim(acq.key);
      const held = claim && claim.fp === w.ledger.fingerprint(job) ? w.ledger.fromClaim(claim) : undefined;
      const outcome = held ? await w.ledger.settled(held) : undefined;
      if (held) other('reused', acq.key);
      await w.finish(job, outcome ?? { ok: false, error: acq.kind === 'failed' ? acq.error : { code: 'failed', message: 'the stored answer is missing', final: true } }, 'others');
      return { done: { kind: 'done' } };
    }
    if (w.userKey !== undefined && acq.key !== w.userKey) other('waiting', acq.key);
    else w.onWait?.(job);
    const waited = await waitForClaim(w.ledger.store, acq.key, { sleep: w.sleep, signal: halted });
    // The batch stopped (not Ctrl-C): the job is listed as not sent with the stop's reason (run.ts).
    if (waited === 'cancelled' && !w.signal?.aborted) return { done: { kind: 'done' } };
    if (waited === 'cancelled') {
      await w.finish(job, NOT_SENT('cancelled while another geo process was sending it'), 'not_sent');
      return { done: { kind: 'stop', stop: { reason: 'cancelled', error: w.signal?.reason } } };
    }
  }
}

export async function sendJob(w: WorkerEnv, job: Job, ctl: TaskControl): Promise<TaskResult> {
  if (w.stopSending?.aborted) return { kind: 'done' };
  const turn0 = await claimTurn(w, job, ctl.halted);
  if ('done' in turn0) return turn0.done;
  // The budget decides before anything is sent (spend-guard.ts). Not sent: the claim stays open
  // with its key, released when the store closes, so a rerun sends it with this key.
  const gate = await w.spend.enter(w.signal);
  if (gate.kind === 'cancelled') return { kind: 'stop', stop: { reason: 'cancelled', error: w.signal?.reason } };
  if (gate.kind === 'stop') return { kind: 'stop', stop: { reason: 'budget', error: new Error(gate.why) } };
  let spent: Spent = 'unsent';
  let keySpent: Spent = 'unsent';
  let answered: number | undefined;
  let held = false;
  try {
    // The store's budget (a team's cap, team-budget.ts): reserved before the send, whoever sends.
    const full = await holdCredits(w.ledger.store, turn0.key, (w.request.depth ?? 1) as Depth, w.caseId, { held: w.spend.held, halted: ctl.halted });
    if (full !== undefined) {
      // Let go at once (same key, still open): a process on another machine waiting for this
      // request takes it, meets the cap too and stops, instead of both waiting for each other.
      await w.ledger.store.release(turn0.key).catch(() => undefined);
      return { kind: 'stop', stop: { reason: 'budget', error: new Error(full) } };
    }
    held = true;
    return await sendClaimed(w, job, ctl, turn0, (credits, depth, keyCredits) => {
      spent = credits;
      keySpent = keyCredits ?? credits;
      answered = depth;
    });
  } catch (err) {
    if (err instanceof StoreError && !held) return { kind: 'stop', stop: { reason: 'store', error: err } };
    throw err;
  } finally {
    w.spend.leave(spent, answered);
    // The store's budget holds per key: a replay settles the key at what the service charged it
    // once; a key taken over from a process that died may have been charged by it, so not sending
    // it now lets nothing go (the rerun that sends it settles it).
    if (held) await settleCredits(w.ledger.store, turn0.key, keySpent === 'unsent' && turn0.takeover ? 'unknown' : keySpent, w.spend.held);
  }
}

/** Retries after which an earlier attempt may have been analysed (and charged) whatever the last one met. */
const MAY_HAVE_RUN = new Set(['reset', 'timeout', 'truncated', 'bad_body', 'in_progress']);

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

async function sendClaimed(w: WorkerEnv, job: Job, ctl: TaskControl, turn0: { key: string; takeover: boolean }, charged: (spent: Spent, depth?: number, keyCredits?: number) => void): Promise<TaskResult> {
  const key = turn0.key;
  // A key minted by this claim has never been sent: a replay header on its first answer proves
  // nothing (api/charge.ts). A taken-over claim or the caller's own key may have been answered before.
  const firstSend = !turn0.takeover && w.userKey === undefined;
  const store = w.ledger.store;
  let sent = false;
  let ranBefore = false;
  try {
    await w.journal?.append({ t: 'send', id: job.id, key, input: job.inputs[0]!, at: new Date(w.now()).toISOString() });
    // What the original says about itself, kept before its metadata is stripped (embedded.ts).
    if (w.listed) await keepEmbedded(store, job).then((why) => why && w.emit({ type: 'notice', message: why }));
    const upload = await prepareUpload(job, w.upload);
    if (upload.notice) w.emit({ type: 'notice', message: upload.notice });
    const req = { ...w.request, ...(upload.image_url !== undefined ? { image_url: upload.image_url } : {}) } as GeolocateRequest;
    // Our turn under the rate limit, taken last: what the pacer counts is what the server sees.
    const turn = w.stopSending?.aborted ? undefined : await ctl.go().catch((err: unknown) => ({ cancelled: err }));
    // Not sent (the batch stopped, stdout closed, or Ctrl-C while waiting): the claim stays open
    // with its key, released when the store closes, so a rerun sends it with this key.
    if (turn === undefined) return { kind: 'done' };
    // Refused a turn: Ctrl-C, or a next start the server's count puts too far off (pacer.ts, exit 5).
    if (typeof turn === 'object') return { kind: 'stop', stop: { reason: turn.cancelled instanceof RetryLaterError ? 'rate_limited' : 'cancelled', error: turn.cancelled } };
    w.emit({ type: 'started', input: job.inputs[0]!, sha256: job.sha256, idempotencyKey: key, service: w.client.baseUrl });
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
        if (MAY_HAVE_RUN.has(info.reason)) ranBefore = true;
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
    // What the server charged, by what the answer says (api/charge.ts): its own depth,
    // and a replay header counts as free only where the key can have been answered before.
    const charge = chargeOf({ askedDepth: (w.request.depth ?? 1) as Depth, data: res.data, replayed: res.replayed, attempts: res.attempts, firstSend });
    const credits = charge.credits;
    charged(credits, answeredDepth(res.data), charge.keyCredits);
    const replayed = res.replayed && !charge.deviations.some((d) => d.startsWith('Idempotent-Replayed'));
    const answer = classifyAnswer(res.data, res.status, w.request.async === true);
    const allDeviations = [...res.deviations, ...charge.deviations];
    const deviations = allDeviations.length ? { deviations: allDeviations } : {};
    // The sha256 of the bytes sent is taken as they stream; a server that answered before reading
    // them all leaves it to one more local pass (never a reason to lose the answer).
    await upload.settle?.().catch(() => undefined);
    const response: ResponseMeta = {
      raw: res.raw, rawBytes: res.rawBytes, ...(res.receivedSha256 ? { receivedSha256: res.receivedSha256 } : {}), status: res.status, headers: res.headers, idempotencyKey: key, attempts: res.attempts, elapsedMs: res.elapsedMs, ...(res.requestId ? { requestId: res.requestId } : {}), ...deviations,
      ...(upload.sent ? { sent: upload.sent } : {}),
    };
    // An --async acceptance is the answer asked for, but no result: kept marked as such.
    const unusable = !answer.ok ? answer.error.message : !isResultBody(answer.result) ? 'accepted for asynchronous analysis (202): no coordinates yet' : undefined;
    const record = w.record(job, { response, replayed, ...(answer.ok ? { result: answer.result } : {}), ...(unusable !== undefined ? { unusable } : {}) });
    let stored: StoredRef | undefined;
    let storeError: StoreError | undefined;
    try {
      // The body's bytes exactly as received are what the store keeps (raw means raw),
      // but the key: a server that echoed it got it masked before anything read it (api/secret.ts).
      const row = { record, rawBytes: res.rawBytes, origin: w.ledger.o.origin, sandbox: res.headers[SANDBOX_HEADER] !== undefined, listed: w.listed, ...(w.ledger.o.batch ? { batch: w.ledger.o.batch } : {}) };
      stored = { id: await store.answer(key, row, credits), record };
    } catch (err) {
      storeError = err instanceof StoreError ? err : new StoreError(String(err), 'other');
    }
    const at = new Date(w.now()).toISOString();
    // raw_b64 beside raw when the text alone would not give the bytes back.
    const b64 = rawB64(res.raw, res.rawBytes);
    const kept = { raw: res.raw, ...(b64 ? { raw_b64: b64 } : {}), status: res.status, credits, ...deviations };
    await w.journal
      ?.append(answer.ok ? { t: 'done', id: job.id, key, ok: true, result: answer.result, ...kept, ...(replayed ? { replayed: true } : {}), at } : { t: 'done', id: job.id, key, ok: false, error: answer.error, ...kept, at })
      .catch(() => undefined);
    if (sent) w.inFlight?.(-1);
    // A URL is fetched by the service itself, metadata and all.
    const metadataSent = upload.sent ? upload.sent.metadata === 'kept' : true;
    const extra = { ...(stored ? { stored } : {}), ...(storeError ? { storeError } : {}) };
    await w.finish(job, answer.ok ? { ok: true, result: answer.result, replayed, credits, response, metadataSent, ...extra } : { ok: false, error: answer.error, credits, response, metadataSent, ...extra }, 'sent');
    return { kind: 'done' };
  } catch (err) {
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
