/**
 * The geolocation response of ../shared/api-spec.md (and the sandbox's 202 for an async submit):
 * its schemas, the presence rules by depth, and the echo rules that depend on the request.
 * schemas.ts re-exports it and configures zod (English messages, jitless) before any of these
 * lazy schemas is built.
 */
import * as z from 'zod/mini';
import type { GeolocateRequest } from './schemas-request.js';

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
