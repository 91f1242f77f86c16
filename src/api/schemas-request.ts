/**
 * The geolocation request of ../shared/api-spec.md: its schemas and every rule a server checks, in
 * the spec's order with the spec's error codes. schemas.ts re-exports it and configures zod
 * (English messages, jitless) before any of these lazy schemas is built.
 */
import * as z from 'zod/mini';
import { type Depth, EFFORTS, type Effort, LIMITS, MODEL, NORMAL_EFFORT } from './schemas-limits.js';
import { beginsWithCalendarDate, isAcceptableImageUrl, isStrictBase64 } from './validators.js';

/** The value of `build()`, computed on the first call. */
function once<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

export const ScopeSchema = z.lazy(() =>
  z.looseObject({
    name: z.string().check(z.minLength(1)),
    lat: z.number().check(z.gte(-90), z.lte(90)),
    lng: z.number().check(z.gte(-180), z.lte(180)),
    radius_km: z.optional(z.number().check(z.gte(LIMITS.radiusKm.min), z.lte(LIMITS.radiusKm.max))),
    captured_at: z.optional(z.string().check(z.refine(beginsWithCalendarDate, 'must begin with a real calendar date (YYYY-MM-DD)'))),
  }),
);
export type Scope = z.infer<typeof ScopeSchema>;

/**
 * Field rules grouped by the error code the spec gives when they fail (api-spec.md "Error cases").
 * Built on first use, like every schema here (z.lazy below): constructing zod schemas costs
 * start-up time, and a command builds only the few it parses (bench/startup.mjs).
 */
const requestFields = once(() => ({
  image_url: z.optional(z.string().check(z.refine(isAcceptableImageUrl, 'must be an https URL'))),
  image_b64: z.optional(z.string().check(z.maxLength(LIMITS.imageB64MaxChars, 'image_b64 exceeds 20 MB'), z.refine(isStrictBase64, 'not strict base64'))),
  model: z.optional(z.literal(MODEL)),
  depth: z.optional(z.int().check(z.gte(1), z.lte(3))),
  effort: z.optional(z.enum(EFFORTS)),
  batch_id: z.optional(z.string().check(z.minLength(1))),
  scope: z.optional(ScopeSchema),
  async: z.optional(z.boolean()),
}));

export const GeolocateRequestSchema = z.lazy(() => z.looseObject(requestFields()));
export type GeolocateRequest = z.infer<typeof GeolocateRequestSchema>;

export const IdempotencyKeySchema = z.lazy(() => z.string().check(z.minLength(1), z.maxLength(LIMITS.idempotencyKeyMaxChars)));

export interface RequestProblem {
  status: 400 | 422;
  code: 'invalid_request' | 'invalid_image_b64' | 'invalid_effort' | 'effort_exceeds_depth' | 'invalid_scope';
  message: string;
  field?: string;
  max_effort?: Effort;
}

type CheckResult = { ok: true; value: GeolocateRequest } | { ok: false; problem: RequestProblem };

function fieldProblem(field: keyof ReturnType<typeof requestFields>, value: unknown): string | undefined {
  const r = requestFields()[field].safeParse(value);
  return r.success ? undefined : (r.error.issues[0]?.message ?? 'invalid');
}

/**
 * Every request rule, in the order a server would meet them, giving the spec's code for the first
 * that fails. The client runs it before sending (so bad input exits 2 and nothing is sent); the
 * sandbox runs it to answer 422.
 */
export function checkGeolocateRequest(body: unknown): CheckResult {
  const fail = (code: RequestProblem['code'], message: string, field?: string, extra: Partial<RequestProblem> = {}): CheckResult => ({
    ok: false,
    problem: { status: 422, code, message, ...(field ? { field } : {}), ...extra },
  });
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return fail('invalid_request', 'the body must be a JSON object');
  const b = body as Record<string, unknown>;
  if (b.image_url === undefined && b.image_b64 === undefined) return fail('invalid_request', 'one of image_url or image_b64 is required');
  if (b.image_b64 !== undefined) {
    if (typeof b.image_b64 === 'string' && /^data:/i.test(b.image_b64)) return fail('invalid_image_b64', 'image_b64 must be raw base64 without a data: URL prefix', 'image_b64');
    const p = fieldProblem('image_b64', b.image_b64);
    if (p) return fail('invalid_image_b64', `image_b64 is not valid: ${p}`, 'image_b64');
  }
  for (const f of ['image_url', 'model', 'depth', 'batch_id', 'async'] as const) {
    const p = fieldProblem(f, b[f]);
    if (p) return fail('invalid_request', `${f}: ${f === 'model' ? `only ${MODEL} is accepted` : p}`, f);
  }
  if (b.effort !== undefined) {
    if (fieldProblem('effort', b.effort)) return fail('invalid_effort', `effort must be one of ${EFFORTS.join(', ')}`, 'effort');
    const depth = ((b.depth as Depth | undefined) ?? 1) as Depth;
    const max = NORMAL_EFFORT[depth];
    if (EFFORTS.indexOf(b.effort as Effort) > EFFORTS.indexOf(max)) {
      return fail('effort_exceeds_depth', `effort ${String(b.effort)} is above depth ${depth}'s normal level (${max})`, 'effort', { max_effort: max });
    }
  }
  if (b.scope !== undefined) {
    const r = ScopeSchema.safeParse(b.scope);
    if (!r.success) {
      const issue = r.error.issues[0];
      return fail('invalid_scope', `scope${issue?.path.length ? '.' + issue.path.join('.') : ''}: ${issue?.message ?? 'invalid'}`, 'scope');
    }
  }
  return { ok: true, value: GeolocateRequestSchema.parse(b) };
}
