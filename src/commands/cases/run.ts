/** Cases over the API (api-spec.md "GET/POST /api/v1/cases"); the create dialog is in ask.ts. */
import type { ApiResponse } from '../../api/client.js';
import { type Case, CreateCaseBodySchema, LIMITS } from '../../api/schemas.js';
import type { Ctx } from '../../context.js';
import { ApiError, ContractError, NetworkError, TimeoutError } from '../../api/errors.js';
import { ServiceAnswerError, UsageError } from '../../errors.js';
import type { CaseRow } from '../../store/index.js';
import { recordCase } from './local.js';
import { describe } from '../../output/errors.js';
import { askMissing, caseClient } from './ask.js';
import type { CreateOptions } from './create-options.js';
import { type CaseListing, mergeCases, offline, offlineNote } from './listing.js';

// The plain functions of the other cases commands that geo mcp serves (src/mcp takes a command's run.ts only).
export { runShow } from './show.js';
export { listClues } from './clues.js';
export { runNote } from './note.js';

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

/**
 * The service's cases (when a key and the service answer) and the local ones, together. A local
 * case of another team is left out with --team; --limit is what is asked of the service.
 */
export async function runList(ctx: Ctx, opts: ListOptions): Promise<CaseListing> {
  const limit = parseLimit(opts.limit);
  if (opts.team !== undefined && !opts.team.trim()) throw new UsageError('--team needs a team id', 'for example --team team_123');
  const team = opts.team?.trim();
  const local = (await (await ctx.storeApi()).cases.list()).filter((c) => team === undefined || c.team === team);
  try {
    const res = await ctx.client().listCases({ ...(team ? { teamId: team } : {}), ...(limit !== undefined ? { limit } : {}) });
    return mergeCases(res, ctx.serviceId(), local);
  } catch (err) {
    if (!offline(err)) throw err;
    return mergeCases(undefined, '', local, offlineNote(err));
  }
}

export interface Created {
  /** The case as recorded locally, with its custody log begun. */
  local: CaseRow;
  /** The service's answer, when the case was created there too. */
  service?: ApiResponse<Case>;
}

/**
 * The case is created on the service (as before) and recorded locally with the service's
 * id. A refusal (401, 402, 403, 4xx) records nothing. When the service cannot be reached, or the
 * answer is lost (the case may exist there), the case is recorded locally only, marked so
 * (service_note), and the command fails with exit 6 saying which local case it made.
 */
export async function runCreate(ctx: Ctx, opts: CreateOptions): Promise<Created> {
  const filled = await askMissing(ctx, opts);
  const parsed = CreateCaseBodySchema.safeParse({
    name: filled.name ?? '',
    ...(filled.description ? { description: filled.description } : {}),
    ...(filled.team?.trim() ? { teamId: filled.team.trim() } : {}),
  });
  if (!parsed.success) throw new UsageError('the case name must not be empty', 'geo cases create --name "Harbour fire"');
  const local = { name: parsed.data.name, description: parsed.data.description ?? '', team: parsed.data.teamId ?? null };
  // Opened first: a store that cannot be written fails before a case is made on the service.
  await ctx.storeApi();
  if (opts.local) return { local: await recordCase(ctx, local) };
  // Fail before the request when there is no key, rather than after the questions.
  const client = caseClient(ctx);
  let res: ApiResponse<Case>;
  try {
    res = await client.createCase(parsed.data);
  } catch (err) {
    const refused = err instanceof NetworkError && !err.mayHaveRun;
    if (!refused && !mayExist(err)) throw err;
    const why = describe(err).message;
    const row = await recordCase(ctx, { ...local, note: refused ? `the service could not be reached (${why})` : `the service's answer was lost (${why}): the case may exist there` });
    if (refused) throw new ServiceAnswerError(`the case was recorded on this machine only, as ${row.id}: the service could not be reached (${why})`, `use it as it is (--case ${row.id}); create it on the service later`);
    throw new ServiceAnswerError(
      `the case was sent, but its outcome is unknown: ${why}; it was recorded on this machine only, as ${row.id}`,
      `the case may exist: check \`geo cases list\` before creating it again; meanwhile use it here (--case ${row.id})`,
    );
  }
  const id = (res.data as { id?: unknown } | undefined)?.id;
  return { local: await recordCase(ctx, { ...local, ...(typeof id === 'string' ? { service: { origin: ctx.serviceId(), id } } : {}) }), service: res };
}

/**
 * POST /cases has no idempotency key: once the request may have reached the server (no answer in
 * time, a dropped connection, an unreadable answer, a 5xx), the case may exist, and sending it
 * again could make a second one. So the hint is to look, never to rerun.
 */
function mayExist(err: unknown): boolean {
  return err instanceof TimeoutError || (err instanceof NetworkError && err.mayHaveRun) || err instanceof ContractError || (err instanceof ApiError && err.status >= 500);
}
