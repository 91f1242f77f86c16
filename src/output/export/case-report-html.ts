/**
 * A case's report as one self-contained HTML page (geo cases report --out report.html): the
 * sections of case-report-data.ts, each with its id and heading, images embedded as data: URLs and
 * the map as inline SVG (case-map.ts), so it reads the same offline and prints to PDF cleanly (its
 * print CSS: case-report-css.ts). Content-Security-Policy (meta): no script at all, the one <style>
 * pinned by its sha256, images from data: only. Every string that is not geo's own goes through esc().
 * A case on a sandbox's answers says so above everything and again at the top of every section.
 */
import { createHash } from 'node:crypto';
import { SIMULATED_CASE, simulatedCount } from '../../evidence/simulated.js';
import { type CaseReport, REPORT_SECTIONS, type SectionId } from './case-report-data.js';
import { CASE_REPORT_CSS } from './case-report-css.js';
import type { CaseGeometry } from './case-geometry.js';
import { type ReportImages, cluesHtml, conclusionHtml, figure, observationsHtml, ruledOutHtml, table, td } from './case-report-work.js';
import { esc, pageHead } from './html.js';
import type { Outlines } from './outlines.js';
import { facts } from './report-sections.js';
import { peopleTime } from '../time.js';

export type { ReportImages, Shown } from './case-report-work.js';

const hash = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;
const size = (n: number | null) => (n === null ? undefined : `${n.toLocaleString('en-US')} bytes`);

function questionHtml(r: CaseReport): string {
  const c = r.case;
  return `<p class="text"><strong>${esc(c.name)}</strong></p>
${c.description ? `<p class="text">${esc(c.description)}</p>` : '<p class="empty">No description was given when the case was created.</p>'}
${facts([['case', c.id], ['created', peopleTime(c.created_at)], ['team', c.team], ['on the service', c.service ? `${c.service}${c.service_id ? ` (id ${c.service_id})` : ''}` : 'no: this machine or this team store only']])}`;
}

function sourcesHtml(r: CaseReport, images: ReportImages): string {
  if (r.sources.length === 0) return '<p class="empty">No result is linked to this case.</p>';
  return r.sources.map((s) => {
    const a = s.answer;
    const said = s.metadata ? (s.metadata.said.length ? s.metadata.said.map(([k, v]) => `${k} ${v}`).join('; ') : 'nothing a reader looks for first') + ` (${s.metadata.tags} tags kept)` : 'not kept (geo kept no metadata for this input)';
    return `<div class="source" id="source-${esc(s.ref)}">${figure(images, s.input.sha256, 'original (evidence)', s.ref)}
<div><h3>${esc(s.ref)} · ${esc(s.place || 'no place name')}${a.sandbox ? ' · simulated answer' : ''}</h3>${facts([
      ['input', s.input.path ?? '(path not logged)'], ...s.fetched, ['sha256', s.input.sha256], ['size', size(s.input.size)], ['hashed', s.input.hashed_entry === null ? 'no input_hashed entry (linked from the store)' : `entry ${s.input.hashed_entry}`],
      ['metadata said', said], ['C2PA', s.c2pa ?? 'not kept'],
      ['answer sha256', a.sha256], ['answer size', size(a.size)], ['service', a.service], ['analysis id', a.analysis_id ?? 'not retained'],
      ['received', a.received_at ? `${peopleTime(a.received_at)} (entry ${a.entry})${a.stored_at ? `, first stored ${peopleTime(a.stored_at)}` : ''}` : undefined],
      ['linked', `entry ${s.linked.entry}, ${peopleTime(s.linked.at)}`],
      ['estimate', s.lat === null || s.lng === null ? 'none' : `${s.lat}, ${s.lng}${s.confidence === null ? '' : `, confidence ${s.confidence}`}`], ['depth', s.depth], ['model', s.model],
    ])}</div></div>`;
  }).join('\n');
}

function methodHtml(r: CaseReport): string {
  const m = r.method;
  const checks = m.checks.map((c) => [`<td><code>${esc(c.ref)}</code></td>`, td(c.exif), td(c.sun ?? 'not computed (no EXIF capture time)'), td(c.c2pa)]);
  const failed = m.failed.length ? `<h3>Requests without an answer</h3>${table(['entry', 'input', 'status', 'error'], m.failed.map((f) => [td(f.entry), td(f.input), td(f.status ?? 'none'), td(f.code)]))}` : '';
  if (r.sources.length === 0) return `<p class="empty">No answer is linked to this case yet.</p>${failed}`;
  return `<p>geo asked ${esc(m.services.join(', ') || 'no service')} at depth ${esc(m.depths.join(', ') || '?')}${m.models.length ? ` (model ${esc(m.models.join(', '))})` : ''}. Depth 1 names a place; depth 2 adds the visual clues; depth 3 adds forensic supports, contradictions and candidates. Each answer was kept byte for byte and hashed into the case's custody log before it was shown; every value here is read back from those bytes.</p>
<h3>What geo checked locally</h3>
<p class="meta">Never sent to the service, never changing a confidence: the EXIF GPS the file carried beside the estimate (geo removes metadata before upload, so agreement is independent), the sun at the estimate at the photo's capture time (to compare with the shadows), and the file's C2PA content credentials.</p>
${table(['result', 'EXIF', 'sun', 'C2PA'], checks)}
${failed}`;
}

function reviewsHtml(r: CaseReport): string {
  if (r.reviews.length === 0) return '<p class="empty">No review has been recorded.</p>';
  return table(['verdict', 'because', 'reviewer', 'covers', 'now'], r.reviews.map((v) => [
    td(v.verdict.replace('_', ' ')), td(v.because), td(`${v.principal ?? v.by} (${v.fingerprint}), ${peopleTime(v.at)}, entry ${v.entry}`), td(`entries 1-${v.covers}`),
    `<td class="${v.stale ? 'stale' : 'current'}">${v.stale ? `stale: entry ${esc(v.stale_by)} changed the case after it` : 'current'}</td>`,
  ]));
}

function custodyHtml(r: CaseReport): string {
  const c = r.custody;
  const sigs = c.signatures.length
    ? table(['entry', 'signs the head of', 'signer', 'holds'], c.signatures.map((s) => [td(s.entry), td(`entry ${s.seq}`), td(`${s.principal ?? '?'} (${s.fingerprint})`), td(s.ok ? 'yes' : `no: ${s.problem ?? ''}`)]))
    : '<p class="empty">Not signed (geo cases sign signs the head with your SSH key).</p>';
  const stamps = c.stamps.length
    ? table(['entry', 'stamps the head of', 'authority', 'time'], c.stamps.map((s) => [td(s.entry), td(`entry ${s.seq}`), td(`${s.tsa}${s.sandbox ? ' (geo sandbox: not evidence)' : ''}`), td(s.gen_time)]))
    : '<p class="empty">No trusted timestamp (geo cases stamp).</p>';
  return `${facts([['entries', c.entries], ['head', c.head ?? 'none'], ['chain', c.verified ? 'intact: every entry hashes to the next' : `BROKEN: ${c.broken ?? ''}`], ['signed up to', c.covered === null ? 'none' : `entry ${c.covered}`]])}
<h3>Signatures</h3>${sigs}
<h3>Timestamps</h3>${stamps}
<h3>How to verify</h3>
<pre class="commands">${esc(c.verify.map((l) => (l.startsWith('without geo') ? `# ${l}` : `$ ${l}`)).join('\n'))}</pre>
<p class="meta">An intact, signed chain proves the entries were not changed after they were written and who vouched for them; it does not prove the conclusion right. Written by geo cases report, this file is logged in the case as a file written, with its sha256; in a bundle, the seal lists it.</p>`;
}

export function renderCaseReportHtml(r: CaseReport, o: { images: ReportImages; geometry: CaseGeometry; outlines?: Outlines }): string {
  const body: Record<SectionId, () => string> = {
    question: () => questionHtml(r), sources: () => sourcesHtml(r, o.images), method: () => methodHtml(r), observations: () => observationsHtml(r, o.images),
    clues: () => cluesHtml(r), 'ruled-out': () => ruledOutHtml(r), conclusion: () => conclusionHtml(r, o.geometry, o.outlines), reviews: () => reviewsHtml(r), custody: () => custodyHtml(r),
  };
  const sim = r.simulated;
  const mark = sim ? `<p class="simulated" role="note"><strong>${esc(SIMULATED_CASE)}</strong>: ${esc(`${sim.results} of the case's ${r.sources.length} results came from a geo sandbox`)}</p>` : '';
  const banner = sim ? `<div class="simulated-banner" role="alert"><strong>${esc(simulatedCount(sim.answers))}</strong><p>A geo sandbox answered, not the geolocation service: its answers are made up to test geo with. Nothing in this report may be published or filed as evidence.</p></div>` : '';
  const sections = REPORT_SECTIONS.map(([id, heading], i) => `<section class="part" id="${id}">
<h2><span class="no">${i + 1}.</span>${esc(heading)}</h2>
${mark}${body[id]()}
</section>`);
  const title = `Case report: ${r.case.name}`;
  const csp = ["default-src 'none'", "script-src 'none'", `style-src ${hash(CASE_REPORT_CSS)}`, 'img-src data:', "base-uri 'none'", "form-action 'none'", "object-src 'none'"].join('; ');
  return `${pageHead({ csp, title, cliVersion: r.report.geo_version, styles: [CASE_REPORT_CSS] })}
<header class="page" id="top"><h1>${esc(title)}</h1><p>Written ${esc(peopleTime(r.report.generated_at))} by geo ${esc(r.report.geo_version)} from case ${esc(r.case.id)}'s custody log (${r.custody.entries} entries, head ${esc(r.custody.head ?? 'none')}).</p></header>
<nav class="controls" aria-label="sections">${REPORT_SECTIONS.map(([id, heading]) => `<a href="#${id}">${esc(heading)}</a>`).join('')}</nav>
<main>
${banner}
${sections.join('\n')}
</main>
</body>
</html>
`;
}
