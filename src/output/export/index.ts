/**
 * The entry points commands use (export, and locate's --format geojson|kml|kmz|csv|html and --report).
 * Records in, text out (bytes for KMZ); the only reads are installed package files (Leaflet,
 * country-coder's outlines) and the image bytes the caller already holds (thumbnails through sharp
 * when present, EXIF capture time and camera).
 */
import type { ProvenanceRecord } from '../../evidence/record-types.js';
import { renderCSV } from './csv.js';
import { renderGeoJSON } from './geojson.js';
import { captureOf } from './capture.js';
import { type ReportEntry, renderHtmlReport } from './html-report.js';
import { renderKML } from './kml.js';
import { renderKMZ } from './kmz.js';
import { type ReportSource, exifPointOf, toItem } from './model.js';
import { countryOutlines } from './outlines.js';
import { streamExport, streamExportAsync } from './stream.js';
import { type LeafletAssets, loadLeafletAssets } from './leaflet-assets.js';
import { thumbnailDataUrl } from './thumbnail.js';

export { renderCSV, renderGeoJSON, renderKML, renderKMZ, renderHtmlReport, loadLeafletAssets, streamExport, streamExportAsync, thumbnailDataUrl };
export type { LeafletAssets, ReportEntry, ReportSource };

export const FILE_FORMATS = ['geojson', 'kml', 'csv'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];
export const EXPORT_FORMATS = [...FILE_FORMATS, 'html', 'kmz', 'json', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** What `geo export` writes as text from records alone (html and kmz also need the images). */
export type TextExportFormat = Exclude<ExportFormat, 'html' | 'kmz'>;
/** Formats that are bytes, not text: never written to a terminal. */
export const BINARY_FORMATS: readonly string[] = ['kmz'];

export function isFileFormat(f: unknown): f is FileFormat {
  return (FILE_FORMATS as readonly unknown[]).includes(f);
}

/** GeoJSON, KML, CSV, JSON or NDJSON text for these records (an empty collection/header-only for none). */
export function renderExport(format: TextExportFormat, records: Iterable<ProvenanceRecord>): string {
  return [...streamExport(format, records)].join('');
}

export interface BuiltReport {
  html: string;
  /** False when the leaflet package is not installed: the report has no map (say so on stderr). */
  hasMap: boolean;
}

/** Loads Leaflet, makes the thumbnails and renders the report. */
export async function buildHtmlReport(sources: readonly ReportSource[], opts: { generatedAt: string; cliVersion?: string; title?: string }): Promise<BuiltReport> {
  const leaflet = await loadLeafletAssets();
  const entries: ReportEntry[] = [];
  for (const s of sources) {
    const thumbnail = s.imageBytes ? await thumbnailDataUrl(s.imageBytes) : undefined;
    const missingImage = thumbnail ? undefined : (s.missingImage ?? (s.imageBytes ? 'not an image format a browser shows' : 'image not available'));
    const capture = await captureOf(s.record, s.imageBytes);
    entries.push({ record: s.record, ...(thumbnail ? { thumbnail } : {}), ...(missingImage ? { missingImage } : {}), ...(capture ? { capture } : {}) });
  }
  // Outlines only matter on a map; the points are the estimates and the photos' own GPS.
  const points = sources.map((s) => toItem(s.record)).flatMap((item) => {
    const exif = exifPointOf(item);
    return exif ? [{ lat: item.lat, lng: item.lng }, exif] : [{ lat: item.lat, lng: item.lng }];
  });
  const outlines = leaflet ? countryOutlines(points) : undefined;
  return { html: renderHtmlReport(entries, { leaflet, ...(outlines ? { outlines } : {}), ...opts }), hasMap: leaflet !== undefined };
}

