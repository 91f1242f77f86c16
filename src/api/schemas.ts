/**
 * The wire contract of ../shared/api-spec.md as zod schemas, shared by the client (checks before
 * sending, parses what comes back) and the sandbox (validates requests, builds responses).
 *
 * Response objects are `looseObject`: fields the spec does not list pass through untouched
 * (DESIGN.md: "where it says 'not shown', the CLI assumes nothing").
 *
 * Written with zod/mini (checks and wrappers are functions: z.optional(x), x.check(z.gte(0))).
 * Every schema is wrapped in z.lazy and built on its first parse: zod's constructors cost about
 * 25 ms for the whole contract on Node 20, and `geo credits` needs two of these schemas, not forty
 * (start-up budget; bench/startup.mjs).
 */
import * as z from 'zod/mini';
import { $ZodCheckNumberFormat } from 'zod/v4/core';
import en from 'zod/v4/locales/en.js';
import { beginsWithCalendarDate, isAcceptableImageUrl, isStrictBase64 } from './validators.js';

// zod/mini: the same parser core as zod's classic API without a method table on every schema,
// so it loads in about half the time (start-up budgets; bench/startup.mjs). Its English
// messages are opt-in. zod's JIT (object parsers compiled with new Function on first use) costs
// more than it saves for the handful of bodies a CLI run parses, and it is one eval fewer.
z.config({ ...en(), jitless: true });

// ---- Constants the spec fixes (api-spec.md "Limits", "Versioning") -------------------------------

export const MODEL = 'orca-1.5';
export const DEPTHS = [1, 2, 3] as const;
export type Depth = (typeof DEPTHS)[number];
export const EFFORTS = ['instant', 'low', 'medium', 'high'] as const;
export type Effort = (typeof EFFORTS)[number];

/** Rule 2 of the request: effort may only lower reasoning inside a depth. */
export const NORMAL_EFFORT: Record<Depth, Effort> = { 1: 'low', 2: 'medium', 3: 'high' };
export const DEPTH_COST: Record<Depth, number> = { 1: 1, 2: 2, 3: 10 };
/** "Latency guidance": the statements differ, so the CLI quotes the widest honest range. */
export const DEPTH_LATENCY: Record<Depth, string> = { 1: '10-24 s', 2: '6-48 s', 3: '70-150 s' };
export const DEPTH_NAME: Record<Depth, string> = { 1: 'Surface', 2: 'Standard', 3: 'Forensic' };

export const LIMITS = {
  /** "image_b64 max 20 MB": read as 20,000,000 base64 characters, so raw images up to 15,000,000 bytes. */
  imageB64MaxChars: 20_000_000,
  /** The whole body may add this much JSON around the image. */
  bodyMaxBytes: 20_000_000 + 64 * 1024,
  idempotencyKeyMaxChars: 256,
  listLimit: { min: 1, max: 200, default: 50 },
  radiusKm: { min: 1, max: 500, default: 60 },
  recommendedTimeoutS: 180,
} as const;
export const MAX_IMAGE_BYTES = (LIMITS.imageB64MaxChars / 4) * 3;

/** The value of `build()`, computed on the first call. */
function once<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

// ---- Small validators (validators.ts) and the error and header contract (schemas-errors.ts) -----

export { beginsWithCalendarDate, isAcceptableImageUrl, isLoopbackHost, isStrictBase64 } from './validators.js';
export * from './schemas-errors.js';

// ---- Geolocation request --------------------------------------------------------------------

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

// ---- Geolocation response -------------------------------------------------------------------

export const LocationSchema = z.lazy(() =>
  z.looseObject({
    // The spec types them as numbers; their range is what a latitude and a longitude are.
    latitude: z.number().check(z.gte(-90), z.lte(90)),
    longitude: z.number().check(z.gte(-180), z.lte(180)),
    country: z.string(),
    city: z.string(),
    neighborhood: z.string(),
    address: z.string(),
  }),
);

/** Clues may or may not carry image coordinates or contours (shape not shown): both must parse. */
export const VisualClueSchema = z.lazy(() => z.looseObject({ label: z.string(), detail: z.string() }));

/** Candidate confidence is 0-100, unlike the top-level 0-1 (api-spec.md "Note the scales"). */
export const CandidateSchema = z.lazy(() =>
  z.looseObject({
    lat: z.number(),
    lng: z.number(),
    label: z.string(),
    confidence: z.number().check(z.gte(0), z.lte(100)),
    supports: z.array(z.string()),
    contradictions: z.array(z.string()),
  }),
);

export const ForensicSchema = z.lazy(() =>
  z.looseObject({
    precision_tier: z.string(),
    verification_status: z.string(),
    supports: z.array(z.string()),
    contradictions: z.array(z.string()),
    candidates: z.optional(z.array(CandidateSchema)),
  }),
);

/** Fields inside calibration: not shown. */
export const CalibrationSchema = z.lazy(() => z.looseObject({}));

export const GeolocateResponseSchema = z.lazy(() =>
  z
    .looseObject({
      success: z.literal(true),
      analysis_id: z.nullable(z.string()),
      location: LocationSchema,
      confidence: z.number().check(z.gte(0), z.lte(1)),
      reasoning: z.string(),
      thinking: z.optional(z.string()),
      visual_clues: z.optional(z.array(VisualClueSchema)),
      model: z.string(),
      depth: z.int().check(z.gte(1), z.lte(3)),
      effort: z.optional(z.string()),
      batch_id: z.optional(z.string()),
      scope_consistent: z.optional(z.boolean()),
      timing_ms: z.int().check(z.gte(0)),
      forensic: z.optional(ForensicSchema),
      calibration: z.optional(CalibrationSchema),
    })
    .check(
      z.superRefine((r, ctx) => {
      // Presence rules: thinking and visual_clues from depth 2; forensic and calibration at depth 3 only.
      const need = (field: string, present: boolean, wanted: boolean) => {
        if (present !== wanted) ctx.addIssue({ code: 'custom', path: [field], message: `${field} must be ${wanted ? 'present' : 'absent'} at depth ${r.depth}` });
      };
      need('thinking', r.thinking !== undefined, r.depth >= 2);
      need('visual_clues', r.visual_clues !== undefined, r.depth >= 2);
      need('forensic', r.forensic !== undefined, r.depth === 3);
      need('calibration', r.calibration !== undefined, r.depth === 3);
      }),
    ),
);
export type GeolocateResponse = z.infer<typeof GeolocateResponseSchema>;
export type Candidate = z.infer<typeof CandidateSchema>;

/** Echo rules that depend on the request: effort and batch_id when sent, scope_consistent when scoped. */
export function echoProblems(req: GeolocateRequest, res: GeolocateResponse): string[] {
  const out: string[] = [];
  if ((req.effort !== undefined) !== (res.effort !== undefined)) out.push('effort is echoed exactly when it was sent');
  if ((req.batch_id !== undefined) !== (res.batch_id !== undefined)) out.push('batch_id is echoed exactly when it was sent');
  if ((req.scope !== undefined) !== (res.scope_consistent !== undefined)) out.push('scope_consistent appears exactly when a scope was given');
  if (res.depth !== (req.depth ?? 1)) out.push('depth is the depth used');
  return out;
}

/**
 * The 202 body of an async submit. The spec does not show it ("not shown"); this is the
 * sandbox's own shape, and the CLI prints whatever it receives.
 */
export const AsyncAcceptedSchema = z.lazy(() =>
  z.looseObject({
    success: z.literal(true),
    status: z.string(),
    job_id: z.string(),
    analysis_id: z.nullable(z.string()),
  }),
);
export type AsyncAccepted = z.infer<typeof AsyncAcceptedSchema>;

// ---- Account, history, cases ----------------------------------------------------------------

export const CreditsSchema = z.lazy(() =>
  z.looseObject({
    success: z.literal(true),
    data: z.looseObject({
      balance: z.number(),
      api_balance: z.number(),
      total_available: z.number(),
      total_purchased: z.nullable(z.number()),
      total_used: z.nullable(z.number()),
    }),
  }),
);
export type Credits = z.infer<typeof CreditsSchema>;

/** Fields of usage data: not shown. */
export const UsageSchema = z.lazy(() => z.looseObject({ success: z.literal(true), data: z.record(z.string(), z.unknown()) }));
export type Usage = z.infer<typeof UsageSchema>;

/** Fields of each analysis: not shown. */
export const AnalysesListSchema = z.lazy(() => z.looseObject({ success: z.literal(true), data: z.array(z.looseObject({})) }));
export type AnalysesList = z.infer<typeof AnalysesListSchema>;

/** createdAt/updatedAt format: not shown, so any string (the sandbox sends ISO-8601). */
export const CaseSchema = z.lazy(() =>
  z.looseObject({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
);
export type Case = z.infer<typeof CaseSchema>;
export const CaseListSchema = z.lazy(() => z.looseObject({ success: z.literal(true), data: z.array(CaseSchema) }));
export type CaseList = z.infer<typeof CaseListSchema>;

export const CreateCaseBodySchema = z.lazy(() =>
  z.object({
    name: z.string().check(z.trim(), z.minLength(1)),
    description: z.optional(z.string()),
    teamId: z.optional(z.string().check(z.minLength(1))),
  }),
);
export type CreateCaseBody = z.infer<typeof CreateCaseBodySchema>;

/** Query strings carry text: coerced to a number, then the same safe-integer check as z.int(). */
const listLimit = () =>
  z._default(
    z.coerce.number().check(new $ZodCheckNumberFormat({ check: 'number_format', format: 'safeint' }), z.gte(LIMITS.listLimit.min), z.lte(LIMITS.listLimit.max)),
    LIMITS.listLimit.default,
  );
export const AnalysesQuerySchema = z.lazy(() => z.object({ q: z.optional(z.string()), city: z.optional(z.string()), limit: listLimit() }));
export const CasesQuerySchema = z.lazy(() => z.object({ teamId: z.optional(z.string()), limit: listLimit() }));
