/**
 * The HTML map report: one self-contained file (image embedded, Leaflet inlined, data as JSON) that
 * opens from disk, mails as an attachment and prints. Plain data in, a string out: the caller
 * loads Leaflet (leaflet-assets.ts) and the image bytes (thumbnail.ts).
 *
 * Several results open with a summary table and an overview map (report-summary.ts); every map
 * offers OpenStreetMap and Esri satellite tiles (tiles.ts) over country outlines that draw offline
 * (outlines.ts), with a scale bar. Sandbox answers are never evidence: a banner above everything
 * (any map included) counts them, and each one's section and summary row say so (report-simulated.ts).
 *
 * Content-Security-Policy (meta): nothing may load but the inline code we wrote, pinned by sha256
 * hash (stricter than 'unsafe-inline': injected markup could not run even if escaping failed),
 * data: images (the thumbnail) and the two tile hosts. No connect, no frames, no forms, no base.
 */
import { createHash } from 'node:crypto';
import type { ProvenanceRecord } from '../../evidence/record-types.js';
import { isSimulated } from '../../evidence/simulated.js';
import { describeSun } from '../../evidence/sun-witness.js';
import { esc, inlineSafe, jsonForScript, pageHead } from './html.js';
import type { LeafletAssets } from './leaflet-assets.js';
import type { Capture } from './capture.js';
import { type ExportItem, exifPointOf, placeName, toItem } from './model.js';
import type { Outlines } from './outlines.js';
import { REPORT_SCRIPT } from './report-script.js';
import { resultSection, shadowOn } from './report-sections.js';
import { simulatedBanner } from './report-simulated.js';
import { summarySection } from './report-summary.js';
import { REPORT_CSS } from './report-template.js';
import { TILE_LAYERS, TILE_ORIGINS } from './tiles.js';
import { confidenceText } from '../confidence.js';
import { sanitize } from '../sanitize.js';

export interface ReportEntry {
  record: ProvenanceRecord;
  /** data: URL from thumbnailDataUrl(), when the image could be read. */
  thumbnail?: string;
  /** Shown instead of the image, e.g. "image not found at <path>". */
  missingImage?: string;
  /** EXIF capture time and camera (capture.ts). */
  capture?: Capture;
}

export interface ReportOptions {
  leaflet: LeafletAssets | undefined;
  title?: string;
  /** ISO time shown in the header (ctx.now()). */
  generatedAt: string;
  cliVersion?: string;
  /** Country outlines drawn under the tiles (outlines.ts); without them offline maps show only the points. */
  outlines?: Outlines;
}

const hash = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

/** What the browser script needs, strings sanitized (it writes them with textContent). */
export function mapData(item: ExportItem) {
  const ex = exifPointOf(item);
  return {
    estimate: { lat: item.lat, lng: item.lng, label: sanitize(`${isSimulated(item.record) ? 'simulated (sandbox) ' : ''}estimate: ${placeName(item.body) || item.input} (confidence ${confidenceText(item.body.confidence)})`) },
    candidates: item.candidates.map((c) => ({ rank: c.rank, lat: c.lat, lng: c.lng, label: sanitize(c.label), confidencePct: c.confidencePct })),
    exif: ex && item.exif ? { lat: ex.lat, lng: ex.lng, verdict: item.exif.verdict, distanceKm: item.exif.distanceKm ?? null } : null,
    scope: item.scope ? { ...item.scope, name: sanitize(item.scope.name) } : null,
    shadow: shadowData(item),
  };
}

/** The shadow the map draws from the estimate: direction, and a tooltip with the sun line. */
function shadowData(item: ExportItem) {
  const sh = shadowOn(item);
  return sh && item.exif?.sun ? { directionDeg: sh.directionDeg, label: sanitize(`shadow direction; sun ${describeSun(item.exif.sun)}`) } : null;
}

export function renderHtmlReport(entries: readonly ReportEntry[], opts: ReportOptions): string {
  const items = entries.map((e) => toItem(e.record));
  const hasMap = opts.leaflet !== undefined;
  const data = [
    `<script type="application/json" id="geo-data">${jsonForScript({ tiles: TILE_LAYERS, items: items.map(mapData) })}</script>`,
    ...(hasMap && opts.outlines ? [`<script type="application/json" id="geo-outlines">${jsonForScript(opts.outlines)}</script>`] : []),
  ].join('\n');
  const scripts = hasMap ? [inlineSafe(opts.leaflet!.js, 'script'), REPORT_SCRIPT] : [];
  const styles = [...(hasMap ? [inlineSafe(opts.leaflet!.css, 'style')] : []), REPORT_CSS];
  const csp = [
    "default-src 'none'",
    `script-src ${scripts.map(hash).join(' ') || "'none'"}`,
    `style-src ${styles.map(hash).join(' ')}`,
    `img-src data: ${TILE_ORIGINS.join(' ')}`,
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
  ].join('; ');
  const title = opts.title ?? (items.length === 1 ? `geo report: ${placeName(items[0]!.body) || items[0]!.input}` : `geo report: ${items.length} results`);
  const several = items.length > 1;
  const sections = items.map((item, i) => {
    const e = entries[i]!;
    const media = { ...(e.thumbnail ? { thumb: e.thumbnail } : {}), missing: e.missingImage ?? 'image not embedded', ...(e.capture ? { capture: e.capture } : {}) };
    return resultSection(item, i, media, { hasMap, numbered: several });
  });
  return `${pageHead({ csp, title, ...(opts.cliVersion !== undefined ? { cliVersion: opts.cliVersion } : {}), styles })}
<header class="page" id="top"><h1>${esc(title)}</h1><p>Generated ${esc(opts.generatedAt)} by geo${opts.cliVersion ? ` ${esc(opts.cliVersion)}` : ''}. Map tiles (OpenStreetMap, Esri satellite) load when online; markers, candidates, EXIF point, scope and country outlines (approximate at sea) draw offline.${hasMap && opts.leaflet!.version ? ` Leaflet ${esc(opts.leaflet!.version)}.` : ''}</p></header>
<main>
${simulatedBanner(items.filter((i) => isSimulated(i.record)).length, items.length)}
${several ? summarySection(items, hasMap) : ''}
${sections.join('\n')}
</main>
${data}
${scripts.map((s) => `<script>${s}</script>`).join('\n')}
</body>
</html>
`;
}
