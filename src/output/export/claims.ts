/**
 * Claim checks as files others open: CSV for spreadsheets, GeoJSON for QGIS and
 * KML for Google Earth. Each checked claim is drawn as its tolerance circle (a polygon, coloured
 * by verdict), the leading estimate, the candidates, the file's EXIF GPS when it had one, and a
 * line from the claim to the estimate. Rows not checked (bad input) are CSV rows only. The same
 * escaping as every export: csv.ts's cells, xml.ts's text, sanitizeJsonText for JSON.
 */
import type { ClaimRecord } from '../../batch/claim-record.js';
import { sanitizeJsonText } from '../sanitize.js';
import { csvRow } from './csv.js';
import { circleRing } from './geometry.js';
import { esc } from './html.js';
import { KML_TAIL, kmlHead } from './kml.js';
import { xmlText as x } from './xml.js';

export const CLAIM_CSV_COLUMNS = [
  'row', 'file', 'input', 'sha256', 'at', 'claim_lat', 'claim_lng', 'claim_place', 'tolerance_km', 'verdict', 'rule', 'reason', 'depth',
  'estimate_lat', 'estimate_lng', 'estimate_place', 'confidence', 'precision_tier', 'distance_km', 'nearest_candidate', 'nearest_candidate_km',
  'exif_lat', 'exif_lng', 'exif_distance_km', 'scope_consistent', 'hard_evidence', 'service_verdict', 'analysis_id', 'sandbox', 'error',
] as const;

export function renderClaimsCSV(records: readonly ClaimRecord[]): string {
  return csvRow(CLAIM_CSV_COLUMNS) + records.map((r) => csvRow([
    r.row, r.file, r.input, r.sha256, r.at, r.claim?.lat, r.claim?.lng, r.claim?.place, r.tolerance_km, r.verdict, r.rule, r.reason, r.depth,
    r.estimate?.lat, r.estimate?.lng, r.estimate?.place, r.estimate?.confidence, r.estimate?.precision_tier, r.distance_km, r.nearest_candidate?.label, r.nearest_candidate?.distance_km,
    r.exif.lat, r.exif.lng, r.exif.distance_km, r.scoped ? String(r.scoped.scope_consistent) : null, r.scoped?.hard_evidence, r.service_verdict, r.analysis_id, r.sandbox ? 'sandbox' : '', r.error?.message,
  ])).join('');
}

type Props = Record<string, string | number | boolean | null>;
type Geometry =
  | { type: 'Point'; coordinates: [number, number] }
  | { type: 'LineString'; coordinates: Array<[number, number]> }
  | { type: 'Polygon'; coordinates: Array<Array<[number, number]>> };
interface Feature {
  type: 'Feature';
  geometry: Geometry;
  properties: Props;
}

const point = (lat: number, lng: number): Geometry => ({ type: 'Point', coordinates: [lng, lat] });

/** The features of one checked claim, each with `role` (claim | estimate | candidate | exif | link) to style by. */
function claimFeatures(r: ClaimRecord): Feature[] {
  if (!r.claim || r.verdict === null) return [];
  const c = r.claim;
  const common: Props = { input: r.input, row: r.row, verdict: r.verdict, rule: r.rule, ...(r.sandbox ? { sandbox: true } : {}) };
  const out: Feature[] = [{
    type: 'Feature', geometry: { type: 'Polygon', coordinates: [circleRing(c.lat, c.lng, r.tolerance_km ?? 1)] },
    properties: { role: 'claim', ...common, name: r.at, place: c.place, center_lat: c.lat, center_lng: c.lng, tolerance_km: r.tolerance_km, reason: r.reason },
  }];
  const e = r.estimate;
  if (e) {
    out.push({ type: 'Feature', geometry: point(e.lat, e.lng), properties: { role: 'estimate', ...common, name: e.place || r.input, confidence: e.confidence, depth: r.depth, precision_tier: e.precision_tier, distance_km: r.distance_km } });
    out.push({ type: 'Feature', geometry: { type: 'LineString', coordinates: [[c.lng, c.lat], [e.lng, e.lat]] }, properties: { role: 'link', ...common, distance_km: r.distance_km } });
  }
  r.candidates.forEach((k, i) => out.push({ type: 'Feature', geometry: point(k.lat, k.lng), properties: { role: 'candidate', ...common, name: k.label, rank: i + 1, confidence_pct: k.confidence_pct, distance_km: k.distance_km } }));
  if (r.exif.status === 'gps' && r.exif.lat !== undefined && r.exif.lng !== undefined) {
    out.push({ type: 'Feature', geometry: point(r.exif.lat, r.exif.lng), properties: { role: 'exif', ...common, name: 'EXIF GPS (a witness that can be forged)', distance_km: r.exif.distance_km ?? null } });
  }
  return out;
}

export function renderClaimsGeoJSON(records: readonly ClaimRecord[]): string {
  return sanitizeJsonText(JSON.stringify({ type: 'FeatureCollection', features: records.flatMap(claimFeatures) }, null, 2)) + '\n';
}

// KML colours are aabbggrr: agrees green, contradicts red, unverifiable amber; the link dashed grey.
const CLAIM_STYLES = `
    <Style id="claim-agrees"><LineStyle><color>ff2fa82f</color><width>2</width></LineStyle><PolyStyle><color>332fa82f</color></PolyStyle></Style>
    <Style id="claim-contradicts"><LineStyle><color>ff2424d6</color><width>3</width></LineStyle><PolyStyle><color>332424d6</color></PolyStyle></Style>
    <Style id="claim-unverifiable"><LineStyle><color>ff24a0d6</color><width>2</width></LineStyle><PolyStyle><color>2224a0d6</color></PolyStyle></Style>
    <Style id="link"><LineStyle><color>ff888888</color><width>2</width></LineStyle></Style>
`;

const coord = (lat: number, lng: number) => `${lng},${lat},0`;
/** Lines of text (server strings among them) as a balloon's HTML, then XML-escaped (kml.ts explains why both). */
const html = (text: string) => x(text.split('\n').map((l) => esc(l)).join('<br>'));
const mark = (name: string, style: string, text: string, geometry: string) => `      <Placemark><name>${x(name)}</name><description>${html(text)}</description><styleUrl>#${style}</styleUrl>${geometry}</Placemark>`;

function claimFolder(r: ClaimRecord): string {
  const c = r.claim!;
  const ring = circleRing(c.lat, c.lng, r.tolerance_km ?? 1).map(([lng, lat]) => `${lng},${lat},0`).join(' ');
  const marks = [mark(`claim: ${r.at}`, `claim-${r.verdict}`, `${r.verdict}: ${r.rule}\n${r.reason}\ntolerance ${r.tolerance_km} km`, `<Polygon><tessellate>1</tessellate><outerBoundaryIs><LinearRing><coordinates>${ring}</coordinates></LinearRing></outerBoundaryIs></Polygon>`)];
  const e = r.estimate;
  if (e) {
    marks.push(mark(e.place || 'estimate', 'estimate', `estimate, confidence ${e.confidence}, ${r.distance_km} km from the claim`, `<Point><coordinates>${coord(e.lat, e.lng)}</coordinates></Point>`));
    marks.push(mark(`${r.distance_km} km`, 'link', 'from the claim to the estimate', `<LineString><tessellate>1</tessellate><coordinates>${coord(c.lat, c.lng)} ${coord(e.lat, e.lng)}</coordinates></LineString>`));
  }
  r.candidates.forEach((k, i) => marks.push(mark(k.label || `candidate ${i + 1}`, 'candidate', `candidate ${i + 1}, confidence ${k.confidence_pct ?? '?'}%, ${k.distance_km} km from the claim`, `<Point><coordinates>${coord(k.lat, k.lng)}</coordinates></Point>`)));
  if (r.exif.status === 'gps' && r.exif.lat !== undefined && r.exif.lng !== undefined) {
    marks.push(mark('EXIF GPS', 'exif', `the file's own GPS, ${r.exif.distance_km} km from the claim: a witness that can be forged`, `<Point><coordinates>${coord(r.exif.lat, r.exif.lng)}</coordinates></Point>`));
  }
  const name = `${r.sandbox ? '[sandbox] ' : ''}${r.verdict}: ${r.input}${r.row !== null ? ` (row ${r.row})` : ''}`;
  return `    <Folder><name>${x(name)}</name>\n${marks.join('\n')}\n    </Folder>`;
}

export function renderClaimsKML(records: readonly ClaimRecord[]): string {
  const checked = records.filter((r) => r.claim && r.verdict !== null);
  return `${kmlHead('geo claim checks')}${CLAIM_STYLES}${checked.map(claimFolder).join('\n')}${KML_TAIL}`;
}
