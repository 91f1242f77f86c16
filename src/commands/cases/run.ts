/** Cases over the API (api-spec.md "GET/POST /api/v1/cases"); the create dialog is in ask.ts. */
import type { ApiResponse } from '../../api/client.js';
import { type Case, type CaseList, CreateCaseBodySchema, LIMITS } from '../../api/schemas.js';
import type { Ctx } from '../../context.js';
import { ApiError, ContractError, NetworkError, TimeoutError } from '../../api/errors.js';
import { ServiceAnswerError, UsageError } from '../../errors.js';
import { describe } from '../../output/errors.js';
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
  const client = ctx.client();
  try {
    return await client.createCase(parsed.data);
  } catch (err) {
    throw mayExist(err);
  }
}

/**
 * POST /cases has no idempotency key: once the request may have reached the server (no answer in
 * time, a dropped connection, an unreadable answer, a 5xx), the case may exist, and sending it
 * again could make a second one. So the hint is to look, never to rerun.
 */
function mayExist(err: unknown): unknown {
  const reached = err instanceof TimeoutError || (err instanceof NetworkError && err.mayHaveRun) || err instanceof ContractError || (err instanceof ApiError && err.status >= 500);
  if (!reached) return err;
  return new ServiceAnswerError(`the case was sent, but its outcome is unknown: ${describe(err).message}`, 'the case may exist: check `geo cases list` before creating it again');
}
