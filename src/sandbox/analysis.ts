/**
 * Running an analysis once every check has passed: the injected service faults, the latency, the
 * model call, the debit (only on success), the 504 refund, history and the idempotent record.
 * "Failed analyses are not charged" (api-spec.md); 502 and 503 never debit; a 504 debits and
 * refunds at once so the ledger shows both halves.
 */
import type { Depth, GeolocateRequest, GeolocateResponse } from '../api/schemas.js';
import { type Exchange, sendError, sendJson, sleep } from './http.js';
import { completeIdempotent } from './idempotency.js';
import { analyze } from './results.js';
import { type SandboxRuntime, isoAt, newId } from './runtime.js';
import { slug } from './cities.js';
import type { Account, AnalysisRecord, JobRecord } from './state.js';

export interface Job {
  req: GeolocateRequest;
  depth: Depth;
  cost: number;
  image: Buffer;
  idemKey: string | null;
  filename: string | null;
}

/** The faults that stop an analysis before it runs; true when one answered. */
function serviceFault(ex: Exchange): boolean {
  const k = ex.fault?.kind;
  if (k === '500') sendError(ex, 'server_error', 'injected fault 500: internal error; nothing was charged');
  else if (k === '503') sendError(ex, 'service_unavailable', 'injected fault 503: inference backend unavailable; nothing was charged');
  else return false;
  return true;
}

function record(body: GeolocateResponse, job: Job, at: string, async: boolean): AnalysisRecord {
  const l = body.location;
  return {
    analysis_id: body.analysis_id!, created_at: at, filename: job.filename, depth: job.depth, model: body.model,
    latitude: l.latitude, longitude: l.longitude, country: l.country, city: l.city, city_slug: slug(l.city),
    neighborhood: l.neighborhood, address: l.address, confidence: body.confidence, reasoning: body.reasoning, async,
  };
}

async function complete(acct: Account, rt: SandboxRuntime, job: Job, analysisId: string | null, start: number, async: boolean): Promise<GeolocateResponse> {
  const body = await analyze({ image: job.image, req: job.req, analysisId, startedAt: start, ...(rt.known ? { known: rt.known } : {}) });
  const at = isoAt(rt.now);
  acct.debit({ amount: job.cost, depth: job.depth, idempotency_key: job.idemKey, analysis_id: analysisId, at });
  if (analysisId) acct.analyses.push(record(body, job, at, async));
  return body;
}

/** Synchronous analysis; true when it succeeded (the idempotency key then stays completed). */
export async function runAnalysis(ex: Exchange, rt: SandboxRuntime, job: Job): Promise<boolean> {
  const acct = ex.account!;
  if (serviceFault(ex)) return false;
  const start = performance.now();
  if (rt.latencyMs > 0) await sleep(rt.latencyMs, rt.signal);
  acct.modelCalls++;
  if (ex.fault?.kind === '502') {
    sendError(ex, 'analysis_failed', 'injected fault 502: upstream analysis failed; not charged. Retry or lower the depth.');
    return false;
  }
  const analysisId = acct.history ? newId('an') : null;
  if (ex.fault?.kind === '504') {
    const e = { amount: job.cost, depth: job.depth, idempotency_key: job.idemKey, analysis_id: null, at: isoAt(rt.now) };
    acct.debit({ ...e, reason: 'reserved for the analysis' });
    acct.refund({ ...e, reason: 'analysis_timeout (504): refunded automatically' });
    sendError(ex, 'analysis_timeout', 'injected fault 504: the analysis timed out; the credits were refunded', { retryable: true });
    return false;
  }
  const body = await complete(acct, rt, job, analysisId, start, false);
  if (job.idemKey) completeIdempotent(acct, job.idemKey, 200, body);
  sendJson(ex, 200, body);
  return true;
}

/**
 * async: true -> 202 with the sandbox's own body (the spec does not show it):
 * { success, status: 'queued', job_id, analysis_id }. The job runs after --latency, is debited
 * when it completes and then appears in GET /analyses. Faults answer the submit; jobs never fault.
 */
export function submitAsync(ex: Exchange, rt: SandboxRuntime, job: Job): boolean {
  const acct = ex.account!;
  if (serviceFault(ex)) return false;
  if (ex.fault?.kind === '502' || ex.fault?.kind === '504') {
    sendError(ex, ex.fault.kind === '502' ? 'analysis_failed' : 'analysis_timeout', `injected fault ${ex.fault.kind} on an async submit; nothing was charged`, ex.fault.kind === '504' ? { retryable: true } : {});
    return false;
  }
  const rec: JobRecord = { job_id: newId('job'), analysis_id: newId('an'), status: 'queued', depth: job.depth, submitted_at: isoAt(rt.now) };
  acct.jobs.push(rec);
  const body = { success: true, status: 'queued', job_id: rec.job_id, analysis_id: rec.analysis_id };
  if (job.idemKey) completeIdempotent(acct, job.idemKey, 202, body);
  const start = performance.now();
  const p: Promise<void> = (async () => {
    await sleep(rt.latencyMs, rt.signal);
    acct.modelCalls++;
    if (acct.apiBalance < job.cost) throw new Error(`credits ran out before the job ran (balance ${acct.apiBalance}, cost ${job.cost})`);
    await complete(acct, rt, job, rec.analysis_id, start, true);
    rec.status = 'completed';
  })()
    .catch((e: unknown) => {
      rec.status = 'failed';
      rec.error = (e as Error).message;
    })
    .finally(() => {
      rec.finished_at = isoAt(rt.now);
      rt.pending.delete(p);
    });
  rt.pending.add(p);
  sendJson(ex, 202, body);
  return true;
}
