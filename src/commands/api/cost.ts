/**
 * What a geolocate POST sent through `geo api` may spend, and consent for it (DESIGN.md "never pay
 * silently"): the same confirm threshold as locate (`geo config set confirm_threshold`), the same
 * way out (--yes), and no spending without one where nothing can ask.
 */
import { DEPTH_COST, type Depth } from '../../api/schemas.js';
import { DEFAULT_CONFIRM_THRESHOLD } from '../../batch/plan.js';
import { configuredThreshold } from '../../batch/consent.js';
import type { Ctx } from '../../context.js';
import { DeclinedError, UsageError } from '../../errors.js';
import { noPromptReason } from '../../output/io.js';

export interface Spend {
  /** undefined when the body does not say (not JSON, or a depth the spec does not have). */
  depth: Depth | undefined;
  /** Its depth's cost; the highest cost when the depth is unknown. */
  credits: number;
}

const MAX_COST = Math.max(...Object.values(DEPTH_COST));

/** The body's depth (1 when absent, api-spec.md "Limits": default depth 1) and its cost. */
export function geolocateSpend(body: Buffer | undefined): Spend {
  let depth: unknown;
  try {
    const json = JSON.parse(body?.toString('utf8') ?? '') as { depth?: unknown };
    depth = typeof json === 'object' && json !== null ? (json.depth ?? 1) : undefined;
  } catch {
    depth = undefined;
  }
  const known = depth === 1 || depth === 2 || depth === 3 ? (depth as Depth) : undefined;
  return { depth: known, credits: known ? DEPTH_COST[known] : MAX_COST };
}

/** The confirm threshold, read the way locate and eval read it (batch/consent.ts). */
function threshold(ctx: Pick<Ctx, 'config'>): number {
  return configuredThreshold(ctx.config.getDefault('confirm_threshold')) ?? DEFAULT_CONFIRM_THRESHOLD;
}

/** Resolves when the spend may go ahead; throws (nothing sent) when it may not. */
export async function requireSpendConsent(ctx: Pick<Ctx, 'config' | 'globals' | 'prompt' | 'io' | 'env'>, spend: Spend): Promise<void> {
  const limit = threshold(ctx);
  if (spend.credits <= limit || ctx.globals.yes) return;
  const why = noPromptReason(ctx.io, ctx.env, ctx.globals.input === false);
  const what = `this geolocate spends up to ${spend.credits} credits, above the confirm threshold of ${limit}`;
  if (why !== undefined) throw new UsageError(`${what}, and nothing can ask for confirmation (${why}); nothing was sent`, 'pass --yes');
  if (!(await ctx.prompt.confirm(`${what}. Send it?`, false))) throw new DeclinedError('you said no: nothing was sent, nothing spent', '--yes sends it without asking');
}
