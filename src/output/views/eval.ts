/**
 * `geo eval` for people: accuracy, error and cost with one column per depth (80 columns hold three
 * depths and the pooled one), then each depth's calibration bins beside the abstention curve, and
 * how the depth-3 advice fared. Plain data in, text out; --json and the report carry full precision.
 */
import type { EvalReport } from '../../eval/evaluate.js';
import type { Metrics } from '../../eval/metrics.js';
import type { ViewOpts } from '../render.js';
import { renderTable } from '../table.js';

const DASH = '–';
export const pct = (x: number | null): string => (x === null ? DASH : `${Math.round(x * 100)}%`);
export const km = (x: number | null): string => (x === null ? DASH : x < 10 ? `${x.toFixed(1)} km` : `${Math.round(x)} km`);
const num = (x: number | null, digits: number): string => (x === null ? DASH : x.toFixed(digits));

/** The columns: each depth, and the pooled answers when there are several. */
function columns(r: EvalReport): Array<{ head: string; m: Metrics }> {
  if (!r.by_depth) return [{ head: `depth ${r.depths.join(', ') || '?'}`, m: r }];
  return [...r.depths.map((d) => ({ head: `depth ${d}`, m: r.by_depth![String(d)]! })), { head: 'all', m: r }];
}

function summaryTable(r: EvalReport, view: ViewOpts): string {
  const cols = columns(r);
  const line = (label: string, f: (m: Metrics) => string) => [label, ...cols.map((c) => f(c.m))];
  const rows = [
    line('images (scored)', (m) => `${m.n} (${m.scored})`),
    ...r.thresholds_km.map((t) => line(`within ${t} km`, (m) => pct(m.accuracy[String(t)] ?? null))),
    line('median error', (m) => km(m.error_km.median)),
    line('mean error', (m) => km(m.error_km.mean)),
    line('p90 error', (m) => km(m.error_km.p90)),
    line(`correct (≤ ${r.calibration.correct_within_km} km)`, (m) => `${m.correct}`),
    line('ECE', (m) => num(m.calibration.ece, 3)),
    line('credits', (m) => `${m.credits.spent}`),
    line('credits per correct', (m) => num(m.credits.per_correct, 1)),
  ];
  return renderTable({ head: ['', ...cols.map((c) => c.head)], rows, align: ['left', ...cols.map(() => 'right' as const)] }, view);
}

function calibrationTable(m: Metrics, view: ViewOpts): string {
  const rows = m.calibration.bins.map((b, i) => {
    const a = m.abstention[i]!;
    return [`${b.lo.toFixed(1)}–${b.hi.toFixed(1)}`, `${b.n}`, num(b.mean_confidence, 2), pct(b.accuracy), pct(a.coverage), pct(a.accuracy)];
  });
  return renderTable({ head: ['confidence', 'n', 'mean', 'correct', 'kept if ≥ lo', 'correct kept'], rows, align: ['left', 'right', 'right', 'right', 'right', 'right'] }, view);
}

function adviceLine(m: Metrics): string | undefined {
  const a = m.advice;
  if (!a) return undefined;
  return `depth-3 advice: publish ${a.publish.n} (${pct(a.publish.accuracy)} correct) · abstain ${a.abstain.n} (${pct(a.abstain.accuracy)} correct) · right ${pct(a.right)}`;
}

/** What a video's (a set's) single answers are called, and the video (set) itself. */
const unitsOf = (c: NonNullable<EvalReport['consensus']>) => (c.kind === 'set' ? { one: 'photo', whole: 'set' } : { one: 'frame', whole: 'video' });

/**
 * Videos and photo sets: each depth's single frames (photos) beside its consensus (one
 * answer per video or set), so the gain is read along a row: the share within each distance, the
 * error, and credits per correct answer.
 */
function consensusTable(r: EvalReport, c: NonNullable<EvalReport['consensus']>, view: ViewOpts): string {
  const frames = columns(r).filter((x) => x.head !== 'all');
  const cons = columns(c).filter((x) => x.head !== 'all');
  const one = unitsOf(c).one;
  const cols = frames.flatMap((f, i) => [{ head: `${one}s, ${f.head}`, m: f.m }, { head: `consensus, ${f.head}`, m: cons[i]?.m ?? c }]);
  const line = (label: string, f: (m: Metrics) => string) => [label, ...cols.map((x) => f(x.m))];
  const rows = [
    line('answers (scored)', (m) => `${m.n} (${m.scored})`),
    ...r.thresholds_km.map((t) => line(`within ${t} km`, (m) => pct(m.accuracy[String(t)] ?? null))),
    line('median error', (m) => km(m.error_km.median)),
    line(`correct (≤ ${r.calibration.correct_within_km} km)`, (m) => `${m.correct}`),
    line('credits per correct', (m) => num(m.credits.per_correct, 1)),
  ];
  return renderTable({ head: ['', ...cols.map((x) => x.head)], rows, align: ['left', ...cols.map(() => 'right' as const)] }, view);
}

export function evalView(r: EvalReport, view: ViewOpts): string {
  const u = r.consensus ? unitsOf(r.consensus) : undefined;
  const out = [view.style.bold(`Accuracy, error and cost (correct: within ${r.calibration.correct_within_km} km)${u ? `, every ${u.one} on its own` : ''}`), summaryTable(r, view)];
  if (r.consensus && u) out.push('', view.style.bold(`What the consensus buys: every ${u.one} on its own, then one consensus per ${u.whole}`), consensusTable(r, r.consensus, view));
  for (const c of columns(r).filter((c) => c.head !== 'all')) {
    out.push('', view.style.bold(`Calibration, ${c.head}: ECE ${num(c.m.calibration.ece, 3)}`), calibrationTable(c.m, view));
    const advice = adviceLine(c.m);
    if (advice) out.push(advice);
  }
  return out.join('\n');
}
