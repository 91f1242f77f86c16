/** The HTML of one result in the report. Every server or file string goes through esc(). */
import { describeCorroboration } from '../../evidence/corroborate.js';
import { adviceOf } from '../../eval/advice.js';
import { confidenceText } from '../confidence.js';
import { flatten } from '../kv.js';
import { describeSun, isSunWitness } from '../../evidence/sun-witness.js';
import { mapLinks } from '../maps.js';
import type { Capture } from './capture.js';
import { isSimulated } from '../../evidence/simulated.js';
import { esc } from './html.js';
import { simulatedMark } from './report-simulated.js';
import { type ExportItem, placeName, reusedMark } from './model.js';

/** What the report has besides the record: the embedded image (or why not) and the capture EXIF. */
export interface SectionMedia {
  thumb?: string;
  missing: string;
  capture?: Capture;
}

export const fmt = (n: number, places = 6) => (Number.isFinite(n) ? n.toFixed(places) : '?');
const list = (xs: readonly unknown[]) => (xs.length ? `<ul>${xs.map((x) => `<li>${esc(x)}</li>`).join('')}</ul>` : '<p class="empty">none reported</p>');

export function facts(rows: Array<[string, unknown] | undefined>): string {
  const body = rows
    .filter((r): r is [string, unknown] => r !== undefined && r[1] !== undefined && r[1] !== null && r[1] !== '')
    .map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`)
    .join('');
  return `<dl class="facts">${body}</dl>`;
}

function imageBlock(thumb: string | undefined, missing: string): string {
  // The data URL is built locally from sniffed image bytes (base64 and a fixed mime): no server text.
  return thumb ? `<figure class="img"><img src="${esc(thumb)}" alt="analysed image"></figure>` : `<div class="noimg">${esc(missing)}</div>`;
}

function candidates(item: ExportItem): string {
  if (!item.candidates.length) return '<p class="empty">no alternative candidates in this result (depth 3 only, optional)</p>';
  const rows = item.candidates.map(
    (c) =>
      `<tr class="candidate"><td class="num">${c.rank}</td><td>${esc(c.label)}</td><td class="num">${fmt(c.lat)}, ${fmt(c.lng)}</td>` +
      `<td class="num">${c.confidencePct === null ? '?' : esc(c.confidencePct)}%</td><td>${list(c.supports)}</td><td>${list(c.contradictions)}</td></tr>`,
  );
  return `<table class="candidates"><thead><tr><th>#</th><th>label</th><th>lat, lng</th><th>confidence</th><th>supports</th><th>contradictions</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function corroboration(item: ExportItem): string {
  const c = item.exif;
  if (!c) return '<p class="verdict">not checked (no EXIF block in this record)</p>';
  const sun = c.sun ? `\n<p class="verdict sun">sun ${esc(describeSun(c.sun))}</p>` : '';
  return `<p class="verdict verdict-${esc(c.verdict)}">${esc(describeCorroboration(c))}</p>${sun}
<p class="note">A local check of the file's own metadata (and of the sun at the estimate at its capture time, drawn on the map as the shadow direction): never sent to the API, and it does not change the confidence shown.</p>`;
}

/** The sun witness, when it has a shadow to draw (the map script draws it from mapData's `shadow`). */
export function shadowOn(item: ExportItem): { directionDeg: number; lengthRatio: number } | undefined {
  const sun = item.exif?.sun;
  const sh = isSunWitness(sun) ? sun.shadow : undefined;
  return sh && Number.isFinite(sh.directionDeg) && Number.isFinite(sh.lengthRatio) ? sh : undefined;
}

function provenance(item: ExportItem): string {
  const r = item.record;
  const h = r.headers;
  return facts([
    ['recorded', r.stored_at],
    ['origin', r.origin],
    r.cli ? ['server', r.cli.base_url] : undefined,
    r.cli ? ['geo version', r.cli.version] : undefined,
    ['request id', h?.request_id],
    h ? ['replayed', h.idempotent_replayed ? 'yes (Idempotent-Replayed: no new analysis, no charge)' : 'no'] : undefined,
    ['idempotency key', r.idempotency_key],
    ['attempts', r.timing?.attempts],
    ['elapsed', r.timing?.elapsed_ms !== undefined ? `${r.timing.elapsed_ms} ms` : undefined],
    ['server timing', r.timing?.server_timing_ms !== undefined ? `${r.timing.server_timing_ms} ms` : undefined],
    ['rate limit', h && Object.keys(h.rate_limit).length ? Object.entries(h.rate_limit).map(([k, v]) => `${k}: ${v}`).join('; ') : undefined],
  ]) + (r.request ? `<h4>request parameters</h4><pre>${esc(JSON.stringify(r.request, null, 2))}</pre>` : '');
}

/** Google Maps, OpenStreetMap, Apple Maps, built from the coordinates (output/maps.ts), never from the response. */
export function mapLinksHtml(lat: number, lng: number): string {
  const links = mapLinks(lat, lng).map((l) => `<a class="maplink" href="${esc(l.url)}" rel="noopener noreferrer" target="_blank">${esc(l.name)}</a>`);
  return links.length ? `<p class="links">Open in ${links.join(' · ')}</p>` : '';
}

/** EXIF capture rows: from the record or the image; "not recorded" only when an image was read. */
function captureRows(media: SectionMedia): Array<[string, unknown]> {
  const c = media.capture;
  const absent = media.thumb ? 'not recorded in the image' : 'unknown (image not available)';
  const from = c?.from === 'record' ? ' (from the stored EXIF check)' : '';
  return [
    ['taken', c?.taken ? `${c.taken}${from}` : absent],
    ['camera', c?.camera ? `${c.camera}${from}` : absent],
  ];
}

/**
 * The service's own verdict on publishing (depth 3 `calibration`; its fields are "not shown" in
 * api-spec.md, so adviceOf reads abstain, publish or abstain_below): what an analyst must see
 * before the place, so it opens the section, above the image and the facts.
 */
export function verdictOf(item: ExportItem): 'publish' | 'abstain' | undefined {
  return adviceOf(item.body.calibration, item.body.confidence);
}

function verdictBlock(item: ExportItem): string {
  const cal = item.body.calibration;
  if (cal === undefined || cal === null) return '';
  const advice = verdictOf(item);
  const policy = typeof (cal as Record<string, unknown>).publish_policy === 'string' ? String((cal as Record<string, unknown>).publish_policy) : undefined;
  const head = advice ? `Service verdict: ${advice}` : 'Service calibration';
  const said = policy ?? (advice === 'abstain' ? 'do not publish this location' : advice === 'publish' ? 'it may be published with its confidence' : undefined);
  const rows = flatten(cal).map(([k, v]): [string, unknown] => [k, v]);
  return `<div class="calibration calibration-${advice ?? 'unknown'}" role="note" aria-label="the service's verdict">
<p class="calibration-head"><strong>${esc(head)}</strong>${said ? ` — ${esc(said)}` : ''}</p>
${facts(rows)}
</div>`;
}

/** `numbered`: the report has several results, and the summary and overview map call this one #index+1. */
export function resultSection(item: ExportItem, index: number, media: SectionMedia, opts: { hasMap: boolean; numbered: boolean }): string {
  const b = item.body;
  const f = b.forensic;
  const title = placeName(b) || b.location.address || item.input;
  const clues = Array.isArray(b.visual_clues) ? b.visual_clues.map((c) => (c.detail ? `${c.label}: ${c.detail}` : c.label)) : [];
  const map = opts.hasMap
    ? `<div class="map" id="map-${index}" role="img" aria-label="map of the estimate, candidates, EXIF point, scope and shadow direction"></div>
<div class="legend"><span class="l-est">estimate</span><span class="l-cand">candidates</span><span class="l-exif">EXIF GPS</span><span class="l-scope">scope</span>${shadowOn(item) ? '<span class="l-shadow">shadow direction (sun at capture time)</span>' : ''}<a href="#top">back to top</a></div>`
    : '<p class="map-missing">Map unavailable: the leaflet package is not installed with geo.</p>';
  return `<section class="result" id="result-${index}">
${isSimulated(item.record) ? simulatedMark() : ''}
${reusedMark(item.record) ? `<p class="simulated" role="note"><strong>${esc(reusedMark(item.record)!)}</strong></p>\n` : ''}<h2>${opts.numbered ? `<span class="no">${index + 1}</span>` : ''}${esc(title)}</h2>
${verdictBlock(item)}
<div class="top">${imageBlock(media.thumb, media.missing)}
<div>${facts([
  ['input', item.input],
  ['sha256', item.sha256],
  ['coordinates', `${fmt(item.lat)}, ${fmt(item.lng)}`],
  ['address', b.location.address],
  ['confidence', `${confidenceText(b.confidence)} (0-1, the leading candidate's, as reported by the API)`],
  ['depth', b.depth],
  ['model', b.model],
  ['precision', f?.precision_tier],
  ['verification', f?.verification_status],
  ['scope consistent', b.scope_consistent === undefined ? undefined : String(b.scope_consistent)],
  ['scope', item.scope ? `${item.scope.name} (${item.scope.radiusKm} km around ${item.scope.lat}, ${item.scope.lng})` : undefined],
  ['analysis id', b.analysis_id ?? 'not retained'],
  ...captureRows(media),
])}
${mapLinksHtml(item.lat, item.lng)}</div></div>
${map}
<h3>Corroboration (EXIF)</h3>
${corroboration(item)}
<h3>Reasoning</h3>
<p class="reasoning">${esc(b.reasoning)}</p>
${b.thinking ? `<details><summary>step-by-step cues</summary><p class="reasoning">${esc(b.thinking)}</p></details>` : ''}
${clues.length ? `<h3>Visual clues</h3>${list(clues)}` : ''}
<h3>Evidence</h3>
${f ? `<div class="evidence"><div class="supports"><h4>supports</h4>${list(f.supports ?? [])}</div><div class="contradictions"><h4>contradictions</h4>${list(f.contradictions ?? [])}</div></div>` : '<p class="empty">forensic evidence lists come with depth 3</p>'}
<h3>Candidates</h3>
${candidates(item)}
<h3>Provenance</h3>
${provenance(item)}
</section>`;
}
