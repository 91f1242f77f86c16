/**
 * `geo eval --copies` for people: the threshold chosen and why, one row per kind of copy (recall
 * and false matches at it, then the distances of the copies to their originals), and the
 * distances between distinct originals. Counts beside every share, so the figures can be checked
 * by hand; --json carries full precision and the figures at every distance up to 96 bits.
 */
import type { AtDistance, CopyEvalReport } from '../../eval/copy-metrics.js';
import type { ViewOpts } from '../render.js';
import { sanitizeInline } from '../sanitize.js';
import { renderTable } from '../table.js';

const DASH = '–';
const pct = (x: number) => `${(Math.round(x * 1000) / 10).toFixed(1)}%`;
const per10k = (rate: number) => `${Math.round(rate * 1e6) / 100} in 10,000`;
const bits = (v: number | null) => (v === null ? DASH : String(v));
const matches = (n: number) => `${n} false match${n === 1 ? '' : 'es'}`;

function recallLine(a: AtDistance, r: CopyEvalReport): string {
  if (a.required_recall === null) return 'no kind of re-encoding, resize or stripping in this set to judge recall by';
  return `recall at least ${pct(a.required_recall)} in each of ${r.rule.required_kinds.join(', ')} (${pct(r.rule.min_recall)} asked)`;
}

export function copiesEvalView(r: CopyEvalReport & { set: string }, view: ViewOpts): string {
  const copies = r.kinds.reduce((n, k) => n + k.copies, 0);
  const d = r.distinct;
  const lines = [
    view.style.bold(`PDQ on ${r.originals} originals and ${copies} copies of ${r.kinds.length} kinds in ${sanitizeInline(r.set)}`),
    `${r.hashed} originals hashed, ${r.low_quality} of PDQ quality under 50 (featureless); ${d.pairs} distinct pairs`,
  ];
  const t = r.threshold;
  if (t === null) lines.push(view.style.bold(`threshold: none: no distance finds ${pct(r.rule.min_recall)} of the re-encodings, resizes and stripped copies together with at most 1 false match in 10,000 distinct pairs`));
  else {
    lines.push(view.style.bold(`threshold: ${t.bits} bits: ${pct(t.together)} of ${r.rule.required_kinds.join(', ')} together (${pct(r.rule.min_recall)} asked), ${t.false_matches} of ${d.pairs} distinct pairs (${per10k(t.false_match_rate)}; at most 1 in 10,000 allowed); the least distance that meets both, taken to the end of its index band`));
    lines.push(`${recallLine(t, r)}`);
  }
  const least = r.least_for_recall;
  lines.push(least === null ? 'no distance finds 95% of each re-encoding, resize and stripping' : `the least distance that finds ${pct(r.rule.min_recall)} of each: ${least.bits} bits, ${matches(least.false_matches)} (${per10k(least.false_match_rate)})`);
  const dflt = r.default;
  lines.push(
    t !== null && dflt.bits === t.bits
      ? `geo history --like uses ${dflt.bits} bits by default: the same`
      : `geo history --like uses ${dflt.bits} bits by default: ${matches(dflt.false_matches)} (${per10k(dflt.false_match_rate)}); ${recallLine(dflt, r)}`,
  );
  const at = t?.bits ?? dflt.bits;
  const rows = r.kinds.map((k) => [
    `${sanitizeInline(k.kind)}${k.required ? ' *' : ''}`,
    String(k.copies),
    `${pct(k.recall)} (${k.found})`,
    `${k.false_matches} (${per10k(k.cross_pairs === 0 ? 0 : k.false_matches / k.cross_pairs).replace(' in 10,000', '')})`,
    bits(k.distance.p50),
    bits(k.distance.p90),
    bits(k.distance.p95),
    bits(k.distance.p99),
    bits(k.distance.max),
  ]);
  const table = renderTable({ head: ['kind', 'copies', `found ≤ ${at} bits`, 'false /10,000', 'p50', 'p90', 'p95', 'p99', 'max'], rows, align: ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'right', 'right'] }, view);
  const dd = d.distance;
  return [
    ...lines,
    table,
    '* must be found (re-encodings, resizes, metadata stripped); false: a copy this close to another original, per 10,000 such pairs; p50-max: bits from a copy to its original',
    `distinct pairs, bits apart: min ${bits(dd.min)}, 0.01% ${bits(dd.p0_01)}, 0.1% ${bits(dd.p0_1)}, 1% ${bits(dd.p1)}, 5% ${bits(dd.p5)}, median ${bits(dd.p50)}`,
    `nearest distinct pairs: ${d.nearest.slice(0, 3).map((p) => `${sanitizeInline(p.a)} and ${sanitizeInline(p.b)} (${p.bits} bits)`).join('; ') || DASH}`,
  ].join('\n') + '\n';
}
