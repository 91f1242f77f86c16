/**
 * Files others open, straight from locate: --format geojson|kml|csv|html|kmz on stdout, and
 * --report FILE.html beside any format. Both render the provenance records of this run's successes.
 */
import { UsageError } from '../../errors.js';
import { type FileMode, writeOwnFile } from '../../files/own-file.js';
import type { ProvenanceRecord } from '../../evidence/records.js';
import { BINARY_FORMATS, isFileFormat, renderExport } from '../../output/export/index.js';
import { BASE_FORMATS, resolveFormat } from '../../output/render.js';
import type { Ctx } from '../../context.js';
import type { Evidence } from '../../batch/evidence.js';

export const EXPORT_FORMATS = ['geojson', 'kml', 'csv', 'html', 'kmz'] as const;

/**
 * --format: the base formats, or one of the export formats (checked before anything is sent);
 * `piped` is what a pipe gets when nothing was chosen (render.ts resolveFormat). A binary format
 * (kmz) is refused on a terminal here too, before anything is sent or charged (a dry run prints
 * its plan as text whatever the format).
 */
export function chooseFormat(ctx: Pick<Ctx, 'globals' | 'config' | 'io'>, piped: 'table' | 'ndjson', dryRun = false): string {
  const format = resolveFormat(ctx, [...BASE_FORMATS, ...EXPORT_FORMATS], piped);
  if (BINARY_FORMATS.includes(format) && ctx.io.stdoutIsTTY && !dryRun) throw new UsageError(`${format} is a binary format: not written to a terminal`, `redirect it: geo locate … --format ${format} > results.${format}`);
  return format;
}

/** The export text (bytes for kmz) for an export format; undefined for the base formats (the caller prints those). */
export async function exportText(format: string, records: ProvenanceRecord[], evidence: Evidence, warn: (l: string) => void): Promise<string | Buffer | undefined> {
  if (isFileFormat(format)) return renderExport(format, records);
  if (format === 'kmz') return evidence.kmz(records);
  if (format !== 'html') return undefined;
  const r = await evidence.report(records);
  if (!r.hasMap) warn('warning: the leaflet package is not installed, so the report has no map');
  return r.html;
}

/** The files a report was made from (it embeds them): never the file it is written to. */
export const readBy = (records: readonly ProvenanceRecord[]) => () => records.flatMap((r) => [r.input.path, ...(r.video ? [r.video.path] : [])]);

/** --report FILE: written after the run, whatever the exit code, when at least one result came back; the HTML written. */
export async function writeReport(file: string, records: ProvenanceRecord[], evidence: Evidence, warn: (l: string) => void, mode?: FileMode): Promise<string | undefined> {
  if (records.length === 0) {
    warn(`--report ${file}: no result to report, nothing written`);
    return undefined;
  }
  const r = await evidence.report(records);
  await writeOwnFile(file, 'the report', r.html, { inputs: readBy(records), ...(mode ? { mode } : {}) });
  if (!r.hasMap) warn('warning: the leaflet package is not installed, so the report has no map');
  warn(`report: ${file} (${records.length} result${records.length === 1 ? '' : 's'})`);
  return r.html;
}
