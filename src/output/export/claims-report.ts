/**
 * The HTML report of a claim check: one self-contained page under the same
 * Content-Security-Policy, CSS, tiles, offline outlines and browser script as every report
 * (html-report.ts). The verdict comes first: a summary table of every claim, then per claim its
 * verdict, rule and reason, the evidence laid out, and the answer it was judged on as the locate
 * report shows it (report-sections.ts: the service's own calibration verdict first, the image, the
 * map, now with the claim's tolerance circle and a line to the estimate, the reasoning, the
 * candidates, the provenance). Every server or file string goes through esc().
 */
import { createHash } from 'node:crypto';
import type { ClaimRecord } from '../../batch/claim-record.js';
import { kmText } from '../../claims/rules.js';
import { captureOf } from './capture.js';
import { esc, inlineSafe, jsonForScript, pageHead } from './html.js';
import { mapData } from './html-report.js';
import { type LeafletAssets, loadLeafletAssets } from './leaflet-assets.js';
import { type ReportSource, exifPointOf, toItem } from './model.js';
import { type Outlines, countryOutlines } from './outlines.js';
import { REPORT_SCRIPT } from './report-script.js';
import { type SectionMedia, resultSection } from './report-sections.js';
import { REPORT_CSS } from './report-template.js';
import { thumbnailDataUrl } from './thumbnail.js';
import { TILE_LAYERS, TILE_ORIGINS } from './tiles.js';
import { sanitize } from '../sanitize.js';

export interface ClaimReportEntry {
  record: ClaimRecord;
  /** The answer it was judged on, with its image; absent when the image was not located or not checked. */
  source?: ReportSource;
}

const CLAIM_CSS = `
section.claim { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 16px 20px; margin: 16px 0; }
.claim-verdict { padding: 12px 16px; border-radius: 4px; border-left: 8px solid var(--scope); background: #f1f3f5; margin: 0 0 12px; }
.claim-verdict h2 { margin: 0 0 6px; font-size: 18px; }
.claim-verdict.v-agrees { border-color: var(--exif); background: #eef8ee; }
.claim-verdict.v-contradicts { border-color: var(--est); background: #fdecec; }
.claim-verdict.v-unverifiable { border-color: #d6a024; background: #fdf6e8; }
td.v-unverifiable { color: #9a6b00; font-weight: 600; }
header.page p.sandbox-note { margin: 8px 0 0; padding: 6px 10px; background: #fff4cc; color: #5c4500; border-radius: 4px; font-size: 13px; }
`;

const cspHash = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

function facts(rows: Array<[string, string | null | undefined]>): string {
  return `<dl class="facts">${rows.filter(([, v]) => v !== null && v !== undefined && v !== '').map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('')}</dl>`;
}

const claimed = (r: ClaimRecord) => (r.claim ? `${r.at ?? ''}${r.claim.place && r.claim.place !== r.at ? ` (${r.claim.place})` : ''}` : '');

function summary(records: readonly ClaimRecord[]): string {
  const rows = records.map((r, i) => `<tr class="summary-row"><td class="num"><a href="#claim-${i}">${i + 1}</a></td>` +
    `<td class="input" data-label="input"><a href="#claim-${i}">${esc(r.input)}</a></td><td data-label="claim">${esc(claimed(r))}</td>` +
    `<td class="v v-${esc(r.verdict ?? 'none')}" data-label="verdict">${esc(r.verdict ?? 'not checked')}</td><td data-label="rule">${esc(r.rule ?? r.error?.code ?? '')}</td>` +
    `<td class="num" data-label="distance">${r.distance_km === null ? '' : esc(kmText(r.distance_km))}</td><td class="num" data-label="confidence">${r.estimate ? esc(r.estimate.confidence.toFixed(2)) : ''}</td>` +
    `<td data-label="service verdict">${esc(r.service_verdict ?? (r.depth === 3 ? '' : 'none'))}</td></tr>`);
  return `<section class="summary" id="summary"><h2>${records.length} claim${records.length === 1 ? '' : 's'}</h2>
<table class="summary"><thead><tr><th>#</th><th>input</th><th>claimed at</th><th>verdict</th><th>rule</th><th>distance</th><th>confidence</th><th>service verdict</th></tr></thead>
<tbody>${rows.join('')}</tbody></table></section>`;
}

function evidenceFacts(r: ClaimRecord): string {
  const c = r.nearest_candidate;
  return facts([
    ['claimed at', r.claim ? `${claimed(r)}: ${r.claim.lat}, ${r.claim.lng}` : undefined],
    ['tolerance', r.tolerance_km === null ? undefined : `${kmText(r.tolerance_km)} (${r.tolerance_basis ?? ''})`],
    ['captured at (claimed)', r.captured_at],
    ['estimate', r.estimate ? `${r.estimate.place || 'a place'}: ${r.estimate.lat}, ${r.estimate.lng}, confidence ${r.estimate.confidence.toFixed(2)}, depth ${r.depth ?? '?'}${r.estimate.precision_tier ? `, ${r.estimate.precision_tier}` : ''}` : `none: ${r.error?.message ?? 'not located'}`],
    ['distance to the estimate', r.distance_km === null ? undefined : kmText(r.distance_km)],
    ['nearest candidate', c ? `"${c.label}"${c.confidence_pct === null ? '' : ` (${c.confidence_pct}%)`}, ${kmText(c.distance_km)} from the claim` : r.depth === 3 ? 'none listed' : 'none (depth 3 lists candidates)'],
    ['EXIF GPS of the file', r.exif.status === 'gps' ? `${r.exif.lat}, ${r.exif.lng}: ${kmText(r.exif.distance_km ?? 0)} from the claim. ${r.exif.note}` : r.exif.note],
    ['with the claim as scope', r.scoped === null ? 'not asked (--scoped)' : r.scoped.error ? `no answer: ${r.scoped.error}` : `scope_consistent ${String(r.scoped.scope_consistent)}${r.scoped.hard_evidence ? `: "${r.scoped.hard_evidence}"` : ''}`],
    ['service verdict', r.service_verdict ?? (r.depth === 3 ? 'no advice geo can read' : 'none (depth 3 carries the calibration)')],
  ]);
}

interface Loaded {
  record: ClaimRecord;
  source?: ReportSource;
  media?: SectionMedia;
}

function claimSection(e: Loaded, i: number, hasMap: boolean): string {
  const r = e.record;
  const head = r.verdict === null ? `not checked: ${r.input}` : `${r.verdict.toUpperCase()}: ${r.input} said to be at ${claimed(r)}`;
  const why = r.verdict === null ? (r.error?.message ?? '') : `rule ${r.rule ?? ''}: ${r.reason ?? ''}`;
  const onMap = hasMap && e.source ? '<p class="note">On the map below: the claim\'s tolerance circle, coloured by verdict, and a dotted line from it to the estimate.</p>' : '';
  const answer = e.source && e.media ? `<h3>The answer it was judged on</h3>\n${onMap}${resultSection(toItem(e.source.record), i, e.media, { hasMap, numbered: false }).replace('<section class="result"', '<div class="result"').replace(/<\/section>$/, '</div>')}` : '';
  return `<section class="claim" id="claim-${i}">
<div class="claim-verdict v-${esc(r.verdict ?? 'none')}" role="note" aria-label="the verdict"><h2>${esc(head)}</h2><p>${esc(why)}</p></div>
<h3>Evidence</h3>
${evidenceFacts(r)}
${answer}
</section>`;
}

export interface ClaimsReportOptions {
  leaflet: LeafletAssets | undefined;
  outlines?: Outlines;
  generatedAt: string;
  cliVersion?: string;
}

export function renderClaimsReport(entries: readonly Loaded[], opts: ClaimsReportOptions): string {
  const hasMap = opts.leaflet !== undefined;
  // One item per claim, so map-i and items[i] line up; claims without an answer draw no map.
  const items = entries.map((e) => {
    if (!e.source || !e.record.claim || e.record.verdict === null) return null;
    const r = e.record;
    const label = sanitize(`claim: ${claimed(r)}, within ${kmText(r.tolerance_km ?? 0)}: ${r.verdict}`);
    return { ...mapData(toItem(e.source.record)), claim: { lat: r.claim!.lat, lng: r.claim!.lng, radiusKm: r.tolerance_km ?? 1, verdict: r.verdict, label } };
  });
  const scripts = hasMap ? [inlineSafe(opts.leaflet!.js, 'script'), REPORT_SCRIPT] : [];
  const styles = [...(hasMap ? [inlineSafe(opts.leaflet!.css, 'style')] : []), REPORT_CSS, CLAIM_CSS];
  const csp = [
    "default-src 'none'", `script-src ${scripts.map(cspHash).join(' ') || "'none'"}`, `style-src ${styles.map(cspHash).join(' ')}`,
    `img-src data: ${TILE_ORIGINS.join(' ')}`, "base-uri 'none'", "form-action 'none'", "object-src 'none'",
  ].join('; ');
  const records = entries.map((e) => e.record);
  const title = records.length === 1 ? `geo claim check: ${records[0]!.input}` : `geo claim checks: ${records.length} claims`;
  const sandbox = records.some((r) => r.sandbox) ? '<p class="sandbox-note">Answers from a geo sandbox: simulated, never evidence.</p>' : '';
  // The script skips items whose map is absent; a null item would still be read by it, so unlocated claims get an empty stand-in.
  const data = `<script type="application/json" id="geo-data">${jsonForScript({ tiles: TILE_LAYERS, items: items.map((it) => it ?? { estimate: { lat: 0, lng: 0, label: '' }, candidates: [], exif: null, scope: null, shadow: null }) })}</script>`;
  const outlines = hasMap && opts.outlines ? `\n<script type="application/json" id="geo-outlines">${jsonForScript(opts.outlines)}</script>` : '';
  return `${pageHead({ csp, title, ...(opts.cliVersion !== undefined ? { cliVersion: opts.cliVersion } : {}), styles })}
<header class="page" id="top"><h1>${esc(title)}</h1><p>Generated ${esc(opts.generatedAt)} by geo${opts.cliVersion ? ` ${esc(opts.cliVersion)}` : ''}. Each image was located without the claim (the claim never steers the model); the verdict follows the rules in geo claims check --help. Map tiles load when online; circles, points and country outlines draw offline.</p>${sandbox}</header>
<main>
${summary(records)}
${entries.map((e, i) => claimSection(e, i, hasMap && items[i] !== null)).join('\n')}
</main>
${data}${outlines}
${scripts.map((s) => `<script>${s}</script>`).join('\n')}
</body>
</html>
`;
}

/** Loads Leaflet, the thumbnails, capture times and outlines, then renders the page. */
export async function buildClaimsReport(entries: readonly ClaimReportEntry[], opts: { generatedAt: string; cliVersion?: string }): Promise<{ html: string; hasMap: boolean }> {
  const leaflet = await loadLeafletAssets();
  const loaded: Loaded[] = [];
  for (const e of entries) {
    if (!e.source) {
      loaded.push({ record: e.record });
      continue;
    }
    const s = e.source;
    const thumb = s.imageBytes ? await thumbnailDataUrl(s.imageBytes) : undefined;
    const capture = await captureOf(s.record, s.imageBytes);
    loaded.push({ record: e.record, source: s, media: { ...(thumb ? { thumb } : {}), missing: s.missingImage ?? 'image not available', ...(capture ? { capture } : {}) } });
  }
  const points = loaded.flatMap((l) => {
    if (!l.source) return [];
    const item = toItem(l.source.record);
    const exif = exifPointOf(item);
    return [{ lat: item.lat, lng: item.lng }, ...(exif ? [exif] : []), ...(l.record.claim ? [{ lat: l.record.claim.lat, lng: l.record.claim.lng }] : [])];
  });
  const outlines = leaflet ? countryOutlines(points) : undefined;
  return { html: renderClaimsReport(loaded, { leaflet, ...(outlines ? { outlines } : {}), ...opts }), hasMap: leaflet !== undefined };
}
