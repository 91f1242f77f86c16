/**
 * One line per failure, with a hint (DESIGN.md: errors on stderr; no stack unless --debug).
 * Every code of api-spec.md "Error cases" has its own wording here.
 */
import { ApiError, BaseUrlError, ContractError, NetworkError, RedirectError, RequestValidationError, RetryLaterError, TimeoutError } from '../api/errors.js';
import { DEPTH_COST, type Depth, ERROR_CODE_STATUS } from '../api/schemas.js';
import { BelowConfidenceError, CancelledError, ConfigError, UsageError } from '../errors.js';
import { width, wrap } from './fit.js';
import { sanitizeInline } from './sanitize.js';
import { clockTime } from './wait-line.js';

interface Described {
  message: string;
  hint?: string;
}

const NOTHING_CHARGED = 'nothing was charged';

/**
 * The spec's code for a status, for answers whose body gave none (an empty 401 is still
 * "unauthorized", with its own hint, not "HTTP 401 (http_401)"): the first code of that status in
 * the contract's table, where its base codes come first. 422 and 502-504 have several causes, so
 * the status alone keeps its own wording below.
 */
function baseCode(status: number): string | undefined {
  if (status === 422 || status >= 502) return undefined;
  return (Object.keys(ERROR_CODE_STATUS) as Array<keyof typeof ERROR_CODE_STATUS>).find((c) => ERROR_CODE_STATUS[c] === status);
}

/**
 * What to change when the key is refused, by where it came from (the hint sent to
 * `geo keys test`, whose own refusal sent back to the same hint). Never a command that would read
 * the same key again.
 */
export function refusedKeyHint(from: ApiError['keyFrom']): string {
  if (from?.source === 'env') return 'it comes from GEO_API_KEY, which wins over profiles: correct it, or unset it to use a profile (`geo keys list`)';
  if (from?.source === 'profile' && from.profile) {
    const name = sanitizeInline(from.profile);
    return `it is profile "${name}"'s key: replace it with \`geo keys add ${name} --yes\`, or switch profile with \`geo keys use NAME\``;
  }
  return 'give a key the service accepts: `geo keys add NAME`, or GEO_API_KEY';
}

function fromApiError(e: ApiError): Described {
  const server = e.message ? sanitizeInline(e.message) : `HTTP ${e.status}`;
  const serverHint = e.hint ? sanitizeInline(e.hint) : undefined;
  const ref = e.requestId ? ` [request ${sanitizeInline(e.requestId)}]` : '';
  const wait = e.retryAfter !== undefined ? `retry in ${Math.ceil(e.retryAfter)} s` : 'retry later';
  const code = e.code.startsWith('http_') ? (baseCode(e.status) ?? e.code) : e.code;
  /** The server's own message, not the client's "HTTP 402" stand-in for an empty body. */
  const said = e.message !== '' && e.message !== `HTTP ${e.status}`;
  switch (code) {
    case 'unauthorized':
      return { message: `the API key was refused (401)${ref}`, hint: refusedKeyHint(e.keyFrom) };
    case 'forbidden':
      return { message: `${said ? server : 'this key may not call that endpoint'} (403)${ref}`, hint: serverHint ?? 'depth 3 and cases need a pro key or above; `geo keys test` shows the key' };
    case 'depth_not_permitted': {
      const n = e.maxDepth ?? 1;
      return { message: `this key allows depth <= ${n}${ref}`, hint: `try --depth ${n}` };
    }
    case 'payment_required': {
      // details is an open object: the figures are the server's and are sanitized like any string.
      const d = e.details as { balance?: unknown; cost?: unknown } | undefined;
      const figures = d && d.balance !== undefined && d.cost !== undefined ? `: balance ${sanitizeInline(d.balance)}, this call costs ${sanitizeInline(d.cost)}` : '';
      if (!figures && said && !/credit|balance|fund/i.test(e.message)) return { message: `${server} (402)${ref}`, hint: serverHint ?? `check your plan and \`geo credits\`; ${NOTHING_CHARGED}` };
      return { message: `not enough credits${figures} (402)${ref}`, hint: `check \`geo credits\`; depth costs are 1/2/10 credits; ${NOTHING_CHARGED}` };
    }
    case 'prepaid_credits_exhausted':
      return { message: `the prepaid enterprise allocation is spent (402)${ref}`, hint: 'contact your operator; do not retry' };
    case 'effort_exceeds_depth': {
      const max = e.maxEffort ? sanitizeInline(e.maxEffort) : undefined; // max_effort is a server string
      return { message: server, hint: max ? `the highest effort for this depth is ${max}: use --effort ${max} or a higher --depth` : 'lower --effort or raise --depth' };
    }
    case 'invalid_effort':
      return { message: server, hint: '--effort takes instant, low, medium or high' };
    case 'invalid_scope':
      return { message: server, hint: '--scope NAME --center LAT,LNG [--radius 1-500] [--captured-at YYYY-MM-DD]' };
    case 'invalid_image_b64':
      return { message: server, hint: 'send a JPEG or PNG file; raw base64 without a data: prefix' };
    case 'content_blocked':
      return { message: `the image failed content-safety screening (422)${ref}`, hint: `use another image; ${NOTHING_CHARGED}` };
    case 'webhook_required_for_async':
      return { message: `async needs analysis history, which this account has disabled (422)${ref}`, hint: 'drop --async, or enable history for the account' };
    case 'idempotency_in_progress':
      return { message: `the same request is still running on the server (409), past the deadline${ref}`, hint: 'the analysis may still finish on the server; rerun the same command (same journal, same key) to replay it free' };
    case 'rate_limited':
      if (e instanceof RetryLaterError) return { message: `${sanitizeInline(e.message)}${ref}`, hint: 'nothing was resent early; run the same command then (same Idempotency-Key, never charged twice)' };
      return rateLimited(e, ref, wait);
    case 'analysis_failed':
      return { message: `the analysis failed upstream (502) after retries${ref}`, hint: `${NOTHING_CHARGED}; retry, or try a lower --depth` };
    case 'analysis_timeout':
      return { message: `the analysis timed out on the server (504) after retries${ref}`, hint: `credits are refunded automatically; ${NOTHING_CHARGED}` };
    case 'not_found':
      return { message: `${server} (404)${ref}`, hint: serverHint ?? 'check --batch-id and --base-url' };
    case 'method_not_allowed':
      return { message: `${server} (405)${ref}`, hint: 'check --base-url: it should name the API service, not another site' };
    case 'server_error':
      return { message: `the service failed (${e.status}) after retries${ref}`, hint: `${NOTHING_CHARGED}; retry later` };
    default:
      // The payload-mismatch conflict (api-spec.md "States and transitions"): final, whoever resends.
      if (e.status === 409) return { message: `the Idempotency-Key was used before for a different request (409): ${server}${ref}`, hint: 'a key is reused only for the identical request, so resending it cannot help; a new request needs a new key' };
      if (e.status >= 500) return { message: `the service failed (${e.status}) after retries${ref}`, hint: `${NOTHING_CHARGED}; retry later` };
      return { message: `${server} (${e.status}${e.code ? ' ' + sanitizeInline(e.code) : ''})${ref}`, ...(serverHint ? { hint: serverHint } : {}) };
  }
}

/**
 * A 429 the retries gave up on: how many attempts, why the waits did not help (a Retry-After of 0
 * refused again, a header geo could not read), and when to come back by the server's own figures
 * (api/retry.ts comeBack).
 */
function rateLimited(e: ApiError, ref: string, wait: string): Described {
  const g = e.gaveUp;
  if (!g) return { message: `rate limited after retries (429)${ref}`, hint: `${wait}, or lower --concurrency` };
  const rl = e.rateLimit;
  const why = rl?.note !== undefined ? `: ${sanitizeInline(rl.note)}` : rl?.retryAfterS === 0 ? ': the service said to retry at once (Retry-After: 0) and refused each resend' : '';
  const inS = Math.max(0, Math.ceil(g.waitMs / 1000));
  return { message: `rate limited after ${g.attempts} attempt${g.attempts === 1 ? '' : 's'} (429)${why}${ref}`, hint: `try again after ${clockTime(g.retryAt)} (in ${inS} s: ${g.basis}), or lower --concurrency` };
}

export function describe(err: unknown): Described {
  if (err instanceof ApiError) return fromApiError(err);
  if (err instanceof RequestValidationError) {
    const e = err;
    const hints: Record<string, string> = {
      effort_exceeds_depth: `the highest effort for this depth is ${e.maxEffort}: use --effort ${e.maxEffort} or a higher --depth`,
      invalid_effort: '--effort takes instant, low, medium or high',
      invalid_scope: '--scope NAME --center LAT,LNG [--radius 1-500] [--captured-at YYYY-MM-DD]',
      invalid_image_b64: 'send a JPEG or PNG file; raw base64 without a data: prefix',
    };
    // invalid_request covers several fields; the field says which flag to fix.
    const byField: Record<string, string> = {
      depth: '--depth takes 1, 2 or 3',
      model: 'omit --model, or use --model orca-1.5',
      image_url: 'use an https:// URL, or download the image and pass the file',
      idempotency_key: '--idempotency-key takes 1 to 256 characters',
      batch_id: '--batch-id takes the id of a console batch bound to this key',
      limit: '--limit takes a whole number from 1 to 200',
    };
    return { message: `${e.message} (${e.code}; nothing was sent)`, hint: hints[e.code] ?? (e.field ? byField[e.field] : undefined) ?? 'see `geo locate --help`' };
  }
  if (err instanceof TimeoutError) return { message: `no answer from the service: ${err.message}, after retries`, hint: 'the analysis may have run; rerun the same command to replay it free (same Idempotency-Key), or raise --timeout' };
  if (err instanceof NetworkError) {
    return err.mayHaveRun
      ? { message: `the connection failed (${sanitizeInline(err.causeCode ?? err.message)}) after retries`, hint: 'the request may have run; rerun the same command to replay it free' }
      : { message: `cannot reach the service (${sanitizeInline(err.causeCode ?? err.message)})`, hint: `${NOTHING_CHARGED}; check --base-url and your network` };
  }
  if (err instanceof ContractError) return { message: `the response could not be read: ${sanitizeInline(err.message)}`, hint: 'the outcome is unknown; rerun the same command to replay it without paying twice' };
  if (err instanceof RedirectError) {
    if (err.status === 304) return { message: err.message, hint: 'a proxy or cache between geo and the service answered for it; check --base-url, or rerun the same command (same key, never charged twice)' };
    return { message: err.message, hint: 'the key never leaves the configured origin; check --base-url' };
  }
  if (err instanceof BaseUrlError) return { message: err.message, hint: 'use an https:// base URL (plain http only for localhost)' };
  if (err instanceof Error) {
    const withHint = err as Error & { hint?: string; code?: string; path?: string };
    // A full disk, however it surfaced (an errno from node:fs, SQLite's code): said so.
    if (!withHint.hint && (withHint.code === 'ENOSPC' || withHint.code === 'EDQUOT' || withHint.code?.startsWith('SQLITE_FULL'))) {
      return { message: `${withHint.path ? `cannot write ${sanitizeInline(withHint.path)}: ` : ''}the disk is full`, hint: 'free some space, then run the same command again' };
    }
    if (typeof withHint.code === 'string' && withHint.code.startsWith('commander.')) {
      return { message: err.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' '), hint: 'see `geo --help` or `geo <command> --help`' };
    }
    return { message: sanitizeInline(err.message), ...(withHint.hint ? { hint: withHint.hint } : {}) };
  }
  return { message: sanitizeInline(String(err)) };
}

/**
 * The one line. Every line has a hint: where the code that failed gave none, a usage or
 * config error points at the command's help, anything else at --debug. Hints may quote user or
 * server text, so they are sanitized like messages.
 */
export function describeError(err: unknown, opts: { color?: boolean; columns?: number } = {}): string {
  const d = describe(err);
  const label = opts.color ? '\u001b[31merror\u001b[39m' : 'error';
  const hint = sanitizeInline(d.hint ?? fallbackHint(err));
  const one = `${label}: ${d.message} — hint: ${hint}`;
  if (opts.columns === undefined || width(`error: ${d.message} — hint: ${hint}`) <= opts.columns) return one;
  // Too wide for the terminal: fitted to its width, the hint on lines of its own, a
  // quoted command never broken (wrap keeps `…` whole), a long path alone on its line.
  const lines = [...wrap(`error: ${d.message}`, opts.columns, '  ', ''), ...wrap(`hint: ${hint}`, opts.columns, '  ', '')];
  return lines.join('\n').replace(/^error/, label);
}

/** "--debug for details" only where --debug shows more (the HTTP log, a stack), not after a choice the user made. */
function fallbackHint(err: unknown): string {
  if (err instanceof UsageError || err instanceof ConfigError) return 'see `geo <command> --help`';
  if (err instanceof CancelledError) return 'nothing more was sent; run the same command again when ready';
  if (err instanceof BelowConfidenceError) return 'the result was printed in full; lower --min-confidence to accept it';
  return 'rerun with --debug for details';
}

/** Cost wording shared by errors and plans: "depth 3 · 10 credits". */
export function costOf(depth: Depth): string {
  return `depth ${depth} · ${DEPTH_COST[depth]} credit${DEPTH_COST[depth] === 1 ? '' : 's'}`;
}
