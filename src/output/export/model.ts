/**
 * The one reading of a provenance record that every export shares: what goes on the map and in
 * the tables. Defensive because records are files anyone can edit: a candidate or scope without
 * finite coordinates is left out rather than drawn at 0,0.
 */
import type { Corroboration } from '../../evidence/corroborate.js';
import type { ProvenanceRecord, ResultBody } from '../../evidence/record-types.js';
import { reusedSimilarLine } from '../../evidence/copy-events.js';

/** A copy's record that carries an earlier result's answer (--reuse-similar): the line every export puts on it; undefined otherwise. */
export function reusedMark(rec: ProvenanceRecord): string | undefined {
  return rec.reused_similar ? reusedSimilarLine(rec.reused_similar) : undefined;
}

export interface ExportCandidate {
  rank: number;
  lat: number;
  lng: number;
  label: string;
  /** 0-100, as the API sends it (api-spec.md "Note the scales"). */
  confidencePct: number | null;
  supports: string[];
  contradictions: string[];
}

export interface ExportItem {
  input: string;
  sha256: string;
  body: ResultBody;
  lat: number;
  lng: number;
  candidates: ExportCandidate[];
  exif?: Corroboration;
  scope?: { name: string; lat: number; lng: number; radiusKm: number };
  record: ProvenanceRecord;
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const onEarth = (lat: unknown, lng: unknown): boolean => finite(lat) && finite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180;
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => String(x)) : []);
/** scope.radius_km default (api-spec.md "Geolocation request"). */
const DEFAULT_RADIUS_KM = 60;

export function toItem(rec: ProvenanceRecord): ExportItem {
  const body = rec.response.body;
  const rawCands: unknown[] = Array.isArray(body.forensic?.candidates) ? body.forensic.candidates : [];
  const candidates: ExportCandidate[] = [];
  rawCands.forEach((c, i) => {
    const o = (c ?? {}) as Record<string, unknown>;
    if (!onEarth(o.lat, o.lng)) return;
    candidates.push({
      rank: i + 1,
      lat: o.lat as number,
      lng: o.lng as number,
      label: String(o.label ?? ''),
      confidencePct: finite(o.confidence) ? o.confidence : null,
      supports: strings(o.supports),
      contradictions: strings(o.contradictions),
    });
  });
  const s = rec.request?.scope as Record<string, unknown> | undefined;
  const scope =
    s && onEarth(s.lat, s.lng)
      ? { name: String(s.name ?? ''), lat: s.lat as number, lng: s.lng as number, radiusKm: finite(s.radius_km) && s.radius_km > 0 ? s.radius_km : DEFAULT_RADIUS_KM }
      : undefined;
  const exif = rec.exif && typeof rec.exif.verdict === 'string' ? rec.exif : undefined;
  return {
    input: rec.input.path,
    sha256: rec.input.sha256,
    body,
    lat: body.location.latitude,
    lng: body.location.longitude,
    candidates,
    ...(exif ? { exif } : {}),
    ...(scope ? { scope } : {}),
    record: rec,
  };
}

/** A one-line place name: "neighbourhood, city, country" without the empty parts. */
export function placeName(body: ResultBody): string {
  const l = body.location;
  return [l.neighborhood, l.city, l.country].filter((x) => typeof x === 'string' && x.trim() !== '').join(', ');
}

export function exifPointOf(item: ExportItem): { lat: number; lng: number } | undefined {
  const p = item.exif?.exifPoint;
  return p && onEarth(p.lat, p.lng) ? p : undefined;
}

/** A record and its image, as the report and KMZ take them (the image is optional: a URL, a moved file). */
export interface ReportSource {
  record: ProvenanceRecord;
  /** The image bytes when available (locate has them in memory; export re-reads input.path). */
  imageBytes?: Uint8Array;
  /** Why there is no image, shown in its place. */
  missingImage?: string;
}
