/**
 * `geo claims check` for people: one claim as a verdict first, then its evidence; many
 * as a table fitted to the terminal (fit.ts: the rule, then the row number go below it on a narrow
 * one) with each claim's reason under it. Plain data in (the records of batch/claim-record.ts,
 * imported as a type), text out; every server string is sanitized (renderTable and renderKv do).
 */
import type { ClaimRecord } from '../../batch/claim-record.js';
import { kmText } from '../../claims/rules.js';
import { wrapFor } from '../fit.js';
import { type KvInput, renderKv } from '../kv.js';
import type { Style } from '../plain-style.js';
import type { ViewOpts } from '../render.js';
import { sanitizeInline } from '../sanitize.js';
import { renderTable } from '../table.js';

/** "0.4 km", "3.2 km", "1,240 km": as the rules write their reasons. */
const km = kmText;

export function paintVerdict(v: string, style: Style): string {
  const w = v.toLowerCase();
  if (w === 'agrees') return style.green(v);
  if (w === 'contradicts') return style.red(style.bold(v));
  if (w === 'unverifiable') return style.yellow(v);
  return v;
}

const claimed = (r: ClaimRecord) => (r.claim ? `${r.at ?? ''}${r.claim.place && r.claim.place !== r.at ? ` (${r.claim.place})` : ''}` : '');

/** The one line of each record under the table: its label and why. */
function reasonLine(r: ClaimRecord): string {
  const label = r.row !== null ? `#${r.row}` : r.input;
  return `${label}  ${r.verdict === null ? `not checked: ${r.error?.message ?? ''}` : `${r.rule}: ${r.reason ?? ''}`}`;
}

export function claimsTable(records: readonly ClaimRecord[], view: ViewOpts): string {
  const rows = records.map((r) => [
    r.row ?? '', r.input, claimed(r), r.verdict ?? 'not checked', r.distance_km === null ? '' : km(r.distance_km),
    r.estimate ? r.estimate.confidence.toFixed(2) : '', r.rule ?? r.error?.code ?? '',
  ]);
  const table = renderTable(
    {
      head: ['#', 'INPUT', 'CLAIM', 'VERDICT', 'DISTANCE', 'CONF', 'RULE'],
      rows,
      align: ['right', 'left', 'left', 'left', 'right', 'right', 'left'],
      optional: [6, 0],
      cutLeft: [1],
      label: 1,
      // A verdict, a distance and a confidence are never cut: half of one is a wrong one.
      floor: [undefined, 12, 10, Infinity, Infinity, Infinity, undefined],
    },
    view,
  ).replace(/\b(agrees|contradicts|unverifiable)\b/g, (v) => paintVerdict(v, view.style));
  const reasons = records.flatMap((r) => wrapFor(view, sanitizeInline(reasonLine(r)), '    ', ''));
  return [table, '', ...reasons].join('\n');
}

/** One claim: the verdict and its reason first, then the evidence, one fact a line. */
export function claimView(r: ClaimRecord, view: ViewOpts): string {
  if (r.verdict === null) return `${view.style.bold('not checked')}: ${sanitizeInline(r.error?.message ?? '')}`;
  // Wrapped as plain text, then the verdict painted: colour codes take no columns.
  const verdict = r.verdict.toUpperCase();
  const head = wrapFor(view, sanitizeInline(`${verdict}  ${r.input} said to be at ${claimed(r)}, within ${km(r.tolerance_km ?? 0)}`), '  ', '');
  head[0] = paintVerdict(verdict, view.style) + head[0]!.slice(verdict.length);
  const why = wrapFor(view, sanitizeInline(`rule ${r.rule}: ${r.reason}`), '  ');
  const e = r.estimate;
  const c = r.nearest_candidate;
  const x = r.exif;
  const rows: KvInput[] = [
    ['claim', `${r.claim!.lat}, ${r.claim!.lng}${r.claim!.place ? ` (${r.claim!.place})` : ''}; tolerance ${km(r.tolerance_km ?? 0)}: ${r.tolerance_basis ?? ''}`],
    ['estimate', e ? `${e.place || 'a place'} (${e.lat}, ${e.lng}), confidence ${e.confidence.toFixed(2)}, depth ${r.depth ?? '?'}${e.precision_tier ? `, ${e.precision_tier}` : ''}` : `none: ${r.error?.message ?? 'not located'}`],
    ['distance', r.distance_km === null ? '–' : `${km(r.distance_km)} from the claim`],
    ['candidate', c ? `"${c.label}"${c.confidence_pct === null ? '' : ` ${c.confidence_pct}%`}, ${km(c.distance_km)} from the claim (nearest of ${r.candidates.length})` : r.depth === 3 ? 'none listed' : `none (depth ${r.depth ?? '?'} lists no candidates; depth 3 does)`],
    ['EXIF GPS', x.status === 'gps' ? `${x.lat}, ${x.lng}: ${km(x.distance_km ?? 0)} from the claim; ${x.note}` : x.note],
    ['scoped', r.scoped === null ? 'not asked (--scoped sends the claim as a scope too)' : r.scoped.error ? `no answer (${r.scoped.error})` : `scope_consistent ${String(r.scoped.scope_consistent)}${r.scoped.hard_evidence ? `: "${r.scoped.hard_evidence}"` : ''}`],
    ['service', r.service_verdict ?? (r.depth === 3 ? 'no advice geo can read' : 'no calibration (depth 3 gives one)')],
    ['analysis', r.analysis_id ?? 'not retained'],
  ];
  return [...head, ...why, '', renderKv(rows, view, '  ')].join('\n');
}

/** The closing line on stderr: how many of each verdict, and what was not checked. */
export function verdictCounts(records: readonly ClaimRecord[]): string {
  const n = (v: string | null) => records.filter((r) => r.verdict === v).length;
  const bad = n(null);
  return `${records.length - bad} claim${records.length - bad === 1 ? '' : 's'} checked: ${n('agrees')} agree, ${n('contradicts')} contradicted, ${n('unverifiable')} unverifiable${bad ? `; ${bad} not checked (bad input)` : ''}`;
}
