/** Lists saved analyses. limit is checked here (1-200) so a bad value exits 2 with nothing sent. */
import type { ApiResponse } from '../../api/client.js';
import { LIMITS, type AnalysesList } from '../../api/schemas.js';
import type { Ctx } from '../../context.js';
import { UsageError } from '../../errors.js';

export interface AnalysesOptions {
  q?: string;
  city?: string;
  limit?: string;
}

/** Strict: "10" yes; "1e2", "0x10", "10.5", "" no (Number() would accept some of them). */
export function parseLimit(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const { min, max } = LIMITS.listLimit;
  const n = /^\d+$/.test(v) ? Number(v) : Number.NaN;
  if (!(n >= min && n <= max)) throw new UsageError(`--limit must be a whole number from ${min} to ${max}, got "${v}"`, `for example --limit ${LIMITS.listLimit.default}`);
  return n;
}

export async function runAnalyses(ctx: Pick<Ctx, 'client'>, opts: AnalysesOptions): Promise<ApiResponse<AnalysesList>> {
  const limit = parseLimit(opts.limit);
  if (opts.city !== undefined && opts.city.trim() === '') throw new UsageError('--city needs a city slug', 'for example --city paris');
  return ctx.client().analyses({
    ...(opts.q !== undefined && opts.q !== '' ? { q: opts.q } : {}),
    ...(opts.city !== undefined ? { city: opts.city } : {}),
    ...(limit !== undefined ? { limit } : {}),
  });
}
