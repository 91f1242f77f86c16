/**
 * The analyst's sections of a case's HTML report (case-report-html.ts lays out the page): the
 * observations and hypotheses with their exhibits and the working copies beside their originals,
 * the clues accepted and rejected, the places ruled out, and the conclusion on its map. Every
 * string that is the analyst's, the service's or a file's goes through esc().
 */
import type { CaseReport, ReportConclusion, ReportJudgement } from './case-report-data.js';
import { caseMapSvg } from './case-map.js';
import type { CaseGeometry } from './case-geometry.js';
import { esc } from './html.js';
import type { Outlines } from './outlines.js';
import { facts, mapLinksHtml } from './report-sections.js';
import { peopleTime } from '../time.js';

/** An image the report embeds (a data: URL made from sniffed image bytes), or why it does not. */
export type Shown = { url: string } | { missing: string };
export type ReportImages = ReadonlyMap<string, Shown>;

const meta = (e: { entry: number; at: string; by: string }) => `<p class="meta">entry ${e.entry} · ${esc(peopleTime(e.at))} · ${esc(e.by)}</p>`;

/** A figure with its label first: "original (evidence)", "working copy (annotated)", "exhibit". */
export function figure(images: ReportImages, sha256: string, label: string, caption: string): string {
  const shown = images.get(sha256) ?? { missing: 'not kept where geo can read it' };
  const img = 'url' in shown ? `<img src="${esc(shown.url)}" alt="${esc(label)}">` : `<div class="noimg">${esc(shown.missing)}</div>`;
  return `<figure>${img}<figcaption><strong>${esc(label)}</strong> · ${esc(caption)} · sha256 <span class="hash">${esc(sha256)}</span></figcaption></figure>`;
}

const table = (head: readonly string[], rows: ReadonlyArray<readonly string[]>) =>
  `<table><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.join('')}</tr>`).join('')}</tbody></table>`;
const td = (s: unknown, cls = '') => `<td${cls ? ` class="${cls}"` : ''}>${esc(s)}</td>`;

export function observationsHtml(r: CaseReport, images: ReportImages): string {
  const notes = r.notes.map((n) => {
    const points = [...n.results, ...n.clues.map((c) => `${c.id}${c.label ? ` ("${c.label}")` : ''}`)];
    const exhibits = n.exhibits.map((x) => figure(images, x.sha256, `exhibit: ${x.name}`, `${x.media_type}, ${x.size} bytes, from ${x.source}`)).join('');
    return `<article class="note ${esc(n.kind)}"><span class="kind">${esc(n.kind)}</span>${n.agent ? ` <span class="meta">written by an agent (${esc(n.agent)})</span>` : ''}
<p class="text">${esc(n.text)}</p>${points.length ? `<p class="meta">points at ${esc(points.join(', '))}</p>` : ''}${exhibits ? `<div class="exhibits">${exhibits}</div>` : ''}${meta(n)}</article>`;
  }).join('\n');
  const copies = r.working_copies.map((w) => `<div class="working-copy">
<div class="pair">${figure(images, w.of.sha256, 'original (evidence)', `${w.of.ref ?? 'input'}: ${w.of.input_path}, unchanged`)}${figure(images, w.sha256, 'working copy (annotated)', `${w.method}; ${w.media_type}, ${w.size} bytes`)}</div>
${w.boxes.length ? `<p class="meta">boxes drawn: ${esc(w.boxes.map((b) => `${b.id}${b.label ? ` "${b.label}"` : ''}`).join(', '))}</p>` : ''}${meta(w)}</div>`).join('\n');
  return `${notes || '<p class="empty">No observation or hypothesis has been recorded.</p>'}
${copies ? `<h3>Originals and working copies</h3><p class="meta">A working copy is drawn on a copy of the original, never on the original: its sha256 is its own, and the original's is the one its input was logged with.</p>${copies}` : ''}`;
}

function judgements(list: readonly ReportJudgement[], verdict: string): string {
  if (list.length === 0) return `<p class="empty">None ${esc(verdict)}.</p>`;
  return table(['clue', 'what it says', 'because', 'who, when'], list.map((j) => [
    `<td><code>${esc(j.clue)}</code></td>`, td(j.label), `<td><span class="verdict-${esc(verdict)}">${esc(verdict)}:</span> ${esc(j.because)}</td>`, td(`entry ${j.entry}, ${peopleTime(j.at)}, ${j.by}`),
  ]));
}

export function cluesHtml(r: CaseReport): string {
  const c = r.clues;
  const unjudged = c.unjudged.length ? `<h3>Not judged (${c.unjudged.length})</h3><p class="meta">${esc(c.unjudged.map((u) => `${u.id}${u.label ? ` "${u.label}"` : ''}`).join('; '))}</p>` : '';
  return `<p>${c.total} item${c.total === 1 ? '' : 's'} in the results (visual clues, forensic supports and contradictions, candidates): ${c.accepted.length} accepted, ${c.rejected.length} rejected, ${c.unjudged.length} not judged${c.replaced ? `; ${c.replaced} earlier judgement${c.replaced === 1 ? '' : 's'} replaced by a later one (both stay in the log)` : ''}.</p>
<h3>Accepted</h3>${judgements(c.accepted, 'accepted')}
<h3>Rejected</h3>${judgements(c.rejected, 'rejected')}
${unjudged}`;
}

export function ruledOutHtml(r: CaseReport): string {
  if (r.ruled_out.length === 0) return '<p class="empty">No place has been ruled out.</p>';
  return `${table(['place or area', 'because', 'who, when'], r.ruled_out.map((x) => [
    `<td>${esc(x.what)}${x.area ? `<br><span class="meta">file sha256 <span class="hash">${esc(x.area.sha256)}</span></span>` : ''}</td>`, td(x.because), td(`entry ${x.entry}, ${peopleTime(x.at)}, ${x.by}`),
  ]))}<p class="meta">Drawn hatched on the map of the conclusion.</p>`;
}

const where = (c: ReportConclusion) => `${c.place ? `${c.place}: ` : ''}${c.lat}, ${c.lng}`;
const within = (m: number) => (m < 1000 ? `${m} m` : `${Math.round(m / 100) / 10} km`);

export function conclusionHtml(r: CaseReport, g: CaseGeometry, outlines: Outlines | undefined): string {
  const c = r.conclusion;
  const box = c
    ? `<div class="conclusion-box" role="note" aria-label="the conclusion"><p class="where">${esc(where(c))}, within ${esc(within(c.within_m))}: ${esc(c.confidence)}</p>
<p class="text">because: ${esc(c.because)}</p>${facts([
      ['on the results', c.results.join(', ') || 'none named'], ['supersedes', c.supersedes === null ? undefined : `the conclusion of entry ${c.supersedes}`],
      ['entry', `${c.entry}, ${peopleTime(c.at)}`], ['by', c.by],
    ])}</div>
<div class="controls">${mapLinksHtml(c.lat, c.lng)}</div>`
    : '<p class="empty">No conclusion has been recorded.</p>';
  const map = caseMapSvg(g, outlines);
  const drawn = map
    ? `${map.svg}
<div class="legend"><span class="l-conclusion">the conclusion and its uncertainty circle</span><span class="l-ruled">ruled out</span><span class="l-result">a result's estimate</span><span class="l-note">a point a note names</span></div>
${map.off.length ? `<p class="meta">Outside this map: ${esc(map.off.join('; '))}.</p>` : ''}<p class="meta">Drawn offline (equirectangular; country outlines are approximate at sea): no tile is loaded.</p>`
    : '';
  const superseded = r.superseded.length
    ? `<h3>Superseded</h3>${table(['conclusion', 'because', 'who, when'], r.superseded.map((s) => [td(`${where(s)}, within ${within(s.within_m)}: ${s.confidence}`), td(s.because), td(`entry ${s.entry}, ${peopleTime(s.at)}, ${s.by}`)]))}`
    : '';
  return `${box}\n${drawn}\n${superseded}`;
}

export { table, td };
