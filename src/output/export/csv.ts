/**
 * One row per result for spreadsheets. RFC 4180: CRLF line ends, quotes doubled inside quoted
 * fields. Spreadsheet formula injection (OWASP "CSV Injection"): a text cell beginning with
 * = + - @ (or tab / CR, which some apps strip first) gets a leading ' so it stays text.
 *
 * Spreadsheets in semicolon locales read the file with `;` as the separator, and then a `;` inside
 * a quoted cell starts a new one (`Tokyo;=1+1` became a formula): so every cell holding `,` or `;`
 * is quoted, and a formula lead-in right after a `,` or `;` inside a cell (behind any quotes and
 * whitespace) gets the same ' as one at its start. Numbers are written as numbers, so a negative
 * latitude is not mangled. Columns added later go last, so existing positions hold: stored_at
 * (when the answer was received), then sandbox: for a sandbox's answer the one mark every view
 * shows, "simulated answer (sandbox): not evidence" (evidence/simulated.ts), else empty; then
 * reused_similar: for a copy that took an earlier result's answer, the line that says so
 * (evidence/copy-events.ts), else empty.
 */
import type { ProvenanceRecord } from '../../evidence/record-types.js';
import { SIMULATED, isSimulated } from '../../evidence/simulated.js';
import { sanitize } from '../sanitize.js';
import { reusedMark, toItem } from './model.js';

export const CSV_COLUMNS = [
  'input', 'sha256', 'lat', 'lng', 'confidence', 'country', 'city', 'neighborhood', 'address', 'depth',
  'analysis_id', 'exif_lat', 'exif_lng', 'exif_verdict', 'distance_km', 'stored_at', 'sandbox', 'reused_similar',
] as const;

type Cell = string | number | null | undefined;

export function csvCell(v: Cell): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  // A lead-in at the start, or where a comma- or semicolon-reader would start a cell: the ' goes
  // first, before any whitespace or quote a reader might strip.
  const s = sanitize(v).replace(/(^|[,;])([\s"]*[=+\-@\t\r])/g, "$1'$2");
  return /[",;\r\n\t]/.test(s) || /^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvRow(cells: readonly Cell[]): string {
  return cells.map(csvCell).join(',') + '\r\n';
}

/**
 * When the answer was received (UTC, ISO-8601), from the stored record. Results rebuilt from
 * NDJSON or a bare body carry no time of their own (their stored_at is when they were read), so
 * the cell stays empty rather than claim one.
 */
function storedAt(rec: ProvenanceRecord): string {
  return rec.origin === 'store' ? rec.stored_at : '';
}

/** One result's row (export streams them under the header row). */
export function csvRecordRow(rec: ProvenanceRecord): string {
  const item = toItem(rec);
  const b = item.body;
  const l = b.location;
  const e = item.exif;
  return csvRow([
    item.input, item.sha256, item.lat, item.lng, b.confidence, l.country, l.city, l.neighborhood, l.address, b.depth,
    b.analysis_id, e?.exifPoint?.lat, e?.exifPoint?.lng, e?.verdict, e?.distanceKm, storedAt(item.record), isSimulated(item.record) ? SIMULATED : '', reusedMark(item.record) ?? '',
  ]);
}

export function renderCSV(records: readonly ProvenanceRecord[]): string {
  return csvRow(CSV_COLUMNS) + records.map(csvRecordRow).join('');
}
