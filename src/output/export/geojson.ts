/**
 * RFC 7946 FeatureCollection for QGIS, geojson.io, ogr2ogr. Every feature carries `role`
 * (estimate | candidate | exif | scope) so a GIS can style by it; coordinates are [lng, lat].
 */
import type { ProvenanceRecord } from '../../evidence/record-types.js';
import { isSimulated } from '../../evidence/simulated.js';
import { sanitizeJsonText } from '../sanitize.js';
import { circleRing } from './geometry.js';
import { type ExportItem, exifPointOf, placeName, reusedMark, toItem } from './model.js';

type Props = Record<string, string | number | boolean | null>;
interface Feature {
  type: 'Feature';
  geometry: { type: 'Point'; coordinates: [number, number] } | { type: 'Polygon'; coordinates: [number, number][][] };
  properties: Props;
}
export interface FeatureCollection {
  type: 'FeatureCollection';
  features: Feature[];
}

const point = (lat: number, lng: number): Feature['geometry'] => ({ type: 'Point', coordinates: [lng, lat] });
const opt = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

/** The features of one result: its estimate, candidates, EXIF point and scope circle. */
export function featuresOf(item: ExportItem): Feature[] {
  const b = item.body;
  const f = b.forensic;
  // A sandbox's answer is simulated, never evidence: every feature of it says so.
  // A copy that took an earlier answer says so on every feature (evidence/copy-events.ts).
  const reused = reusedMark(item.record);
  const common: Props = { input: item.input, sha256: item.sha256, analysis_id: b.analysis_id ?? null, ...(isSimulated(item.record) ? { sandbox: true } : {}), ...(reused ? { reused_similar: reused } : {}) };
  const out: Feature[] = [
    {
      type: 'Feature',
      geometry: point(item.lat, item.lng),
      properties: {
        role: 'estimate',
        ...common,
        name: placeName(b) || item.input,
        confidence: b.confidence,
        confidence_pct: Math.round(b.confidence * 1000) / 10,
        country: b.location.country,
        city: b.location.city,
        neighborhood: b.location.neighborhood,
        address: b.location.address,
        depth: b.depth,
        model: b.model,
        precision_tier: opt(f?.precision_tier),
        verification_status: opt(f?.verification_status),
        scope_consistent: opt(b.scope_consistent),
        exif_verdict: opt(item.exif?.verdict),
        exif_distance_km: opt(item.exif?.distanceKm),
      },
    },
  ];
  for (const c of item.candidates) {
    out.push({
      type: 'Feature',
      geometry: point(c.lat, c.lng),
      properties: { role: 'candidate', ...common, name: c.label, rank: c.rank, confidence_pct: c.confidencePct, supports: c.supports.length, contradictions: c.contradictions.length },
    });
  }
  const ex = exifPointOf(item);
  if (ex && item.exif) {
    out.push({
      type: 'Feature',
      geometry: point(ex.lat, ex.lng),
      properties: { role: 'exif', ...common, name: 'EXIF GPS', verdict: item.exif.verdict, distance_km: opt(item.exif.distanceKm), tolerance_km: item.exif.toleranceKm },
    });
  }
  if (item.scope) {
    const s = item.scope;
    out.push({
      type: 'Feature',
      geometry: { type: 'Polygon', coordinates: [circleRing(s.lat, s.lng, s.radiusKm)] },
      properties: { role: 'scope', ...common, name: s.name, radius_km: s.radiusKm, center_lat: s.lat, center_lng: s.lng },
    });
  }
  return out;
}

export function toGeoJSON(records: readonly ProvenanceRecord[]): FeatureCollection {
  return { type: 'FeatureCollection', features: records.map(toItem).flatMap(featuresOf) };
}

/** Text for a file or stdout; raw C1/bidi characters become \u escapes (same data, safe terminal). */
export function renderGeoJSON(records: readonly ProvenanceRecord[]): string {
  return sanitizeJsonText(JSON.stringify(toGeoJSON(records), null, 2)) + '\n';
}
