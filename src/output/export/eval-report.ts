/**
 * `geo eval --report eval.html`: one self-contained page, readable offline: the figures, the error
 * CDF and the reliability diagram as inline SVG (eval-charts.ts), the calibration bins beside the
 * abstention curve, the depth-3 advice, and one row per image.
 *
 * Content-Security-Policy (meta): no script at all, the one <style> pinned by its sha256, nothing
 * loaded from anywhere (no images, fonts, frames, connections). Every string that is not ours (input
 * names) goes through esc(), which runs the terminal sanitizer first.
 */
import { createHash } from 'node:crypto';
import type { EvalReport, EvalRow } from '../../eval/evaluate.js';
import type { Metrics } from '../../eval/metrics.js';
import { km, pct } from '../views/eval.js';
import { type Series, errorCdfSvg, reliabilitySvg } from './eval-charts.js';
import { esc, pageHead } from './html.js';

export interface EvalReportOptions {
  /** ISO time shown in the header (ctx.now()). */
  generatedAt: string;
  cliVersion?: string;
  /** A line saying where the answers came from ("sandbox", "--from results.ndjson"). */
  source?: string;
  /** Videos and photo sets: one row per video or set, its consensus scored as one answer. */
  consensusRows?: readonly EvalRow[];
}

const COLOURS: Record<string, string> = { 1: '#247ad6', 2: '#2fa82f', 3: '#d62424', all: '#5c6670' };

const CSS = `
:root { color-scheme: light; --fg: #1d232a; --muted: #5c6670; --line: #d8dde3; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: #f6f7f9; }
header.page { padding: 16px 24px; background: #1d232a; color: #fff; }
header.page h1 { margin: 0; font-size: 20px; }
header.page p { margin: 4px 0 0; color: #c9d1d9; font-size: 12px; }
main { max-width: 1100px; margin: 0 auto; padding: 8px 24px 40px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 16px 20px; margin: 16px 0; }
h2 { margin: 0 0 10px; font-size: 16px; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
table { border-collapse: collapse; font-size: 13px; }
th, td { padding: 3px 10px; border-bottom: 1px solid var(--line); text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
td.input { max-width: 420px; overflow: hidden; text-overflow: ellipsis; }
.note { color: var(--muted); font-size: 12px; margin: 6px 0 0; }
.wrong { color: #b01c1c; } .right { color: #1f7a1f; }
svg.chart { background: #fff; }
svg .grid { stroke: #eceff2; } svg .axis, svg .frame { stroke: #8a949e; fill: none; }
svg .threshold { stroke: #b8c0c8; stroke-dasharray: 3 3; } svg .diagonal { stroke: #8a949e; stroke-dasharray: 4 4; }
svg .tick, svg .legend { font-size: 11px; fill: #5c6670; } svg .label { font-size: 12px; fill: #1d232a; }
`;

const hash = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

function depthColumns(r: EvalReport): Array<{ key: string; head: string; m: Metrics }> {
  if (!r.by_depth) return [{ key: String(r.depths[0] ?? 'all'), head: `depth ${r.depths.join(', ')}`, m: r }];
  return [...r.depths.map((d) => ({ key: String(d), head: `depth ${d}`, m: r.by_depth![String(d)]! })), { key: 'all', head: 'all depths', m: r }];
}

function table(head: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  return `<table><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

function summary(r: EvalReport, what = 'images'): string {
  const cols = depthColumns(r);
  const line = (label: string, fn: (m: Metrics) => string) => [label, ...cols.map((c) => fn(c.m))];
  const fixed = (x: number | null, d: number) => (x === null ? '–' : x.toFixed(d));
  return table(['', ...cols.map((c) => c.head)], [
    line(`${what} (scored)`, (m) => `${m.n} (${m.scored})`),
    ...r.thresholds_km.map((t) => line(`within ${t} km`, (m) => pct(m.accuracy[String(t)] ?? null))),
    line('median error', (m) => km(m.error_km.median)),
    line('mean error', (m) => km(m.error_km.mean)),
    line('p90 error', (m) => km(m.error_km.p90)),
    line(`correct (≤ ${r.calibration.correct_within_km} km)`, (m) => String(m.correct)),
    line('ECE', (m) => fixed(m.calibration.ece, 3)),
    line('credits', (m) => String(m.credits.spent)),
    line('credits per correct', (m) => fixed(m.credits.per_correct, 1)),
  ]);
}

function calibration(head: string, m: Metrics): string {
  const rows = m.calibration.bins.map((b, i) => {
    const a = m.abstention[i]!;
    return [`${b.lo.toFixed(1)}–${b.hi.toFixed(1)}`, String(b.n), b.mean_confidence === null ? '–' : b.mean_confidence.toFixed(2), pct(b.accuracy), pct(a.coverage), pct(a.accuracy)];
  });
  const a = m.advice;
  const advice = a ? `<p class="note">Depth-3 advice: publish ${a.publish.n} (${pct(a.publish.accuracy)} correct), abstain ${a.abstain.n} (${pct(a.abstain.accuracy)} correct); the advice was right for ${pct(a.right)}.</p>` : '';
  return `<h2>Calibration, ${esc(head)}: ECE ${m.calibration.ece === null ? '–' : m.calibration.ece.toFixed(3)}</h2>
${table(['confidence', 'answers', 'mean confidence', 'correct', 'kept if confidence ≥ lo', 'correct among kept'], rows)}${advice}`;
}

/** What the consensus buys: the same figures, one answer per video (set), beside the single ones above. */
function consensusSection(c: NonNullable<EvalReport['consensus']>, rows: readonly EvalRow[]): string {
  const [one, whole] = c.kind === 'set' ? ['photo', 'set'] : ['frame', 'video'];
  return `<section><h2>What the consensus buys: one answer per ${whole}</h2>${summary(c, `${whole}s`)}
<p class="note">The figures above score every ${one} on its own; here each ${whole}'s consensus is one answer. Its confidence is the share of its ${one}s that agree; its credits are its ${one}s' (the consensus costs nothing more).</p>
${imageRows(rows, whole)}</section>`;
}

function imageRows(rows: readonly EvalRow[], what = 'image'): string {
  const coord = (p: { lat: number; lng: number } | null) => (p ? `${p.lat.toFixed(5)}, ${p.lng.toFixed(5)}` : '–');
  const body = rows.map((r) => {
    const verdict = r.correct === null ? `<td>${esc(r.error?.code ?? 'no answer')}</td>` : `<td class="${r.correct ? 'right' : 'wrong'}">${r.correct ? 'yes' : 'no'}</td>`;
    return `<tr><td class="input" title="${esc(r.input)}">${esc(r.input)}</td><td>${r.depth}</td><td>${esc(coord(r.truth))}</td><td>${esc(coord(r.estimate))}</td><td>${esc(km(r.error_km))}</td><td>${r.confidence === null ? '–' : r.confidence.toFixed(2)}</td>${verdict}</tr>`;
  }).join('');
  return `<table><thead><tr><th>${what}</th><th>depth</th><th>truth</th><th>estimate</th><th>error</th><th>confidence</th><th>correct</th></tr></thead><tbody>${body}</tbody></table>`;
}

export function renderEvalReport(r: EvalReport, rows: readonly EvalRow[], opts: EvalReportOptions): string {
  const cols = depthColumns(r);
  const perDepth = r.by_depth ? cols.filter((c) => c.key !== 'all') : cols;
  const series = perDepth.map((c) => ({ label: c.head, colour: COLOURS[c.key] ?? COLOURS.all! } satisfies Series));
  const errorsOf = (key: string) => rows.filter((x) => x.error_km !== null && (!r.by_depth || String(x.depth) === key)).map((x) => x.error_km!);
  const cdf = errorCdfSvg(perDepth.map((c, i) => ({ ...series[i]!, errors: errorsOf(c.key) })), r.thresholds_km);
  const reliability = reliabilitySvg(perDepth.map((c, i) => ({ ...series[i]!, bins: c.m.calibration.bins })));
  const csp = ["default-src 'none'", "script-src 'none'", `style-src ${hash(CSS)}`, "img-src 'none'", "base-uri 'none'", "form-action 'none'", "object-src 'none'"].join('; ');
  const images = new Set(rows.map((x) => x.input)).size;
  const title = `geo eval: ${images} image${images === 1 ? '' : 's'}, depth ${r.depths.join(', ')}`;
  return `${pageHead({ csp, title, ...(opts.cliVersion !== undefined ? { cliVersion: opts.cliVersion } : {}), styles: [CSS] })}
<header class="page"><h1>${esc(title)}</h1><p>Generated ${esc(opts.generatedAt)} by geo${opts.cliVersion ? ` ${esc(opts.cliVersion)}` : ''}${opts.source ? ` · ${esc(opts.source)}` : ''}. A correct answer is within ${r.calibration.correct_within_km} km of the truth. p90 and the median interpolate linearly between ranks.</p></header>
<main>
<section><h2>Accuracy, error and cost</h2>${summary(r)}
<p class="note">Accuracy is the share of scored answers (images answered with a location) within each distance; credits are what those answers cost at their depth, each image once, whether paid now or earlier.</p></section>
<section><h2>Error CDF and reliability</h2><div class="charts">${cdf}${reliability}</div>
<p class="note">Left: share of answers within x km. Right: for each confidence bin with answers, the share correct against the mean confidence; dots grow with the number of answers; a calibrated model sits on the dashed diagonal.</p></section>
${r.consensus ? consensusSection(r.consensus, opts.consensusRows ?? []) : ''}
${perDepth.map((c) => `<section>${calibration(c.head, c.m)}</section>`).join('\n')}
<section><h2>Images</h2>${imageRows(rows)}</section>
</main>
</body>
</html>
`;
}
