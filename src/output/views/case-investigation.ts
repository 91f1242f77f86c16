/**
 * The investigation section of `geo cases show` (evidence/investigation.ts): the conclusion in
 * force and what it replaced, the notes, the clue judgements, the places ruled out, the reviews
 * (current or stale) and the working copies, each with its entry and author. Every text is the
 * analyst's or a file's: sanitized. On a case holding a sandbox's answers, each section says so
 * as the results do: what it rests on is simulated, never evidence.
 */
import type { InvestigationEvents } from '../../evidence/investigation-events.js';
import type { Authored, Investigation } from '../../evidence/investigation.js';
import { simulatedCount } from '../../evidence/simulated.js';
import { wrapFor } from '../fit.js';
import type { ViewOpts } from '../render.js';
import { sanitizeInline } from '../sanitize.js';
import { peopleTime } from '../time.js';

const s = (v: string | undefined | null) => sanitizeInline(v ?? '');

/** "root@vm" or the team store's role, with the signing key when one was chosen. */
function author(a: Authored): string {
  return `${s(a.role ?? `${a.user}@${a.host}`)}${a.key ? `, key ${s(a.key)}` : ''}, ${peopleTime(a.at)}`;
}

export function conclusionLine(c: InvestigationEvents['conclusion_made']['conclusion']): string {
  return `${c.place ? `${s(c.place)} · ` : ''}${c.lat}, ${c.lng} within ${c.within_m} m · ${s(c.confidence)}`;
}

export function ruledOutLine(r: InvestigationEvents['place_ruled_out']['ruled_out']): string {
  const g = r.geometry;
  if (g?.type === 'Point') return `${r.place ? `${s(r.place)} ` : ''}(${g.coordinates[1]}, ${g.coordinates[0]}) within ${r.within_km} km`;
  const what = g?.type === 'Polygon' ? 'a polygon' : g?.type === 'MultiPolygon' ? `${g.coordinates.length} polygons` : 'an area';
  return r.area ? `the area ${s(r.area.name)} (${what}, sha256 ${s(r.area.sha256).slice(0, 12)}…)` : what;
}

export function investigationView(inv: Investigation, simulated: number, view: ViewOpts): string[] {
  const st = view.style;
  const sim = simulated > 0 ? ` · ${st.yellow(simulatedCount(simulated))}` : '';
  // An item under its entry number, what follows it indented under its text (as the results are).
  const item = (text: string) => wrapFor(view, text, '      ', '  ');
  const sub = (text: string) => wrapFor(view, text, '      ');
  const lines: string[] = [];
  const section = (title: string, n: number) => lines.push('', `${title}${n > 1 ? ` (${n})` : ''}${sim}`);
  const c = inv.conclusion;
  if (c) {
    section('conclusion', 1);
    lines.push(...item(`entry ${c.entry} · ${conclusionLine(c)}`), ...sub(`because: ${s(c.because)}`));
    if (c.results?.length) lines.push(...sub(`rests on: ${c.results.map((r) => s(r.ref)).join(', ')}`));
    lines.push(...sub(st.dim(author(c))));
    for (const old of inv.superseded) lines.push(...sub(st.dim(`replaced entry ${old.entry}: ${conclusionLine(old)}; because ${s(old.because)} (${author(old)})`)));
  }
  if (inv.notes.length) section('notes', inv.notes.length);
  for (const n of inv.notes) {
    const on = [...(n.results ?? []).map((r) => s(r.ref)), ...(n.clues ?? []).map(s)];
    lines.push(...item(`entry ${n.entry} · ${s(n.kind)}${n.by?.agent ? ` (by an agent: ${s(n.by.client)})` : ''}: ${s(n.text)}${on.length ? `  [${on.join(', ')}]` : ''}`));
    for (const x of n.exhibits ?? []) lines.push(...sub(`exhibit ${s(x.name)} (${s(x.media_type)}, sha256 ${s(x.sha256).slice(0, 12)}…) from ${s(x.source)}`));
    lines.push(...sub(st.dim(author(n))));
  }
  if (inv.judgements.length) section('clues judged', inv.judgements.length);
  for (const j of inv.judgements) lines.push(...item(`entry ${j.entry} · ${s(j.clue)} ${j.verdict === 'accepted' ? st.green('accepted') : st.red('rejected')}: ${s(j.label)}; because ${s(j.because)}`), ...sub(st.dim(author(j))));
  if (inv.ruled_out.length) section('ruled out', inv.ruled_out.length);
  for (const r of inv.ruled_out) lines.push(...item(`entry ${r.entry} · ${ruledOutLine(r)}; because ${s(r.because)}`), ...sub(st.dim(author(r))));
  if (inv.reviews.length) section('reviews', inv.reviews.length);
  for (const r of inv.reviews) {
    const state = r.stale ? st.yellow(`stale: entry ${r.stale_by} came after it`) : st.green('current');
    lines.push(...item(`entry ${r.entry} · ${r.verdict === 'approve' ? 'approved' : 'changes requested'} (${state}): ${s(r.because)}`), ...sub(st.dim(`${s(r.principal ?? r.fingerprint)}, key ${s(r.fingerprint)}, ${peopleTime(r.at)}`)));
  }
  if (inv.working_copies.length) section('working copies', inv.working_copies.length);
  for (const w of inv.working_copies) {
    lines.push(...item(`entry ${w.entry} · sha256 ${s(w.sha256).slice(0, 12)}…, made from the original ${s(w.of?.input_path)} (sha256 ${s(w.of?.sha256).slice(0, 12)}…): ${(w.boxes ?? []).length} boxes, ${s(w.method)}`), ...sub(st.dim(author(w))));
  }
  if (lines.length === 0) lines.push('', st.dim('investigation: nothing yet (geo cases note, clues, rule-out, conclude)'));
  return lines;
}
