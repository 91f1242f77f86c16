/**
 * How the claim-check rules fare on claims of known truth, per depth and per
 * distance of the false claims. Pure functions over verdicts. Definitions (README "Claim checks"
 * and geo eval --help say the same):
 *   false_accusation_rate  true claims called contradicts / true claims checked
 *   detection_rate         false claims called contradicts / false claims checked
 *   agree_rate             claims called agrees / claims checked (of that kind)
 *   unverifiable_share     claims called unverifiable / claims checked (of that kind)
 *   credits.spent          what the answers the verdicts rest on cost at their depth (1, 2 or 10):
 *                          each image once (its claims share its answer), plus each --scoped request,
 *                          paid now or earlier; per_claim: spent / claims checked
 * A rate over no claims is null.
 */
import { DEPTH_COST, type Depth } from '../api/schemas.js';
import type { Verdict } from '../claims/types.js';

export interface ScoredClaim {
  kind: 'true' | 'false';
  /** The chosen distance of a false claim; null for a true one. */
  offsetKm: number | null;
  depth: number;
  /** An image that was not located is checked all the same: unverifiable (rule not_located). */
  verdict: Verdict;
  /** Identity of what was paid for this verdict: the image's sha256, and the scoped request's key. */
  image: string | null;
  scopedRequest?: string | null;
}

export interface VerdictCounts {
  n: number;
  agrees: number;
  contradicts: number;
  unverifiable: number;
  agree_rate: number | null;
  unverifiable_share: number | null;
}

export interface TrueFigures extends VerdictCounts {
  false_accusation_rate: number | null;
}

export interface FalseFigures extends VerdictCounts {
  detection_rate: number | null;
}

export interface ClaimDepthFigures {
  claims: number;
  true_claims: TrueFigures;
  false_claims: FalseFigures & { by_distance: Record<string, FalseFigures> };
  credits: { spent: number; per_claim: number | null };
}

export interface ClaimEvalReport {
  depths: number[];
  distances_km: number[];
  within_km: number;
  seed: number;
  images: number;
  by_depth: Record<string, ClaimDepthFigures>;
}

const share = (k: number, n: number) => (n === 0 ? null : k / n);

function counts(xs: readonly ScoredClaim[]): VerdictCounts {
  const n = xs.length;
  const c = (v: Verdict) => xs.filter((x) => x.verdict === v).length;
  return { n, agrees: c('agrees'), contradicts: c('contradicts'), unverifiable: c('unverifiable'), agree_rate: share(c('agrees'), n), unverifiable_share: share(c('unverifiable'), n) };
}

const falseFigures = (xs: readonly ScoredClaim[]): FalseFigures => {
  const k = counts(xs);
  return { ...k, detection_rate: share(k.contradicts, k.n) };
};

/** Credits of the answers these verdicts rest on: each image once, each scoped request once. */
function creditsOf(xs: readonly ScoredClaim[], depth: number): number {
  const cost = DEPTH_COST[depth as Depth] ?? 0;
  const images = new Set(xs.flatMap((x) => (x.image ? [x.image] : [])));
  const scoped = new Set(xs.flatMap((x) => (x.scopedRequest ? [x.scopedRequest] : [])));
  return (images.size + scoped.size) * cost;
}

function depthFigures(xs: readonly ScoredClaim[], distances: readonly number[], depth: number): ClaimDepthFigures {
  const t = counts(xs.filter((x) => x.kind === 'true'));
  const f = xs.filter((x) => x.kind === 'false');
  const spent = creditsOf(xs, depth);
  return {
    claims: xs.length,
    true_claims: { ...t, false_accusation_rate: share(t.contradicts, t.n) },
    false_claims: { ...falseFigures(f), by_distance: Object.fromEntries(distances.map((d) => [String(d), falseFigures(f.filter((x) => x.offsetKm === d))])) },
    credits: { spent, per_claim: share(spent, xs.length) },
  };
}

export function claimEvalReport(xs: readonly ScoredClaim[], o: { depths: readonly number[]; distancesKm: readonly number[]; withinKm: number; seed: number; images: number }): ClaimEvalReport {
  return {
    depths: [...o.depths], distances_km: [...o.distancesKm], within_km: o.withinKm, seed: o.seed, images: o.images,
    by_depth: Object.fromEntries(o.depths.map((d) => [String(d), depthFigures(xs.filter((x) => x.depth === d), o.distancesKm, d)])),
  };
}
