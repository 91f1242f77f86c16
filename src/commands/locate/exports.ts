/**
 * Files others open, straight from locate: --format geojson|kml|csv|html on stdout, and --report
 * FILE.html beside any format. Both render the provenance records of this run's successes.
 */
import { writeFile } from 'node:fs/promises';
import type { ProvenanceRecord } from '../../local/store.js';
import { isFileFormat, renderExport } from '../../output/export/index.js';
import { BASE_FORMATS, resolveFormat } from '../../output/render.js';
import type { Ctx } from '../../context.js';
import type { Evidence } from '../../batch/evidence.js';

export const EXPORT_FORMATS = ['geojson', 'kml', 'csv', 'html'] as const;

/**
 * --format: the base formats, or one of the export formats (checked before anything is sent);
 * `piped` is what a pipe gets when nothing was chosen (render.ts resolveFormat).
 */
export function chooseFormat(ctx: Pick<Ctx, 'globals' | 'config' | 'io'>, piped: 'table' | 'ndjson'): string {
  return resolveFormat(ctx, [...BASE_FORMATS, ...EXPORT_FORMATS], piped);
}

/** The export text for an export format; undefined for the base formats (the caller prints those). */
export async function exportText(format: string, records: ProvenanceRecord[], evidence: Evidence, warn: (l: string) => void): Promise<string | undefined> {
  if (isFileFormat(format)) return renderExport(format, records);
  if (format !== 'html') return undefined;
  const r = await evidence.report(records);
  if (!r.hasMap) warn('warning: the leaflet package is not installed, so the report has no map');
  return r.html;
}

/** --report FILE: written after the run, whatever the exit code, when at least one result came back. */
export async function writeReport(file: string, records: ProvenanceRecord[], evidence: Evidence, warn: (l: string) => void): Promise<void> {
  if (records.length === 0) return warn(`--report ${file}: no result to report, nothing written`);
  const r = await evidence.report(records);
  await writeFile(file, r.html);
  if (!r.hasMap) warn('warning: the leaflet package is not installed, so the report has no map');
  warn(`report: ${file} (${records.length} result${records.length === 1 ? '' : 's'})`);
}
