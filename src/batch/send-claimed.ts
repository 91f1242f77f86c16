/**
 * One claimed job sent (worker.ts): its upload prepared, its turn under the rate limit taken,
 * the request sent with the claim's key, and the answer committed with its claim before it is
 * handed on. A request that fails is settled by send-failed.ts.
 */
import { answeredDepth, chargeOf } from '../api/charge.js';
import { rawB64 } from '../api/decode.js';
import { RetryLaterError } from '../api/errors.js';
import { SANDBOX_HEADER } from '../api/routes.js';
import type { Depth, GeolocateRequest } from '../api/schemas.js';
import { StoreError } from '../errors.js';
import { isResultBody } from '../evidence/record-types.js';
import { keepEmbedded } from './embedded.js';
import { keepPerceptual } from './perceptual.js';
import { linkPaidCopy } from './copies.js';
import { classifyAnswer } from './outcome.js';
import type { TaskControl, TaskResult } from './scheduler.js';
import { type Charged, MAY_HAVE_RUN, failedSend } from './send-failed.js';
import { type Job, prepareUpload } from './sources.js';
import type { ResponseMeta, StoredRef } from './types.js';
import type { WorkerEnv } from './worker-env.js';

export async function sendClaimed(w: WorkerEnv, job: Job, ctl: TaskControl, turn0: { key: string; takeover: boolean }, charged: Charged): Promise<TaskResult> {
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
    // Its perceptual hash (the plan's, similar.ts), so its copies are found later (perceptual.ts).
    const perceptual = w.listed ? await keepPerceptual(store, job, w.hashes?.get(job.id)) : {};
    if (perceptual.why) w.emit({ type: 'notice', message: perceptual.why });
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
      // Every attempt's headers pace the batch, and a resend waits for its turn.
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
    // A copy of a photo located before: linked to it (copies.ts); a link that fails costs the answer nothing.
    const copyOf = stored && answer.ok && isResultBody(answer.result) ? await linkPaidCopy(store, job, stored.id, perceptual.hash, w.ledger.o.origin).catch(() => undefined) : undefined;
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
    await w.finish(job, answer.ok ? { ok: true, result: answer.result, replayed, credits, response, metadataSent, ...extra, ...(copyOf ? { copyOf } : {}) } : { ok: false, error: answer.error, credits, response, metadataSent, ...extra }, 'sent');
    return { kind: 'done' };
  } catch (err) {
    return await failedSend(w, job, ctl, key, err, { sent, ranBefore }, charged);
  }
}
