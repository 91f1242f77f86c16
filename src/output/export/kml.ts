/**
 * KML 2.2 for Google Earth and QGIS: one Folder per result, placemarks styled by role through
 * shared Style ids (estimate, candidate, exif, scope), the scope circle as a Polygon. Every server
 * string goes through xmlText(); descriptions are escaped text, never CDATA (a "]]>" in a server
 * string would end a CDATA section early).
 *
 * Google Earth renders a <description> as HTML (Earth Pro runs scripts in balloons), so every
 * description is HTML built here: server strings HTML-escaped (esc), lines joined with <br>, and
 * the whole XML-escaped. Once the XML layer is read, a server's `</p><script>` is still text, never
 * markup (XML escaping alone let it through). In a KMZ (kmz.ts) the estimate's balloon
 * also shows the analysed image (a file inside the archive, files/...) above the same lines.
 * A sandbox's answer is never evidence: every balloon of it opens with the mark (simulated.ts),
 * above the image, and its estimate carries `sandbox: true` in its ExtendedData, as GeoJSON does.
 */
import type { ProvenanceRecord } from '../../evidence/record-types.js';
import { SIMULATED, isSimulated } from '../../evidence/simulated.js';
import { circleRing } from './geometry.js';
import { type ExportItem, exifPointOf, placeName, reusedMark, toItem } from './model.js';
import { esc } from './html.js';
import { xmlText as x } from './xml.js';

/** The estimate balloon's image in a KMZ: its path inside the archive, or why there is none. */
export type Balloon = { image: string } | { missing: string };

// KML colours are aabbggrr.
const STYLES = `
    <Style id="estimate"><IconStyle><color>ff2424d6</color><scale>1.2</scale><Icon><href>https://maps.google.com/mapfiles/kml/shapes/placemark_circle.png</href></Icon></IconStyle></Style>
    <Style id="candidate"><IconStyle><color>ffd67a24</color><scale>0.8</scale><Icon><href>https://maps.google.com/mapfiles/kml/shapes/placemark_circle.png</href></Icon></IconStyle></Style>
    <Style id="exif"><IconStyle><color>ff2fa82f</color><scale>1.0</scale><Icon><href>https://maps.google.com/mapfiles/kml/shapes/placemark_square.png</href></Icon></IconStyle></Style>
    <Style id="scope"><LineStyle><color>ff888888</color><width>2</width></LineStyle><PolyStyle><color>22888888</color></PolyStyle></Style>`;

const coord = (lat: number, lng: number) => `${lng},${lat},0`;

type Fields = Record<string, string | number | null | undefined>;

function data(fields: Fields): string {
  const rows = Object.entries(fields)
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => `<Data name="${x(k)}"><value>${x(v)}</value></Data>`);
  return `<ExtendedData>${rows.join('')}</ExtendedData>`;
}

/** `html` is a description built by asHtml() or balloonHtml(): every server string in it escaped. */
export function placemarkOf(role: string, name: string, html: string, geometry: string, fields: Fields): string {
  return `      <Placemark><name>${x(name)}</name><description>${x(html)}</description><styleUrl>#${role}</styleUrl>${data({ role, ...fields })}${geometry}</Placemark>`;
}

/** Text (server strings included) as a description's HTML: each line escaped, lines joined by <br>. */
export const asHtml = (text: string) => text.split('\n').map((l) => esc(l)).join('<br>');

/** The estimate balloon of a KMZ: image (or why not), then the same lines. */
function balloonHtml(balloon: Balloon, lines: string): string {
  // The image path is ours (files/<sha256 prefix>.<ext>), still escaped like everything else.
  const img = 'image' in balloon ? `<img src="${esc(balloon.image)}" width="400" alt="analysed image"><br>` : `<p><i>${esc(`no image: ${balloon.missing}`)}</i></p>`;
  return img + asHtml(lines);
}

function folder(item: ExportItem, balloon?: Balloon): string {
  const b = item.body;
  const f = b.forensic;
  const pct = `${Math.round(b.confidence * 100)}%`;
  const text = `${b.location.address}\nconfidence ${pct}, depth ${b.depth}${f ? `, ${f.precision_tier}` : ''}\n\n${b.reasoning}`;
  const simulated = isSimulated(item.record);
  const reused = reusedMark(item.record);
  // Every placemark of the result: the same role, with the marks first in its balloon (simulated, another photo's answer).
  const marked = `${simulated ? `<p><b>${esc(SIMULATED)}</b></p>` : ''}${reused ? `<p><b>${esc(reused)}</b></p>` : ''}`;
  const placemark = (role: string, name: string, html: string, geometry: string, fields: Fields) => placemarkOf(role, name, `${marked}${html}`, geometry, fields);
  const marks = [
    placemark(
      'estimate',
      placeName(b) || item.input,
      balloon ? balloonHtml(balloon, text) : asHtml(text),
      `<Point><coordinates>${coord(item.lat, item.lng)}</coordinates></Point>`,
      {
        input: item.input, sha256: item.sha256, analysis_id: b.analysis_id, confidence: b.confidence, depth: b.depth, precision_tier: f?.precision_tier, exif_verdict: item.exif?.verdict,
        ...(simulated ? { sandbox: 'true' } : {}),
      },
    ),
  ];
  for (const c of item.candidates) {
    const desc = [`candidate ${c.rank}, confidence ${c.confidencePct ?? '?'}%`, ...c.supports.map((s) => `+ ${s}`), ...c.contradictions.map((s) => `- ${s}`)].join('\n');
    marks.push(placemark('candidate', c.label || `candidate ${c.rank}`, asHtml(desc), `<Point><coordinates>${coord(c.lat, c.lng)}</coordinates></Point>`, { rank: c.rank, confidence_pct: c.confidencePct }));
  }
  const ex = exifPointOf(item);
  if (ex && item.exif) {
    const e = item.exif;
    marks.push(placemark('exif', 'EXIF GPS', asHtml(`${e.verdict}: ${e.distanceKm ?? '?'} km from the estimate (tolerance ${e.toleranceKm} km)`), `<Point><coordinates>${coord(ex.lat, ex.lng)}</coordinates></Point>`, { verdict: e.verdict, distance_km: e.distanceKm }));
  }
  if (item.scope) {
    const s = item.scope;
    const ring = circleRing(s.lat, s.lng, s.radiusKm).map(([lng, lat]) => `${lng},${lat},0`).join(' ');
    marks.push(placemark('scope', `scope: ${s.name}`, asHtml(`search scope, ${s.radiusKm} km around ${s.lat}, ${s.lng}`), `<Polygon><tessellate>1</tessellate><outerBoundaryIs><LinearRing><coordinates>${ring}</coordinates></LinearRing></outerBoundaryIs></Polygon>`, { radius_km: s.radiusKm }));
  }
  // A sandbox's answer is simulated, never evidence: its folder says so in its name too.
  const name = `${simulated ? '[sandbox] ' : ''}${item.input || item.sha256 || 'result'}`;
  return `    <Folder><name>${x(name)}</name>\n${marks.join('\n')}\n    </Folder>`;
}

/** The document's opening (up to its first Folder) and closing: export streams the folders between. */
export function kmlHead(title = 'geo results'): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2">
  <Document>
    <name>${x(title)}</name>${STYLES}
`;
}
export const KML_TAIL = `
  </Document>
</kml>
`;

/** One result's Folder (estimate, candidates, EXIF point, scope). */
export function kmlFolder(rec: ProvenanceRecord, balloon?: Balloon): string {
  return folder(toItem(rec), balloon);
}

/**
 * `balloons` (a KMZ's, one per record) turn the estimate descriptions into HTML with the image;
 * `investigation`: a case's Document (case-geo.ts caseKmlDocument), after the results.
 */
export function renderKML(records: readonly ProvenanceRecord[], title = 'geo results', balloons?: readonly Balloon[], investigation = ''): string {
  return `${kmlHead(title)}${records.map((r, i) => kmlFolder(r, balloons?.[i])).join('\n')}${investigation ? `\n${investigation}` : ''}${KML_TAIL}`;
}
