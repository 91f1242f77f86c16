/**
 * What a failed request means for the batch: 401, 402 and 403 stop it (every
 * further request would fail the same way, and 402 is about money); a 404 on geolocate means the
 * batch_id is unknown or bound to another key, the same for every image, so it stops too; a 422
 * (and 400) belongs to one image: recorded as final, the batch goes on; 5xx, timeouts and network
 * failures that outlived the client's retries are recorded as unfinished, so a rerun resends them
 * with the same key; when the shared retry budget is spent, the batch stops rather than burn
 * through the remaining images against a service that is failing.
 */
import { InputChangedError } from '../api/body.js';
import { ApiError, ContractError, NetworkError, RequestValidationError, RetryLaterError, TimeoutError } from '../api/errors.js';
import { classify } from '../api/retry.js';
import { CancelledError, StoreError, UsageError } from '../errors.js';
import { asResultBody } from '../evidence/record-types.js';
import type { BatchError, BatchStop } from './types.js';

export function toBatchError(err: unknown): BatchError {
  if (err instanceof ApiError) {
    // 409 with another payload (not "in progress"): the key was first used for other bytes or
    // fields, and every resend under it meets the same 409, so it is final; --fresh
    // sends the input under a new key. 400 and 422 are about this image's request and repeat identically.
    if (isKeyConflict(err)) return { code: err.code, status: 409, message: `the Idempotency-Key was used before for a different request (409): ${err.message}`, final: true };
    const final = err.status === 400 || err.status === 422;
    return { code: err.code, status: err.status, message: err.message, final };
  }
  // Not final: the key may hold a paid answer for the bytes first sent; the file as it was replays it.
  if (err instanceof InputChangedError) return { code: 'input_changed', message: err.message, final: false };
  if (err instanceof RequestValidationError) return { code: err.code, message: err.message, final: true };
  if (err instanceof UsageError) return { code: 'invalid_input', message: err.message, final: true };
  if (err instanceof TimeoutError) return { code: 'timeout', message: err.message, final: false };
  if (err instanceof NetworkError) return { code: 'network_error', message: err.message, final: false };
  if (err instanceof ContractError) return { code: err.truncated ? 'truncated_response' : 'bad_response', status: err.status, message: err.message, final: false };
  if (err instanceof CancelledError) return { code: 'cancelled', message: err.message, final: false };
  return { code: 'error', message: err instanceof Error ? err.message : String(err), final: false };
}

/** A 409 that is not "still in progress": the key was used for another payload (api-spec.md "States and transitions"). */
export function isKeyConflict(err: unknown): boolean {
  return err instanceof ApiError && err.status === 409 && err.code !== 'idempotency_in_progress';
}

/** The error code of a paid answer geo cannot use (kept, final: a rerun replays it from the journal). */
export const UNUSABLE = 'unusable_answer';

const shown = (v: unknown) => (v === undefined ? 'missing' : JSON.stringify(v)?.slice(0, 40));

/**
 * What a 2xx body means (DESIGN.md "Never lose what was paid"): usable coordinates make it a
 * result, however else it deviates; with --async, a 202 without them is the accepted job, passed
 * on as received (its shape is "not shown"); anything else is a final failure that keeps the body.
 */
export function classifyAnswer(data: unknown, status: number, async: boolean): { ok: true; result: unknown } | { ok: false; error: BatchError } {
  const result = asResultBody(data);
  if (result) return { ok: true, result };
  if (status === 202 && async) return { ok: true, result: data };
  const loc = (data as { location?: { latitude?: unknown; longitude?: unknown } } | null)?.location;
  const why =
    status === 202 ? 'it was accepted for asynchronous analysis (202), but --async was not asked'
    : typeof loc !== 'object' || loc === null ? 'location is missing'
    : `location.latitude ${shown(loc.latitude)}, location.longitude ${shown(loc.longitude)} are not usable coordinates`;
  return { ok: false, error: { code: UNUSABLE, status, message: `the ${status} answer has no usable coordinates: ${why}`, final: true } };
}

/** Whether this failure ends the batch; undefined means record it and go on. */
export function stopFor(err: unknown, budgetRemaining: number, aborted: boolean): BatchStop | undefined {
  if (aborted || err instanceof CancelledError) return { reason: 'cancelled', error: err };
  if (err instanceof ApiError) {
    if (err.status === 401) return { reason: 'auth', error: err };
    if (err.status === 402) return { reason: 'credits', error: err };
    if (err.status === 403) return { reason: 'forbidden', error: err };
    if (err.status === 404) return { reason: 'not_found', error: err };
    // The server asked for a wait geo will not sit through: every other request would meet it too.
    if (err instanceof RetryLaterError) return { reason: 'rate_limited', error: err };
  }
  // A failure the client would have retried, had the batch any retries left.
  if (budgetRemaining <= 0 && classify(err) !== undefined) return { reason: 'retry_budget', error: err };
  return undefined;
}

/** One line for a stop (notices, not_sent records). */
export function describeStop(s: BatchStop): string {
  const e = s.error;
  const what = e instanceof ApiError ? `${e.status} ${e.code}` : e instanceof Error ? e.message : String(e);
  switch (s.reason) {
    case 'retry_budget':
      return `the batch's retry budget is spent (last failure: ${what})`;
    case 'cancelled':
      return 'the batch was cancelled';
    case 'output_closed':
      return 'the output was closed';
    case 'rate_limited':
    case 'budget':
      return e instanceof Error ? e.message : String(e);
    default:
      return `the batch stopped after ${what}`;
  }
}

/** DESIGN.md's exit table for a batch that stopped early (cli.ts maps the rest). */
export function stopExitCode(s: BatchStop): number {
  switch (s.reason) {
    case 'auth':
    case 'forbidden':
      return 3;
    // The budget, like the balance, ran out: what the service charged leaves no room for the next request.
    case 'credits':
    case 'budget':
      return 4;
    case 'rate_limited':
      return 5;
    case 'cancelled':
      return 130;
    case 'output_closed':
      return 0;
    case 'not_found':
      return 2;
    case 'retry_budget':
      return s.error instanceof ApiError && s.error.status === 429 ? 5 : 6;
    // A store that cannot be reached is a network failure, as the service's own (exit 6).
    default:
      return s.error instanceof StoreError && s.error.kind === 'unreachable' ? 6 : 1;
  }
}
