/**
 * Error bodies in the full ApiError shape (api-spec.md "Errors"), or the problem-only form
 * (application/problem+json) when the client prefers it. One catalog, also rendered by docs.ts.
 *
 * Codes the spec leaves unshown, chosen here: malformed_json (400), idempotency_key_reused (409 on a
 * different payload), service_unavailable (503).
 */
import type { ApiErrorBody, ProblemBody } from '../api/schemas.js';

export interface CatalogEntry {
  status: number;
  title: string;
  hint: string;
  /** The spec's condition, for the docs. */
  when: string;
}

export const ERROR_CATALOG = {
  malformed_json: { status: 400, title: 'Malformed JSON', hint: 'Send a JSON object with Content-Type: application/json.', when: 'The body is not valid JSON (code not shown by the spec; chosen by the sandbox).' },
  unauthorized: { status: 401, title: 'Unauthorized', hint: 'Send Authorization: Bearer <key> or x-api-key: <key>.', when: 'Missing or invalid API key.' },
  payment_required: { status: 402, title: 'Payment required', hint: 'Top up API credits or lower the depth.', when: 'Insufficient credits for the requested depth; or the plan does not include cases.' },
  prepaid_credits_exhausted: { status: 402, title: 'Prepaid credits exhausted', hint: 'Contact the operator; do not retry.', when: 'Enterprise prepaid allocation is spent.' },
  forbidden: { status: 403, title: 'Forbidden', hint: 'This key lacks the grant for this call (batch:submit needs enterprise).', when: 'Key not allowed to call the endpoint.' },
  depth_not_permitted: { status: 403, title: 'Depth not permitted', hint: 'Lower depth to max_depth or use a key with a higher cap.', when: "Requested depth above the key's cap; body carries max_depth." },
  not_found: { status: 404, title: 'Not found', hint: 'Check the path, or the batch_id and the key it is bound to.', when: 'No such endpoint; or the batch_id does not exist or is bound to another key.' },
  method_not_allowed: { status: 405, title: 'Method not allowed', hint: 'Use a method listed in the Allow header.', when: 'Method not offered on this path (Allow header lists the ones that are).' },
  idempotency_in_progress: { status: 409, title: 'Idempotency key in progress', hint: 'Wait and retry with the same key.', when: 'Same Idempotency-Key still processing.' },
  idempotency_key_reused: { status: 409, title: 'Idempotency key reused', hint: 'Use a new Idempotency-Key for a different payload.', when: 'Idempotency key reused with a different payload (code not shown by the spec; chosen by the sandbox).' },
  invalid_request: { status: 422, title: 'Invalid request', hint: 'Send image_b64 or a reachable image_url; see the field rules.', when: 'No image given, image_url could not be fetched, a field or limit is broken.' },
  invalid_effort: { status: 422, title: 'Invalid effort', hint: 'Use instant, low, medium or high.', when: 'Unknown effort value.' },
  effort_exceeds_depth: { status: 422, title: 'Effort exceeds depth', hint: 'Lower effort to max_effort or raise the depth.', when: "Effort above the depth's normal level; carries max_effort." },
  content_blocked: { status: 422, title: 'Content blocked', hint: 'The image failed content-safety screening; it was not charged.', when: 'Image failed content-safety screening (sandbox: bytes contain SANDBOX_CONTENT_BLOCKED).' },
  invalid_image_b64: { status: 422, title: 'Invalid image_b64', hint: 'Send raw base64 of a JPEG or PNG, without a data: prefix.', when: 'image_b64 not decodable, carries a data: prefix, or is not a JPEG or PNG.' },
  invalid_scope: { status: 422, title: 'Invalid scope', hint: 'scope needs name, lat, lng; radius_km 1-500; captured_at a real date.', when: 'Scope cannot be parsed (includes invalid scope.captured_at).' },
  webhook_required_for_async: { status: 422, title: 'Webhook required for async', hint: 'Enable analysis history or call synchronously.', when: 'async: true with analysis history disabled.' },
  rate_limited: { status: 429, title: 'Too many requests', hint: 'Retry after retry_after seconds.', when: 'Rate limit exceeded; Retry-After header sent.' },
  server_error: { status: 500, title: 'Internal server error', hint: 'Retry later.', when: 'Internal error.' },
  analysis_failed: { status: 502, title: 'Analysis failed', hint: 'Retry or lower the depth; not charged.', when: 'Upstream failure; not charged.' },
  service_unavailable: { status: 503, title: 'Service unavailable', hint: 'Transient: retry with backoff; not charged.', when: 'Inference backend unavailable (code not shown by the spec; chosen by the sandbox).' },
  analysis_timeout: { status: 504, title: 'Analysis timed out', hint: 'Retry; the credits were refunded.', when: 'Timed out; retryable: true; credits refunded automatically.' },
} as const satisfies Record<string, CatalogEntry>;
export type ErrorCode = keyof typeof ERROR_CATALOG;

export interface ErrorExtras {
  status?: number;
  details?: Record<string, unknown>;
  retry_after?: number;
  max_effort?: string;
  max_depth?: number;
  retryable?: boolean;
  hint?: string;
}

export function docsUrl(base: string, code: string): string {
  return `${base}/api/v1/docs#${code}`;
}

/** The full ApiError body: ApiError fields and RFC 9457 problem fields side by side. */
export function apiErrorBody(base: string, requestId: string, code: ErrorCode, message: string, x: ErrorExtras = {}): ApiErrorBody {
  const c: CatalogEntry = ERROR_CATALOG[code];
  const { status = c.status, hint = c.hint, details, ...extras } = x;
  return {
    success: false,
    error: c.title,
    code,
    message,
    hint,
    ...(details ? { details } : {}),
    docs: docsUrl(base, code),
    type: docsUrl(base, code),
    title: c.title,
    status,
    detail: message,
    instance: `urn:request:${requestId}`,
    ...extras,
  };
}

/** The problem-only form: type, title, status, detail, instance, code, docs and the named extras. */
export function problemBody(full: ApiErrorBody): ProblemBody {
  const { success: _s, error: _e, message: _m, hint: _h, details: _d, ...rest } = full;
  return rest;
}

/** Does the Accept header prefer application/problem+json over application/json? */
export function prefersProblem(accept: string | undefined): boolean {
  if (!accept) return false;
  const q = (type: string): number => {
    for (const part of accept.split(',')) {
      const [t, ...params] = part.trim().split(';');
      if (t?.trim().toLowerCase() !== type) continue;
      const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return qp ? Number(qp.slice(2)) || 0 : 1;
    }
    return -1;
  };
  const p = q('application/problem+json');
  return p > 0 && p >= q('application/json');
}
