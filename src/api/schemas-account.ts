/**
 * The account, history and cases endpoints of ../shared/api-spec.md: credits, usage, analyses and
 * cases, their bodies and query strings. schemas.ts re-exports it and configures zod (English
 * messages, jitless) before any of these lazy schemas is built.
 */
import * as z from 'zod/mini';
import { $ZodCheckNumberFormat } from 'zod/v4/core';
import { LIMITS } from './schemas-limits.js';

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
