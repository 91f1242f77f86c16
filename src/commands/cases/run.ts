/** Cases over the API (api-spec.md "GET/POST /api/v1/cases"); the create dialog is in ask.ts. */
import type { ApiResponse } from '../../api/client.js';
import { type Case, type CaseList, CreateCaseBodySchema, LIMITS } from '../../api/schemas.js';
import type { Ctx } from '../../context.js';
import { UsageError } from '../../errors.js';
import { askMissing } from './ask.js';

export interface ListOptions {
  team?: string;
  limit?: string;
}

/** The limit is checked here so a bad value costs no request (spec: 1 to 200). */
export function parseLimit(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || n < LIMITS.listLimit.min || n > LIMITS.listLimit.max) {
    throw new UsageError(`--limit must be a whole number from ${LIMITS.listLimit.min} to ${LIMITS.listLimit.max}, got "${v}"`, 'for example --limit 50');
  }
  return n;
}

export async function runList(ctx: Ctx, opts: ListOptions): Promise<ApiResponse<CaseList>> {
  const limit = parseLimit(opts.limit);
  if (opts.team !== undefined && !opts.team.trim()) throw new UsageError('--team needs a team id', 'for example --team team_123');
  return ctx.client().listCases({ ...(opts.team ? { teamId: opts.team.trim() } : {}), ...(limit !== undefined ? { limit } : {}) });
}

export interface CreateOptions {
  name?: string;
  description?: string;
  team?: string;
}

export async function runCreate(ctx: Ctx, opts: CreateOptions): Promise<ApiResponse<Case>> {
  const filled = await askMissing(ctx, opts);
  const parsed = CreateCaseBodySchema.safeParse({
    name: filled.name ?? '',
    ...(filled.description ? { description: filled.description } : {}),
    ...(filled.team?.trim() ? { teamId: filled.team.trim() } : {}),
  });
  if (!parsed.success) throw new UsageError('the case name must not be empty', 'geo cases create --name "Harbour fire"');
  // Fail before the request when there is no key, rather than after the questions.
  return ctx.client().createCase(parsed.data);
}
