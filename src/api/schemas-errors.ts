/**
 * The error and rate-limit header contract of ../shared/api-spec.md ("Errors", "Limits"): the
 * half of the wire contract that every endpoint shares. schemas.ts re-exports it and configures
 * zod (English messages, jitless) before any of these lazy schemas is built.
 */
import * as z from 'zod/mini';

// ---- Errors ---------------------------------------------------------------------------------

/**
 * The codes of api-spec.md "Error body" and "Error cases", each with the status the spec gives it
 * (base codes without a row take their usual status). A 2xx carrying an error shape without a
 * usable `status` is read as the error its code names (response.ts).
 */
export const ERROR_CODE_STATUS = {
  not_found: 404, method_not_allowed: 405, unauthorized: 401, forbidden: 403, payment_required: 402, rate_limited: 429,
  invalid_request: 422, invalid_image_b64: 422, server_error: 500, prepaid_credits_exhausted: 402, depth_not_permitted: 403,
  idempotency_in_progress: 409, invalid_effort: 422, effort_exceeds_depth: 422, content_blocked: 422, invalid_scope: 422,
  webhook_required_for_async: 422, analysis_failed: 502, analysis_timeout: 504,
} as const satisfies Record<string, number>;
export const ERROR_CODES = Object.keys(ERROR_CODE_STATUS) as Array<keyof typeof ERROR_CODE_STATUS>;

const errorExtras = () => ({
  retry_after: z.optional(z.number()),
  max_effort: z.optional(z.string()),
  max_depth: z.optional(z.int()),
  retryable: z.optional(z.boolean()),
});

export const ApiErrorBodySchema = z.lazy(() =>
  z.looseObject({
    success: z.literal(false),
    error: z.string(),
    code: z.string(),
    message: z.string(),
    hint: z.optional(z.string()),
    details: z.optional(z.record(z.string(), z.unknown())),
    docs: z.string(),
    type: z.string(),
    title: z.string(),
    status: z.int(),
    detail: z.string(),
    instance: z.optional(z.string()),
    ...errorExtras(),
  }),
);
export type ApiErrorBody = z.infer<typeof ApiErrorBodySchema>;

/** The problem-only form (application/problem+json). */
export const ProblemBodySchema = z.lazy(() =>
  z.looseObject({
    type: z.string(),
    title: z.string(),
    status: z.int(),
    detail: z.string(),
    instance: z.optional(z.string()),
    code: z.optional(z.string()),
    docs: z.optional(z.string()),
    ...errorExtras(),
  }),
);
export type ProblemBody = z.infer<typeof ProblemBodySchema>;
export const ErrorBodySchema = z.lazy(() => z.union([ApiErrorBodySchema, ProblemBodySchema]));

// ---- Rate-limit headers (api-spec.md "Limits") ------------------------------------------------

export const RATE_LIMIT_HEADERS = [
  'ratelimit', 'ratelimit-policy', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset',
  'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset',
] as const;
const digits = () => z.string().check(z.regex(/^\d+$/));
/** What every API response carries; Retry-After only on 429. */
export const RateLimitHeadersSchema = z.lazy(() =>
  z.looseObject({
    ratelimit: z.string().check(z.minLength(1)),
    'ratelimit-policy': z.string().check(z.minLength(1)),
    'ratelimit-limit': digits(),
    'ratelimit-remaining': digits(),
    'ratelimit-reset': digits(),
    'x-ratelimit-limit': digits(),
    'x-ratelimit-remaining': digits(),
    'x-ratelimit-reset': digits(),
    'retry-after': z.optional(digits()),
  }),
);
