/**
 * The HTML report of a video or a photo set: the consensus (where, k of n, spread, the
 * time ranges), a map with every cluster's spread circle and each frame's point, the frame strip
 * (each frame with its time and cluster), then the clusters and the per-frame answers as tables.
 * One self-contained file under the same Content-Security-Policy as every report (html-report.ts):
 * the same CSS and browser script, the same tiles and offline outlines.
 */
import { createHash } from 'node:crypto';
import type { ClusterJson, SceneJson } from '../../media/scene.js';
import { clockS } from '../views/scene.js';
import { esc, inlineSafe, jsonForScript, pageHead } from './html.js';
import { type LeafletAssets, loadLeafletAssets } from './leaflet-assets.js';
import { type Outlines, countryOutlines } from './outlines.js';
import { thumbnailDataUrl } from './thumbnail.js';
import { REPORT_SCRIPT } from './report-script.js';
import { mapLinksHtml } from './report-sections.js';
import { simulatedBanner } from './report-simulated.js';
import { REPORT_CSS } from './report-template.js';
import { framePoint } from './scene-geo.js';
import { TILE_LAYERS, TILE_ORIGINS } from './tiles.js';
import { sanitize } from '../sanitize.js';

export interface SceneReportOptions {
  leaflet: LeafletAssets | undefined;
  outlines?: Outlines;
  /** Frame index -> data: URL of its thumbnail. */
  thumbnails: ReadonlyMap<number, string>;
  generatedAt: string;
  cliVersion?: string;
  /** How many of its answers a geo sandbox gave: the page opens with the banner (report-simulated.ts). */
  simulated?: number;
}

/** The strip shows frames 176 px wide: twice that for a sharp screen. */
const STRIP_EDGE = 352;
const hash = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

function when(s: SceneJson, c: ClusterJson): string {
  return s.kind === 'video' ? c.time_ranges.map((r) => `${clockS(r.from_s)}-${clockS(r.to_s)}`).join(', ') : '';
}

function strip(s: SceneJson, thumbs: ReadonlyMap<number, string>): string {
  const figures = s.frames.map((f) => {
    const img = thumbs.get(f.index);
    const caption = [`#${f.index}`, ...(f.t_s !== undefined ? [clockS(f.t_s), f.why ?? ''] : []), f.cluster === null ? 'no answer' : `cluster #${f.cluster}`].join(' · ');
    return `<figure class="frame${f.cluster === 1 ? ' c1' : ''}" id="frame-${f.index}">${img ? `<img src="${esc(img)}" alt="${esc(`frame ${f.index}`)}">` : '<div class="noimg">no image</div>'}<figcaption>${esc(caption)}</figcaption></figure>`;
  });
  const dropped = s.dropped.map((d) => `<figure class="dropped"><div class="noimg">not sent</div><figcaption>${esc(`${clockS(d.t_s)} · ${d.why === 'duplicate' ? `near-duplicate of #${d.of ?? '?'}` : 'over --max-frames'}`)}</figcaption></figure>`);
  return `<div class="strip" id="strip">${[...figures, ...dropped].join('')}</div>`;
}

function clusterRows(s: SceneJson): string {
  return s.clusters.map((c) => `<tr class="cluster-row"><td class="num">#${c.rank}</td><td>${esc(c.place || 'no place name')}</td><td class="num">${c.lat.toFixed(6)}, ${c.lng.toFixed(6)}</td><td class="num">${c.agree} of ${c.of}</td><td class="num">${c.support.toFixed(2)}</td><td class="num">${c.spread_km.toFixed(2)} km</td><td>${esc(when(s, c))}</td></tr>`).join('\n');
}

function frameRows(s: SceneJson): string {
  return s.frames.map((f) => {
    const p = framePoint(f);
    const cells = p
      ? `<td>${esc(p.place)}</td><td class="num">${p.lat.toFixed(6)}, ${p.lng.toFixed(6)}</td><td class="num">${p.confidence.toFixed(2)}</td>`
      : `<td colspan="3" class="empty">${esc(`failed: ${f.error?.code ?? 'no answer'}`)}</td>`;
    return `<tr class="frame-row"><td class="num">#${f.index}</td><td>${esc(f.t_s !== undefined ? `${clockS(f.t_s)} ${f.why ?? ''}` : f.input)}</td>${cells}<td class="num">${f.cluster === null ? '' : `#${f.cluster}`}</td></tr>`;
  }).join('\n');
}

/** Loads Leaflet and the country outlines, makes the strip's thumbnails, renders the page. */
export async function buildSceneReport(s: SceneJson, images: ReadonlyMap<number, Uint8Array>, opts: { generatedAt: string; cliVersion?: string; simulated?: number }): Promise<{ html: string; hasMap: boolean }> {
  const leaflet = await loadLeafletAssets();
  const thumbnails = new Map<number, string>();
  for (const [i, bytes] of images) {
    const url = await thumbnailDataUrl(bytes, { maxEdge: STRIP_EDGE });
    if (url) thumbnails.set(i, url);
  }
  const points = [...s.clusters, ...s.frames.flatMap((f) => framePoint(f) ?? [])];
  const outlines = leaflet ? countryOutlines(points) : undefined;
  return { html: renderSceneReport(s, { leaflet, thumbnails, ...(outlines ? { outlines } : {}), ...opts }), hasMap: leaflet !== undefined };
}

/** The report's page, saying on `warn` when it has no map (the leaflet package is not installed). */
export async function sceneReportHtml(s: SceneJson, images: ReadonlyMap<number, Uint8Array>, opts: { generatedAt: string; cliVersion?: string; simulated?: number }, warn: (line: string) => void): Promise<string> {
  const r = await buildSceneReport(s, images, opts);
  if (!r.hasMap) warn('warning: the leaflet package is not installed, so the report has no map');
  return r.html;
}

/**
 * A longitude moved by whole turns to within 180° of `ref`: the map draws a cluster across the
 * antimeridian (179.9° and -179.9°) as one group, not as two points on opposite edges of the world.
 */
export function nearLng(lng: number, ref: number): number {
  return lng + 360 * Math.round((ref - lng) / 360);
}

export function renderSceneReport(s: SceneJson, opts: SceneReportOptions): string {
  const hasMap = opts.leaflet !== undefined;
  const unit = s.kind === 'video' ? 'frame' : 'photo';
  const ref = s.consensus?.lng ?? 0;
  const mapData = {
    tiles: TILE_LAYERS, items: [],
    scene: {
      clusters: s.clusters.map((c) => ({ rank: c.rank, lat: c.lat, lng: nearLng(c.lng, ref), spreadKm: c.spread_km, label: sanitize(`${c.rank === 1 ? 'consensus' : `#${c.rank}`}: ${c.place || 'no place name'} (${c.agree} of ${c.of})`) })),
      frames: s.frames.flatMap((f) => {
        const p = framePoint(f);
        return p ? [{ index: f.index, lat: p.lat, lng: nearLng(p.lng, ref), label: sanitize(`${f.t_s !== undefined ? clockS(f.t_s) : f.input}: ${p.place}`) }] : [];
      }),
    },
  };
  const scripts = hasMap ? [inlineSafe(opts.leaflet!.js, 'script'), REPORT_SCRIPT] : [];
  const styles = [...(hasMap ? [inlineSafe(opts.leaflet!.css, 'style')] : []), REPORT_CSS];
  const csp = [
    "default-src 'none'", `script-src ${scripts.map(hash).join(' ') || "'none'"}`, `style-src ${styles.map(hash).join(' ')}`,
    `img-src data: ${TILE_ORIGINS.join(' ')}`, "base-uri 'none'", "form-action 'none'", "object-src 'none'",
  ].join('; ');
  const what = s.kind === 'video' ? `${s.input} (video${s.duration_s !== undefined ? `, ${clockS(s.duration_s)}` : ''})` : `${s.frames.length} photos located together (${s.input})`;
  const title = `geo report: ${what}`;
  const c = s.consensus;
  const facts: Array<[string, string]> = c
    ? [
      ['consensus', `${c.lat.toFixed(6)}, ${c.lng.toFixed(6)}`], ['agree', `${c.agree} of ${c.of} ${unit}s`], ['spread', `${c.spread_km.toFixed(2)} km (the circle holding the ${unit}s that agree)`],
      ['support', `${c.support.toFixed(2)} of ${c.of}`], ...(s.kind === 'video' ? [['time ranges', when(s, c)] as [string, string]] : []),
    ]
    : [['consensus', `none: no ${unit} was answered with a location`]];
  facts.push(['depth', String(s.depth)], ['agree within', `${s.agree_km} km`]);
  if (s.sha256) facts.push(['video sha256', s.sha256]);
  if (s.frame_choice) facts.push(['frames', `${s.frame_choice.sent} sent of ${s.frame_choice.candidates} candidates (every ${s.frame_choice.every_s} s, scene ${s.frame_choice.scene}, at most ${s.frame_choice.max_frames})`]);
  const data = [
    `<script type="application/json" id="geo-data">${jsonForScript(mapData)}</script>`,
    ...(hasMap && opts.outlines ? [`<script type="application/json" id="geo-outlines">${jsonForScript(opts.outlines)}</script>`] : []),
  ].join('\n');
  return `${pageHead({ csp, title, ...(opts.cliVersion !== undefined ? { cliVersion: opts.cliVersion } : {}), styles })}
<header class="page" id="top"><h1>${esc(title)}</h1><p>Generated ${esc(opts.generatedAt)} by geo${opts.cliVersion ? ` ${esc(opts.cliVersion)}` : ''}. One consensus from ${s.answered} ${unit}s: answers within ${s.agree_km} km are one place, its point the geometric median of their votes; every other place is kept apart below. Map tiles load when online; points, circles and country outlines draw offline.</p></header>
<main>
${simulatedBanner(opts.simulated ?? 0, s.answered)}
<section class="result scene" id="scene">
<h2>${esc(c ? `consensus: ${c.place || 'no place name'}` : 'no consensus')}</h2>
<dl class="facts">${facts.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('')}</dl>
${c ? mapLinksHtml(c.lat, c.lng) : ''}
${hasMap && c ? `<div class="map" id="map-scene"></div>\n<div class="legend"><span class="l-est">consensus</span><span class="l-clu">other places</span><span class="l-frame">${unit}s</span><span>circles: spread</span></div>` : '<p class="map-missing">no map (the leaflet package is not installed, or no answer)</p>'}
<h3>${unit}s</h3>
${strip(s, opts.thumbnails)}
<h3>places the ${unit}s point to</h3>
<table class="clusters"><thead><tr><th>#</th><th>place</th><th>coordinates</th><th>agree</th><th>support</th><th>spread</th><th>${s.kind === 'video' ? 'when' : ''}</th></tr></thead><tbody>
${clusterRows(s)}
</tbody></table>
<h3>answers</h3>
<table class="frames"><thead><tr><th>#</th><th>${s.kind === 'video' ? 'time' : 'photo'}</th><th>place</th><th>coordinates</th><th>confidence</th><th>cluster</th></tr></thead><tbody>
${frameRows(s)}
</tbody></table>
</section>
</main>
${data}
${scripts.map((x) => `<script>${x}</script>`).join('\n')}
</body>
</html>
`;
}

