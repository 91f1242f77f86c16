/**
 * The map of a case's report as inline SVG: nothing loads and no script runs, so it draws the same
 * offline, in a mail client and on paper. An equirectangular projection (longitude scaled by the
 * cosine of the middle latitude, so a circle stays round) fitted to the investigation: the
 * conclusion's uncertainty circle (a polygon, case-geometry.ts), the places ruled out (hatched), the
 * points the notes name, and the results' estimates; the results far outside that frame are named
 * under the map instead. Country outlines (outlines.ts, drawn offline) give the land; a scale bar
 * gives the distance. Only presentation attributes: the page's CSP allows no style attribute.
 */
import type { CaseGeometry } from './case-geometry.js';
import type { LngLat } from './geometry.js';
import { esc } from './html.js';
import { type Outlines, decodeRing } from './outlines.js';

const W = 960;
const MIN_H = 320;
const MAX_H = 620;
/** The smallest frame (degrees of latitude, about 550 m): a point alone still shows its street. */
const MIN_SPAN_DEG = 0.005;
const KM_PER_DEG = 111.32;

export interface MapFrame {
  svg: string;
  /** Results and notes' points that fall outside the frame (named under the map). */
  off: string[];
}

interface Box {
  minLng: number;
  maxLng: number;
  minLat: number;
  maxLat: number;
}

function boxOf(points: readonly LngLat[]): Box | undefined {
  if (points.length === 0) return undefined;
  const lngs = points.map((p) => p[0]);
  const lats = points.map((p) => p[1]);
  return { minLng: Math.min(...lngs), maxLng: Math.max(...lngs), minLat: Math.min(...lats), maxLat: Math.max(...lats) };
}

/**
 * What the frame is fitted to: the conclusion and the places ruled out (the investigation's own
 * shapes, near each other as a rule), else the points the notes name, else the results.
 */
function framePoints(g: CaseGeometry): LngLat[] {
  const shapes: LngLat[] = [...(g.conclusion ? g.conclusion.ring : []), ...g.ruled_out.flatMap((r) => [...r.polygons.flatMap((p) => p[0] ?? []), ...(r.point ? [r.point] : [])])];
  if (shapes.length) return shapes;
  const notes = g.notes.map((n): LngLat => [n.lng, n.lat]);
  return notes.length ? notes : g.results.map((r): LngLat => [r.lng, r.lat]);
}

const f = (n: number) => (Math.round(n * 10) / 10).toString();

/** 1, 2 or 5 times a power of ten: the longest that fits in `maxKm`. */
function niceKm(maxKm: number): number {
  const p = 10 ** Math.floor(Math.log10(maxKm));
  return [5, 2, 1].map((m) => m * p).find((v) => v <= maxKm) ?? p;
}

export function caseMapSvg(g: CaseGeometry, outlines?: Outlines): MapFrame | undefined {
  const b = boxOf(framePoints(g));
  if (!b) return undefined;
  const midLat = (b.minLat + b.maxLat) / 2;
  const kx = Math.max(Math.cos((midLat * Math.PI) / 180), 0.05);
  // 15% around the shapes, and never narrower than MIN_SPAN_DEG.
  const spanLat = Math.max((b.maxLat - b.minLat) * 1.3, MIN_SPAN_DEG);
  const spanX = Math.max((b.maxLng - b.minLng) * kx * 1.3, MIN_SPAN_DEG);
  const h = Math.round(Math.min(MAX_H, Math.max(MIN_H, (W * spanLat) / spanX)));
  const scale = Math.min(W / spanX, h / spanLat);
  const cx = ((b.minLng + b.maxLng) / 2) * kx;
  const cy = midLat;
  const px = ([lng, lat]: LngLat): [number, number] => [W / 2 + (lng * kx - cx) * scale, h / 2 - (lat - cy) * scale];
  const inside = (p: LngLat) => {
    const [x, y] = px(p);
    return x >= 0 && x <= W && y >= 0 && y <= h;
  };
  const ring = (r: readonly LngLat[]) => `M${r.map((p) => px(p).map(f).join(',')).join('L')}Z`;
  const view: Box = { minLng: cx / kx - W / 2 / scale / kx, maxLng: cx / kx + W / 2 / scale / kx, minLat: cy - h / 2 / scale, maxLat: cy + h / 2 / scale };
  const land = (outlines?.rings ?? [])
    .map((d) => decodeRing(d, outlines!.scale))
    .filter((r) => {
      const rb = boxOf(r)!;
      return rb.maxLng >= view.minLng && rb.minLng <= view.maxLng && rb.maxLat >= view.minLat && rb.minLat <= view.maxLat;
    })
    .map(ring).join('');
  const title = (s: string) => `<title>${esc(s)}</title>`;
  const areas = g.ruled_out.map((r) => {
    const why = title(`ruled out (entry ${r.entry}): ${r.because}`);
    if (r.polygons.length) {
      // Labelled by its entry above its top edge, so the table of section 6 and the map meet.
      const outer = r.polygons.flatMap((p) => p[0] ?? []).map(px);
      const x = (Math.min(...outer.map((p) => p[0])) + Math.max(...outer.map((p) => p[0]))) / 2;
      const y = Math.max(12, Math.min(...outer.map((p) => p[1])) - 4);
      return `<path d="${r.polygons.flatMap((p) => p.map(ring)).join('')}" fill="url(#ruled-out-hatch)" fill-rule="evenodd" stroke="#444" stroke-width="1.5">${why}</path><text x="${f(x)}" y="${f(y)}" text-anchor="middle" class="map-label">ruled out, entry ${r.entry}</text>`;
    }
    if (!r.point) return '';
    const [x, y] = px(r.point);
    return `<path d="M${f(x - 7)},${f(y - 7)}L${f(x + 7)},${f(y + 7)}M${f(x - 7)},${f(y + 7)}L${f(x + 7)},${f(y - 7)}" stroke="#444" stroke-width="3">${why}</path>`;
  }).join('');
  const c = g.conclusion;
  const conclusion = c
    ? `<path d="${ring(c.ring)}" fill="#d62424" fill-opacity="0.15" stroke="#d62424" stroke-width="2.5">${title(`conclusion (entry ${c.entry}): within ${c.within_m} m, ${c.confidence}`)}</path>` +
      `<circle cx="${f(px([c.lng, c.lat])[0])}" cy="${f(px([c.lng, c.lat])[1])}" r="4" fill="#d62424"/>`
    : '';
  const results = g.results.filter((r) => inside([r.lng, r.lat])).map((r) => {
    const [x, y] = px([r.lng, r.lat]);
    return `<g>${title(`${r.ref}: ${r.place || r.input}`)}<circle cx="${f(x)}" cy="${f(y)}" r="6" fill="#247ad6" stroke="#fff" stroke-width="1.5"/><text x="${f(x + 9)}" y="${f(y + 4)}" class="map-label">${esc(r.ref)}</text></g>`;
  }).join('');
  const notes = g.notes.filter((n) => inside([n.lng, n.lat])).map((n) => {
    const [x, y] = px([n.lng, n.lat]);
    return `<path d="M${f(x)},${f(y - 7)}L${f(x + 6)},${f(y)}L${f(x)},${f(y + 7)}L${f(x - 6)},${f(y)}Z" fill="#8a4fd6" stroke="#fff" stroke-width="1">${title(`${n.kind} (entry ${n.entry}) at ${n.target}: ${n.text}`)}</path>`;
  }).join('');
  const kmPerPx = KM_PER_DEG / scale;
  const barKm = niceKm((W / 4) * kmPerPx);
  const barPx = barKm / kmPerPx;
  const label = barKm < 1 ? `${Math.round(barKm * 1000)} m` : `${barKm} km`;
  const bar = `<g transform="translate(${f(W - barPx - 20)},${h - 18})"><rect x="-6" y="-16" width="${f(barPx + 12)}" height="26" fill="#fff" fill-opacity="0.8"/><path d="M0,-4V4H${f(barPx)}V-4" fill="none" stroke="#1d232a" stroke-width="2"/><text x="${f(barPx / 2)}" y="-6" text-anchor="middle" class="map-label">${label}</text></g>`;
  const off = [
    ...g.results.filter((r) => !inside([r.lng, r.lat])).map((r) => `${r.ref} (${r.place || r.input}: ${r.lat}, ${r.lng})`),
    ...g.notes.filter((n) => !inside([n.lng, n.lat])).map((n) => `the ${n.kind} of entry ${n.entry} at ${n.target} (${n.lat}, ${n.lng})`),
  ];
  const svg = `<svg class="case-map" viewBox="0 0 ${W} ${h}" width="${W}" height="${h}" role="img" aria-label="map of the conclusion, the places ruled out and the results">
<defs><pattern id="ruled-out-hatch" patternUnits="userSpaceOnUse" width="9" height="9" patternTransform="rotate(45)"><rect width="9" height="9" fill="#555" fill-opacity="0.08"/><line x1="0" y1="0" x2="0" y2="9" stroke="#444" stroke-width="2.5"/></pattern></defs>
<rect width="${W}" height="${h}" fill="#d7e3ee"/>
<path d="${land}" fill="#f4f1ea" stroke="#b9b3a6" stroke-width="1"/>
${areas}${conclusion}${notes}${results}${bar}
</svg>`;
  return { svg, off };
}
