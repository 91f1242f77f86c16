/**
 * A case's investigation in its map files (geo export --case): the conclusion as its uncertainty
 * circle (a polygon: confidence, within_m, because, entry), each place ruled out (its circle, area
 * or point, and why), and the points the observations and hypotheses point at (a result's estimate,
 * a candidate), each with the note's text. GeoJSON features carry `role` (conclusion, ruled_out,
 * observation, hypothesis) as the results' do; KML gets one Document of its own with its styles,
 * as a video's scene does (scene-geo.ts). Every analyst string is data: escaped for XML, and for
 * HTML inside KML descriptions (kml.ts). A case on a sandbox's answers says so on every shape.
 */
import { SIMULATED_CASE } from '../../evidence/simulated.js';
import type { Numbered, VouchedResult } from '../../evidence/case-vouch.js';
import { investigationOf } from '../../evidence/investigation.js';
import { type CaseGeometry, type NotePoint, type RuledOutShape, caseGeometry } from './case-geometry.js';
import type { LngLat } from './geometry.js';
import { esc } from './html.js';
import { asHtml, placemarkOf } from './kml.js';
import { xmlText as x } from './xml.js';

/** A case's investigation as an export draws it after the case's results; `title` names its KML Document. */
export interface ExportCase {
  geometry: CaseGeometry;
  title: string;
}

/** A case read through its log (batch/case-results.ts CaseEvidence), as far as its map files need it. */
export interface CaseRead {
  entries: Numbered[];
  vouch: { case: { name: string }; results: VouchedResult[]; simulated: number };
}

/** The investigation a case's map files draw (geo export --case, a bundle's results.geojson and .kmz, the report's map). */
export function caseExport(ev: CaseRead): ExportCase {
  return { geometry: caseGeometry(investigationOf(ev.entries), ev.vouch.results, ev.vouch.simulated > 0), title: `case ${ev.vouch.case.name}: the investigation` };
}

type Props = Record<string, string | number | boolean | null>;
type GeoJsonGeometry = { type: 'Point'; coordinates: LngLat } | { type: 'Polygon'; coordinates: LngLat[][] } | { type: 'MultiPolygon'; coordinates: LngLat[][][] };
export interface CaseFeature {
  type: 'Feature';
  geometry: GeoJsonGeometry;
  properties: Props;
}

const who = (d: { entry: number; at: string; by: string }): Props => ({ entry: d.entry, at: d.at, by: d.by });

function areaGeometry(r: RuledOutShape): GeoJsonGeometry | undefined {
  if (r.polygons.length === 1) return { type: 'Polygon', coordinates: r.polygons[0]! };
  if (r.polygons.length > 1) return { type: 'MultiPolygon', coordinates: r.polygons };
  return r.point ? { type: 'Point', coordinates: r.point } : undefined;
}

const noteProps = (n: NotePoint): Props => ({ role: n.kind, note: n.text, target: n.target, ...who(n) });

/** The investigation's GeoJSON features (RFC 7946: [lng, lat]), after the results' own. */
export function caseFeatures(g: CaseGeometry): CaseFeature[] {
  const out: CaseFeature[] = [];
  const c = g.conclusion;
  if (c) {
    out.push({
      type: 'Feature', geometry: { type: 'Polygon', coordinates: [c.ring] },
      properties: { role: 'conclusion', confidence: c.confidence, within_m: c.within_m, because: c.because, ...who(c), lat: c.lat, lng: c.lng, place: c.place ?? null, superseded: c.superseded.join(',') || null },
    });
  }
  for (const r of g.ruled_out) {
    const geometry = areaGeometry(r);
    if (geometry) out.push({ type: 'Feature', geometry, properties: { role: 'ruled_out', because: r.because, ...who(r), place: r.place ?? null, area: r.area ?? null, within_km: r.within_km ?? null } });
  }
  for (const n of g.notes) out.push({ type: 'Feature', geometry: { type: 'Point', coordinates: [n.lng, n.lat] }, properties: noteProps(n) });
  return g.simulated ? out.map((f) => ({ ...f, properties: { ...f.properties, sandbox: true } })) : out;
}

// KML colours are aabbggrr.
const STYLES: Record<string, string> = {
  conclusion: '<LineStyle><color>ff2424d6</color><width>3</width></LineStyle><PolyStyle><color>332424d6</color></PolyStyle>',
  ruled_out: '<LineStyle><color>ff555555</color><width>2</width></LineStyle><PolyStyle><color>55555555</color></PolyStyle><IconStyle><color>ff555555</color><Icon><href>https://maps.google.com/mapfiles/kml/shapes/forbidden.png</href></Icon></IconStyle>',
  observation: '<IconStyle><color>ff24a0d6</color><scale>0.9</scale><Icon><href>https://maps.google.com/mapfiles/kml/shapes/info-i.png</href></Icon></IconStyle>',
  hypothesis: '<IconStyle><color>ffa04fd6</color><scale>0.9</scale><Icon><href>https://maps.google.com/mapfiles/kml/shapes/info-i.png</href></Icon></IconStyle>',
};

const ringKml = (ring: readonly LngLat[]) => `<LinearRing><coordinates>${ring.map(([lng, lat]) => `${lng},${lat},0`).join(' ')}</coordinates></LinearRing>`;
const polygonKml = (rings: readonly LngLat[][]) =>
  `<Polygon><tessellate>1</tessellate><outerBoundaryIs>${ringKml(rings[0] ?? [])}</outerBoundaryIs>${rings.slice(1).map((r) => `<innerBoundaryIs>${ringKml(r)}</innerBoundaryIs>`).join('')}</Polygon>`;
const pointKml = ([lng, lat]: LngLat) => `<Point><coordinates>${lng},${lat},0</coordinates></Point>`;

function areaKml(r: RuledOutShape): string | undefined {
  if (r.polygons.length === 1) return polygonKml(r.polygons[0]!);
  if (r.polygons.length > 1) return `<MultiGeometry>${r.polygons.map(polygonKml).join('')}</MultiGeometry>`;
  return r.point ? pointKml(r.point) : undefined;
}

const km = (m: number) => (m < 1000 ? `${m} m` : `${Math.round(m / 100) / 10} km`);

/** The investigation as one KML Document (inside the file's own), or '' when it has nothing to draw. */
export function caseKmlDocument(g: CaseGeometry, title: string): string {
  const mark = g.simulated ? `<p><b>${esc(SIMULATED_CASE)}</b></p>` : '';
  const extra = g.simulated ? { sandbox: 'true' } : {};
  const line = (d: { entry: number; at: string; by: string }) => `entry ${d.entry}, ${d.at}, by ${d.by}`;
  const marks: string[] = [];
  const c = g.conclusion;
  if (c) {
    const text = `conclusion: ${c.place ? `${c.place}, ` : ''}${c.lat}, ${c.lng} within ${km(c.within_m)}, ${c.confidence}\nbecause: ${c.because}\n${line(c)}${c.superseded.length ? `\nsupersedes entry ${c.superseded.join(', entry ')}` : ''}`;
    marks.push(placemarkOf('conclusion', `conclusion (${c.confidence}, within ${km(c.within_m)})`, mark + asHtml(text), polygonKml([c.ring]), { confidence: c.confidence, within_m: c.within_m, because: c.because, entry: c.entry, ...extra }));
  }
  for (const r of g.ruled_out) {
    const geometry = areaKml(r);
    if (!geometry) continue;
    const what = r.area ?? r.place ?? (r.within_km !== undefined ? `${r.within_km} km around a point` : 'a place');
    marks.push(placemarkOf('ruled_out', `ruled out: ${what}`, mark + asHtml(`ruled out: ${what}\nbecause: ${r.because}\n${line(r)}`), geometry, { because: r.because, entry: r.entry, within_km: r.within_km, ...extra }));
  }
  for (const n of g.notes) {
    marks.push(placemarkOf(n.kind, `${n.kind} (entry ${n.entry}) at ${n.target}`, mark + asHtml(`${n.kind}: ${n.text}\nat ${n.target}\n${line(n)}`), pointKml([n.lng, n.lat]), { note: n.text, target: n.target, entry: n.entry, ...extra }));
  }
  if (marks.length === 0) return '';
  const styles = Object.entries(STYLES).map(([id, style]) => `\n    <Style id="${id}">${style}</Style>`).join('');
  return `  <Document><name>${x(`${g.simulated ? '[sandbox] ' : ''}${title}`)}</name>${styles}\n    <Folder><name>investigation</name>\n${marks.join('\n')}\n    </Folder>\n  </Document>`;
}
