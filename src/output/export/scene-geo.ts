/**
 * A video's (or a photo set's) consensus as map files: GeoJSON for QGIS, KML and KMZ for
 * Google Earth. What each holds: the consensus point and every other cluster's point, each with its
 * spread circle (the radius holding its agreeing frames), and one point per answered frame with its
 * time and cluster. In KML the clusters are folders, each holding its point, its circle and its
 * frames; in a KMZ each frame's balloon shows the frame. Plain data in (media/scene.ts's object).
 * `sandbox`: a geo sandbox answered (evidence/simulated.ts): every feature says `sandbox: true`,
 * and every balloon opens with the mark, as a lone result's do (kml.ts).
 */
import type { ClusterJson, FrameJson, SceneJson } from '../../media/scene.js';
import { asResultBody } from '../../evidence/record-types.js';
import { SIMULATED } from '../../evidence/simulated.js';
import { sanitizeJsonText } from '../sanitize.js';
import { circleRing } from './geometry.js';
import { esc } from './html.js';
import { xmlText as x } from './xml.js';

type Props = Record<string, string | number | boolean | null>;
type Geometry = { type: 'Point'; coordinates: [number, number] } | { type: 'Polygon'; coordinates: Array<Array<[number, number]>> };
interface Feature {
  type: 'Feature';
  geometry: Geometry;
  properties: Props;
}

/** A spread of 0 (every frame at one point) still draws: a 50 m circle. */
const MIN_CIRCLE_KM = 0.05;

export function rangesOf(c: ClusterJson): string {
  return c.time_ranges.map((r) => `${r.from_s}-${r.to_s} s`).join(', ');
}

/** A frame's answer as a point, or undefined when it has none. */
export function framePoint(f: FrameJson): { lat: number; lng: number; confidence: number; place: string } | undefined {
  const b = f.ok ? asResultBody(f.result) : undefined;
  if (!b) return undefined;
  const place = [...new Set([b.location.neighborhood, b.location.city, b.location.country].filter((p) => typeof p === 'string' && p.trim() !== ''))].join(', ');
  return { lat: b.location.latitude, lng: b.location.longitude, confidence: b.confidence, place };
}

function clusterProps(s: SceneJson, c: ClusterJson): Props {
  return {
    input: s.input, kind: s.kind, cluster: c.rank, name: c.place || `cluster ${c.rank}`, agree: c.agree, of: c.of, support: c.support,
    spread_km: c.spread_km, time_ranges: rangesOf(c) || null, frames: c.frames.join(','),
  };
}

export function sceneGeoJSON(s: SceneJson, sandbox = false): { type: 'FeatureCollection'; features: Feature[] } {
  const features: Feature[] = [];
  for (const c of s.clusters) {
    const props = clusterProps(s, c);
    features.push({ type: 'Feature', geometry: { type: 'Point', coordinates: [c.lng, c.lat] }, properties: { role: c.rank === 1 ? 'consensus' : 'cluster', ...props } });
    features.push({ type: 'Feature', geometry: { type: 'Polygon', coordinates: [circleRing(c.lat, c.lng, Math.max(c.spread_km, MIN_CIRCLE_KM))] }, properties: { role: 'spread', ...props } });
  }
  for (const f of s.frames) {
    const p = framePoint(f);
    if (!p) continue;
    features.push({
      type: 'Feature', geometry: { type: 'Point', coordinates: [p.lng, p.lat] },
      properties: { role: 'frame', input: f.input, index: f.index, t_s: f.t_s ?? null, why: f.why ?? null, sha256: f.sha256, cluster: f.cluster, name: p.place || f.input, confidence: p.confidence },
    });
  }
  return { type: 'FeatureCollection', features: sandbox ? features.map((f) => ({ ...f, properties: { ...f.properties, sandbox: true } })) : features };
}

export function renderSceneGeoJSON(s: SceneJson, sandbox = false): string {
  return sanitizeJsonText(JSON.stringify(sceneGeoJSON(s, sandbox), null, 2)) + '\n';
}

// KML colours are aabbggrr.
const STYLES: Record<string, string> = {
  consensus: '<IconStyle><color>ff2424d6</color><scale>1.4</scale><Icon><href>https://maps.google.com/mapfiles/kml/shapes/placemark_circle.png</href></Icon></IconStyle>',
  cluster: '<IconStyle><color>ff24a0d6</color><scale>1.1</scale><Icon><href>https://maps.google.com/mapfiles/kml/shapes/placemark_circle.png</href></Icon></IconStyle>',
  frame: '<IconStyle><color>ffd67a24</color><scale>0.7</scale><Icon><href>https://maps.google.com/mapfiles/kml/shapes/placemark_circle.png</href></Icon></IconStyle>',
  spread: '<LineStyle><color>ff2424d6</color><width>2</width></LineStyle><PolyStyle><color>332424d6</color></PolyStyle>',
};

function data(fields: Props): string {
  return `<ExtendedData>${Object.entries(fields).filter(([, v]) => v !== null && v !== '').map(([k, v]) => `<Data name="${x(k)}"><value>${x(v)}</value></Data>`).join('')}</ExtendedData>`;
}

/** `html` is a balloon's HTML (Google Earth renders a description as HTML): every string in it escaped. */
function placemark(style: string, name: string, html: string, geometry: string, fields: Props): string {
  return `        <Placemark><name>${x(name)}</name><description>${x(html)}</description><styleUrl>#${style}</styleUrl>${data(fields)}${geometry}</Placemark>`;
}

const at = (lat: number, lng: number) => `<Point><coordinates>${lng},${lat},0</coordinates></Point>`;

/**
 * The scene's shared styles, then one folder per cluster. `images`: frame index -> its file inside
 * a KMZ (files/…), shown in the frame's balloon; `prefix` keeps the style ids of several scenes in
 * one file apart (geo export).
 */
function sceneKmlBody(s: SceneJson, images?: ReadonlyMap<number, string>, prefix = '', sandbox = false): string {
  const unit = s.kind === 'video' ? 'frame' : 'photo';
  const mark = sandbox ? `<p><b>${esc(SIMULATED)}</b></p>` : '';
  const folders = s.clusters.map((c) => {
    const facts = `${c.agree} of ${c.of} ${unit}s agree, spread ${c.spread_km} km, support ${c.support}${c.time_ranges.length ? `, at ${rangesOf(c)}` : ''}`;
    const ring = circleRing(c.lat, c.lng, Math.max(c.spread_km, MIN_CIRCLE_KM)).map(([lng, lat]) => `${lng},${lat},0`).join(' ');
    const marks = [
      placemark(prefix + (c.rank === 1 ? 'consensus' : 'cluster'), `${c.rank === 1 ? 'consensus' : `#${c.rank}`}: ${c.place || 'no place name'}`, mark + esc(facts), at(c.lat, c.lng), { role: c.rank === 1 ? 'consensus' : 'cluster', ...clusterProps(s, c) }),
      placemark(`${prefix}spread`, `spread ${c.spread_km} km`, mark + esc(`the circle holding the ${unit}s that agree`), `<Polygon><tessellate>1</tessellate><outerBoundaryIs><LinearRing><coordinates>${ring}</coordinates></LinearRing></outerBoundaryIs></Polygon>`, { role: 'spread', cluster: c.rank, spread_km: c.spread_km }),
    ];
    for (const f of s.frames.filter((fr) => fr.cluster === c.rank)) {
      const p = framePoint(f)!;
      const text = `${unit} #${f.index}${f.t_s !== undefined ? ` at ${f.t_s} s${f.why ? ` (${f.why})` : ''}` : ''}: ${p.place}, confidence ${p.confidence}`;
      const img = images?.get(f.index);
      marks.push(placemark(`${prefix}frame`, `#${f.index}${f.t_s !== undefined ? ` ${f.t_s} s` : ''}`, `${mark}${img ? `<img src="${esc(img)}" width="400" alt="${unit} ${f.index}"><br>` : ''}${esc(text)}`, at(p.lat, p.lng), { role: 'frame', index: f.index, t_s: f.t_s ?? null, cluster: c.rank, input: f.input, confidence: p.confidence }));
    }
    return `    <Folder><name>${x(`${c.rank === 1 ? 'consensus' : `cluster #${c.rank}`}: ${c.place || 'no place name'}`)}</name>\n${marks.join('\n')}\n    </Folder>`;
  });
  const styles = Object.entries(STYLES).map(([id, style]) => `\n    <Style id="${prefix}${id}">${style}</Style>`).join('');
  return `${styles}\n${folders.join('\n')}`;
}

export function renderSceneKML(s: SceneJson, images?: ReadonlyMap<number, string>, sandbox = false): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2">
  <Document>
    <name>${x(`${sandbox ? '[sandbox] ' : ''}geo: ${s.input}`)}</name>${sceneKmlBody(s, images, '', sandbox)}
  </Document>
</kml>
`;
}

/**
 * A scene inside a file of other results (geo export): a Document of its own, its style ids
 * prefixed `prefix`, its name marked [sandbox] as the lone results' folders are.
 */
export function sceneKmlDocument(s: SceneJson, prefix: string, sandbox = false): string {
  return `  <Document><name>${x(`${sandbox ? '[sandbox] ' : ''}geo: ${s.input} (${s.kind})`)}</name>${sceneKmlBody(s, undefined, prefix, sandbox)}\n  </Document>`;
}
