/** Glue for `geo export`: pick the format, select records, write the file (or stdout). */
import { createHash } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { Handler } from '../../cli.js';
import type { Ctx } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { ProvenanceRecord } from '../../local/store.js';
import { BINARY_FORMATS, EXPORT_FORMATS, type ExportFormat, type ReportSource, buildHtmlReport, renderExport, renderKMZ } from '../../output/export/index.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { selectRecords } from './run.js';

const BY_EXTENSION: Record<string, ExportFormat> = {
  '.geojson': 'geojson', '.kml': 'kml', '.kmz': 'kmz', '.csv': 'csv', '.html': 'html', '.htm': 'html', '.json': 'json', '.ndjson': 'ndjson', '.jsonl': 'ndjson',
};
/** Larger images are not embedded: the report should stay mailable (sharp, when present, shrinks them first). */
const MAX_EMBED_BYTES = 25 * 1024 * 1024;

function chooseFormat(format: string | undefined, out: string | undefined): ExportFormat {
  const f = format ?? (out ? BY_EXTENSION[extname(out).toLowerCase()] : undefined);
  if (f && (EXPORT_FORMATS as readonly string[]).includes(f)) return f as ExportFormat;
  if (!f) throw new UsageError('no format given', `use --format ${EXPORT_FORMATS.join('|')} (or --out with one of those extensions)`);
  throw new UsageError(`export cannot write ${f}`, `formats: ${EXPORT_FORMATS.join(', ')}`);
}

/** The analysed image, if it is still where it was and still the same bytes. */
async function imageFor(rec: ProvenanceRecord): Promise<ReportSource> {
  const path = rec.input.path;
  if (!path || path === '-' || /^https?:\/\//i.test(path)) return { record: rec, missingImage: path.startsWith('http') ? `image was sent by URL: ${path}` : 'image came from stdin: not kept' };
  try {
    if ((await stat(path)).size > MAX_EMBED_BYTES) return { record: rec, missingImage: `image too large to embed: ${path}` };
    const bytes = await readFile(path);
    const sha = createHash('sha256').update(bytes).digest('hex');
    if (rec.input.sha256 && sha !== rec.input.sha256) return { record: rec, missingImage: `${path} has changed since the analysis (sha256 differs): not shown` };
    return { record: rec, imageBytes: bytes };
  } catch {
    return { record: rec, missingImage: `image not found at ${path}` };
  }
}

export async function renderRecords(ctx: Pick<Ctx, 'now' | 'version'>, format: ExportFormat, records: ProvenanceRecord[], warn: (l: string) => void): Promise<string | Buffer> {
  if (format === 'kmz') return renderKMZ(await Promise.all(records.map(imageFor)), { now: ctx.now() });
  if (format !== 'html') return renderExport(format, records);
  const report = await buildHtmlReport(await Promise.all(records.map(imageFor)), { generatedAt: new Date(ctx.now()).toISOString(), cliVersion: ctx.version });
  if (!report.hasMap) warn('warning: the leaflet package is not installed, so the report has no map');
  return report.html;
}

export const exportResults: Handler = async (ctx, args, opts) => {
  const out = opts.out as string | undefined;
  const format = chooseFormat(ctx.globals.format, out);
  const toStdout = !out || out === '-';
  // Checked before any record is read: a zip on a terminal is noise, and can upset it.
  if (toStdout && BINARY_FORMATS.includes(format) && ctx.io.stdoutIsTTY) throw new UsageError(`${format} is a binary format: not written to a terminal`, `use --out results.${format}, or redirect: > results.${format}`);
  const warn = (line: string) => {
    if (!ctx.globals.quiet) ctx.io.stderr.write(sanitizeInline(line) + '\n');
  };
  const records = await selectRecords(ctx, { sources: (args[0] as string[] | undefined) ?? [], all: Boolean(opts.all), history: Boolean(opts.history) }, warn);
  const text = await renderRecords(ctx, format, records, warn);
  if (!toStdout) {
    await writeFile(out, text);
    warn(`wrote ${records.length} result${records.length === 1 ? '' : 's'} to ${out} (${format})`);
  } else {
    ctx.io.stdout.write(text);
  }
};
