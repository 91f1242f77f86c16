/**
 * `geo eval --claims` for people: one column per depth, the true claims (how often
 * agreed, falsely accused, unverifiable), the false ones (how often detected, unverifiable),
 * detection per distance, and credits per checked claim. Each share with its count, so the
 * figures can be checked by hand. Plain data in, text out; --json carries full precision.
 */
import type { ClaimDepthFigures, ClaimEvalReport, VerdictCounts } from '../../eval/claim-metrics.js';
import type { ViewOpts } from '../render.js';
import { renderTable } from '../table.js';

const DASH = '–';
const pct = (x: number | null) => (x === null ? DASH : `${Math.round(x * 1000) / 10}%`);
const of = (k: number, c: VerdictCounts, rate: number | null) => (c.n === 0 ? DASH : `${pct(rate)} (${k}/${c.n})`);

export function claimsEvalView(r: ClaimEvalReport, view: ViewOpts): string {
  const cols = r.depths.map((d) => ({ head: `depth ${d}`, f: r.by_depth[String(d)]! }));
  const line = (label: string, get: (f: ClaimDepthFigures) => string) => [label, ...cols.map((c) => get(c.f))];
  const rows = [
    line('claims checked', (f) => String(f.claims)),
    line('true claims', (f) => String(f.true_claims.n)),
    line('  agreed', (f) => of(f.true_claims.agrees, f.true_claims, f.true_claims.agree_rate)),
    line('  FALSELY ACCUSED', (f) => of(f.true_claims.contradicts, f.true_claims, f.true_claims.false_accusation_rate)),
    line('  unverifiable', (f) => of(f.true_claims.unverifiable, f.true_claims, f.true_claims.unverifiable_share)),
    line('false claims', (f) => String(f.false_claims.n)),
    line('  detected', (f) => of(f.false_claims.contradicts, f.false_claims, f.false_claims.detection_rate)),
    line('  agreed (missed)', (f) => of(f.false_claims.agrees, f.false_claims, f.false_claims.agree_rate)),
    line('  unverifiable', (f) => of(f.false_claims.unverifiable, f.false_claims, f.false_claims.unverifiable_share)),
    ...r.distances_km.map((d) => line(`  detected at ${d} km`, (f) => {
      const b = f.false_claims.by_distance[String(d)]!;
      return of(b.contradicts, b, b.detection_rate);
    })),
    ...r.distances_km.map((d) => line(`  unverifiable at ${d} km`, (f) => {
      const b = f.false_claims.by_distance[String(d)]!;
      return of(b.unverifiable, b, b.unverifiable_share);
    })),
    line('credits', (f) => String(f.credits.spent)),
    line('credits per claim', (f) => (f.credits.per_claim === null ? DASH : f.credits.per_claim.toFixed(2))),
  ];
  const head = view.style.bold(`Claim checks on ${r.images} image${r.images === 1 ? '' : 's'} of known position: a true claim and false ones at ${r.distances_km.join(', ')} km each, tolerance ${r.within_km} km (seed ${r.seed})`);
  return [head, renderTable({ head: ['', ...cols.map((c) => c.head)], rows, align: ['left', ...cols.map(() => 'right' as const)] }, view)].join('\n');
}
