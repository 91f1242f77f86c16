/**
 * Account, history and cases endpoints. Everything is per principal (the API key): one key never
 * sees another's analyses or cases.
 */
import { AnalysesQuerySchema, CasesQuerySchema, CreateCaseBodySchema, LIMITS } from '../api/schemas.js';
import { slug } from './cities.js';
import { type Exchange, readBody, sendError, sendJson } from './http.js';
import { type SandboxRuntime, isoAt, newId } from './runtime.js';
import type { Account, CaseRecord } from './state.js';

function query(ex: Exchange): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of ex.url.searchParams) out[k] = v;
  return out;
}

/** Dedicated API-only funding (see state.ts): total_available is the API balance alone. */
export function getCredits(ex: Exchange): void {
  const a = ex.account!;
  sendJson(ex, 200, {
    success: true,
    data: { balance: a.balance, api_balance: a.apiBalance, total_available: a.apiBalance, total_purchased: a.purchased, total_used: a.used, funding: 'api_only' },
  });
}

/** Usage fields are "not shown": the sandbox reports its own meter, overage mode and lifecycle. */
export function getUsage(ex: Exchange, rt: SandboxRuntime): void {
  const a = ex.account!;
  sendJson(ex, 200, {
    success: true,
    data: {
      tier: a.tier,
      meter: { status: 'active', requests: a.requests, credits_used: a.used, analyses: a.analyses.length },
      overage_mode: 'blocked',
      access: { lifecycle: a.seed.prepaidExhausted ? 'prepaid_exhausted' : 'active', history: a.history, max_depth: a.maxDepth },
      rate_limit: ex.rate ? { limit: ex.rate.limit, window_s: ex.rate.windowS, remaining: ex.rate.remaining } : null,
      sandbox: true,
      at: isoAt(rt.now),
    },
  });
}

/** q matches neighborhood, city, country or the optional client-sent `filename` body field. */
export function listAnalyses(ex: Exchange): void {
  const p = AnalysesQuerySchema.safeParse(query(ex));
  if (!p.success) return sendError(ex, 'invalid_request', `query: ${p.error.issues[0]?.path.join('.') ?? ''} ${p.error.issues[0]?.message ?? 'invalid'} (limit ${LIMITS.listLimit.min}-${LIMITS.listLimit.max})`);
  const { q, city, limit } = p.data;
  const needle = q?.toLowerCase();
  const citySlug = city === undefined ? undefined : slug(city);
  const items = ex.account!.analyses
    .filter((a) => !needle || [a.neighborhood, a.city, a.country, a.filename ?? ''].some((f) => f.toLowerCase().includes(needle)))
    .filter((a) => citySlug === undefined || a.city_slug === citySlug)
    .slice()
    .reverse()
    .slice(0, limit);
  sendJson(ex, 200, { success: true, data: items });
}

/** Cases need cases:read / cases:write (pro and up); free and starter get 402, "plan does not include cases". */
function casesAllowed(ex: Exchange, a: Account, grant: string): boolean {
  if (a.can(grant)) return true;
  sendError(ex, 'payment_required', `the ${a.tier} plan does not include cases`, { hint: 'Cases need a pro or enterprise plan.' });
  return false;
}

function publicCase(c: CaseRecord): CaseRecord {
  return { ...c };
}

export function listCases(ex: Exchange): void {
  const a = ex.account!;
  if (!casesAllowed(ex, a, 'cases:read')) return;
  const p = CasesQuerySchema.safeParse(query(ex));
  if (!p.success) return sendError(ex, 'invalid_request', `query: ${p.error.issues[0]?.path.join('.') ?? ''} ${p.error.issues[0]?.message ?? 'invalid'} (limit ${LIMITS.listLimit.min}-${LIMITS.listLimit.max})`);
  const { teamId, limit } = p.data;
  const items = a.cases.filter((c) => teamId === undefined || c.teamId === teamId).slice().reverse().slice(0, limit);
  sendJson(ex, 200, { success: true, data: items.map(publicCase) });
}

export async function createCase(ex: Exchange, rt: SandboxRuntime): Promise<void> {
  const a = ex.account!;
  const body = await readBody(ex.req, 1024 * 1024);
  if (!casesAllowed(ex, a, 'cases:write')) return;
  if (!body.ok) return sendError(ex, 'invalid_request', 'the body exceeds 1 MB', {}, { Connection: 'close' });
  let json: unknown;
  try {
    json = JSON.parse(body.buf.toString('utf8'));
  } catch (e) {
    return sendError(ex, 'malformed_json', `the body is not valid JSON: ${(e as Error).message}`);
  }
  const p = CreateCaseBodySchema.safeParse(json);
  if (!p.success) return sendError(ex, 'invalid_request', `${p.error.issues[0]?.path.join('.') || 'body'}: ${p.error.issues[0]?.message ?? 'invalid'} (name is required)`);
  const at = isoAt(rt.now);
  const c: CaseRecord = { id: newId('case'), name: p.data.name, description: p.data.description ?? '', teamId: p.data.teamId ?? null, createdAt: at, updatedAt: at };
  a.cases.push(c);
  // 200, not 201 (api-spec.md "POST /api/v1/cases").
  sendJson(ex, 200, publicCase(c));
}
