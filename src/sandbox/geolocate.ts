/**
 * POST /api/v1/geolocate after auth and rate limit, in the order a request meets the rules:
 * body parse (400) -> validation (422) -> depth caps (403, before any async branch, as the spec
 * says) -> batch (403/404) -> async without history (422) -> idempotency (409 / replay) -> image
 * bytes -> content screening (422, before credits are reserved) -> credits (402) -> analysis.
 */
import { type Depth, DEPTH_COST, LIMITS, checkGeolocateRequest } from '../api/schemas.js';
import { type Exchange, readBody, sendError, sendJson } from './http.js';
import { beginIdempotent, payloadHash, releaseIdempotent } from './idempotency.js';
import { fetchImage, isBlocked, isJpegOrPng } from './image.js';
import { runAnalysis, submitAsync } from './analysis.js';
import type { SandboxRuntime } from './runtime.js';
import { SANDBOX_BATCH } from './state.js';

export async function handleGeolocate(ex: Exchange, rt: SandboxRuntime): Promise<void> {
  const acct = ex.account!;
  const body = await readBody(ex.req, LIMITS.bodyMaxBytes);
  if (!body.ok) {
    // We stopped reading: the connection cannot be reused.
    return sendError(ex, 'invalid_request', `the request body exceeds the ${LIMITS.bodyMaxBytes} byte limit (image_b64 max 20 MB)`, {}, { Connection: 'close' });
  }
  let json: unknown;
  try {
    json = JSON.parse(body.buf.toString('utf8'));
  } catch (e) {
    return sendError(ex, 'malformed_json', `the body is not valid JSON: ${(e as Error).message}`);
  }

  const rawKey = ex.req.headers['idempotency-key'];
  if (Array.isArray(rawKey)) return sendError(ex, 'invalid_request', 'send one Idempotency-Key header, not several');
  if (rawKey !== undefined && (rawKey.length === 0 || rawKey.length > LIMITS.idempotencyKeyMaxChars)) {
    return sendError(ex, 'invalid_request', `Idempotency-Key must be 1 to ${LIMITS.idempotencyKeyMaxChars} characters (got ${rawKey.length})`);
  }

  const chk = checkGeolocateRequest(json);
  if (!chk.ok) {
    const p = chk.problem;
    return sendError(ex, p.code, p.message, { status: p.status, ...(p.max_effort ? { max_effort: p.max_effort } : {}), ...(p.field ? { details: { field: p.field } } : {}) });
  }
  const req = chk.value;
  const depth = (req.depth ?? 1) as Depth;

  if (depth > acct.maxDepth) {
    return sendError(ex, 'depth_not_permitted', `depth ${depth} is above this key's cap (max_depth ${acct.maxDepth})`, { max_depth: acct.maxDepth });
  }
  if (req.batch_id !== undefined) {
    // Grant first (tier table: batch:submit is enterprise only), then the binding (rule 6).
    if (!acct.can('batch:submit')) return sendError(ex, 'forbidden', `a ${acct.tier} key may not submit to a batch (batch:submit needs enterprise)`);
    if (req.batch_id !== SANDBOX_BATCH.id || ex.key !== SANDBOX_BATCH.key) {
      return sendError(ex, 'not_found', `batch ${JSON.stringify(req.batch_id)} does not exist or is bound to another key`);
    }
  }
  if (req.async && !acct.history) {
    return sendError(ex, 'webhook_required_for_async', 'async: true needs analysis history (or a webhook) to deliver the result; this account has history disabled');
  }

  const idemKey = rawKey;
  if (idemKey !== undefined) {
    const d = beginIdempotent(acct, idemKey, payloadHash(json));
    if (d.kind === 'in_progress') return sendError(ex, 'idempotency_in_progress', 'a request with this Idempotency-Key is still processing');
    if (d.kind === 'conflict') return sendError(ex, 'idempotency_key_reused', 'this Idempotency-Key was used with a different payload');
    if (d.kind === 'replay') return sendJson(ex, d.status, d.body, { 'Idempotent-Replayed': 'true' });
  }
  let settled = false;
  try {
    const image = await imageBytes(ex, req.image_b64, req.image_url, rt.signal);
    if (!image) return;
    if (isBlocked(image)) return sendError(ex, 'content_blocked', 'the image failed content-safety screening; nothing was charged');
    const cost = DEPTH_COST[depth];
    if (acct.seed.prepaidExhausted) {
      return sendError(ex, 'prepaid_credits_exhausted', 'the enterprise prepaid allocation is spent; contact the operator, do not retry', { details: { balance: acct.apiBalance, cost } });
    }
    if (acct.apiBalance < cost) {
      return sendError(ex, 'payment_required', `depth ${depth} costs ${cost} credits; the API balance is ${acct.apiBalance}`, { details: { balance: acct.apiBalance, cost } });
    }
    const filename = typeof (json as Record<string, unknown>).filename === 'string' ? ((json as Record<string, unknown>).filename as string) : null;
    const job = { req, depth, cost, image, idemKey: idemKey ?? null, filename };
    settled = req.async ? submitAsync(ex, rt, job) : await runAnalysis(ex, rt, job);
  } finally {
    if (idemKey !== undefined && !settled) releaseIdempotent(acct, idemKey);
  }
}

/** The image of the request, or undefined after answering 422. */
async function imageBytes(ex: Exchange, b64: string | undefined, url: string | undefined, signal: AbortSignal): Promise<Buffer | undefined> {
  if (b64 !== undefined) {
    const buf = Buffer.from(b64, 'base64');
    if (!isJpegOrPng(buf)) {
      sendError(ex, 'invalid_image_b64', 'image_b64 decodes to something that is not a JPEG or PNG');
      return undefined;
    }
    return buf;
  }
  const r = await fetchImage(url!, signal);
  if (!r.ok) {
    sendError(ex, 'invalid_request', r.reason, { details: { field: 'image_url' } });
    return undefined;
  }
  if (!isJpegOrPng(r.buf)) {
    sendError(ex, 'invalid_request', 'image_url did not serve a JPEG or PNG', { details: { field: 'image_url' } });
    return undefined;
  }
  return r.buf;
}
