/**
 * Which records `geo export` turns into a file: stored provenance records chosen by sha256
 * (prefix), analysis id or --all, and results read from NDJSON/JSON files or stdin; and the text
 * of that file (the command writes it; geo mcp returns it).
 */
import { extname } from 'node:path';
import type { Readable } from 'node:stream';
import { dataDir } from '../../config/paths.js';
import type { Ctx } from '../../context.js';
import { UsageError } from '../../errors.js';
import { type ProvenanceRecord, listRecords, parseNdjsonResults, readNdjsonResults } from '../../local/store.js';
import { findStored } from '../../local/store-search.js';
import { type VouchOptions, vouchedImage } from '../../local/vouched-image.js';
import { EXPORT_FORMATS, type ExportFormat, type ReportSource, buildHtmlReport, renderExport, renderKMZ } from '../../output/export/index.js';

export interface Selection {
  sources: string[];
  all: boolean;
  history: boolean;
}

type Warn = (line: string) => void;
const FILE_SOURCE = /\.(ndjson|jsonl|json)$/i;

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(String(c)));
  return Buffer.concat(chunks).toString('utf8');
}

/** The newest record per image, in the order the images were first selected. */
function latestPerImage(records: ProvenanceRecord[]): ProvenanceRecord[] {
  const byImage = new Map<string, ProvenanceRecord>();
  for (const r of records) {
    const prev = byImage.get(r.input.sha256);
    if (!prev || prev.stored_at <= r.stored_at) byImage.set(r.input.sha256, r);
  }
  return [...byImage.values()];
}

export async function selectRecords(ctx: Pick<Ctx, 'env' | 'io' | 'now'>, sel: Selection, warn: Warn): Promise<ProvenanceRecord[]> {
  if (!sel.all && sel.sources.length === 0) throw new UsageError('nothing to export', 'name results (sha256, analysis id, .ndjson file, -) or use --all');
  if (sel.sources.filter((s) => s === '-').length > 1) throw new UsageError('stdin (-) can be read once');
  const dir = dataDir(ctx.env);
  const stored: ProvenanceRecord[] = [];
  const files: ProvenanceRecord[] = [];
  const onProblem = (where: string, why: string) => warn(`skipped ${where}: ${why}`);
  if (sel.all) stored.push(...(await listRecords(dir, { all: true }, (f, why) => warn(`skipped ${f}: ${why}`))));
  for (const source of sel.sources) {
    if (source === '-') files.push(...parseNdjsonResults(await readAll(ctx.io.stdin), '-', { now: ctx.now(), onProblem }));
    else if (FILE_SOURCE.test(source)) {
      try {
        files.push(...(await readNdjsonResults(source, { now: ctx.now(), onProblem })));
      } catch (e) {
        throw new UsageError(`cannot read ${source}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, 'check the path; results files are the NDJSON that `geo locate --format ndjson` writes');
      }
    } else stored.push(...(await findStored(dir, source, onProblem, { files: true })));
  }
  // The same stored record may be named twice (--all plus a sha256): keep one of each.
  const seen = new Set<string>();
  const unique = stored.filter((r) => {
    const key = `${r.input.sha256}|${r.stored_at}|${r.response.body.analysis_id ?? ''}|${r.idempotency_key ?? ''}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
  const records = [...(sel.history ? unique : latestPerImage(unique)), ...files];
  if (records.length === 0) throw new UsageError(sel.all && sel.sources.length === 0 ? `no stored results in ${dir}/results` : 'no results to export', 'geo locate stores every successful result unless --no-store');
  return records;
}

/**
 * The export's bytes: text for every format but kmz, a zip Buffer for kmz. Reports and KMZ embed
 * only the image each record vouches for (local/vouched-image.ts); `confine` is geo mcp's
 * --allow-dir, applied to the image paths a results file names.
 */
export async function renderRecords(
  ctx: Pick<Ctx, 'now' | 'version'>, format: ExportFormat, records: ProvenanceRecord[], warn: (l: string) => void, o: Pick<VouchOptions, 'confine'> = {},
): Promise<string | Buffer> {
  const images = async (): Promise<ReportSource[]> => Promise.all(records.map(async (record) => ({ record, ...(await vouchedImage(record.input, o)) })));
  if (format === 'kmz') return renderKMZ(await images(), { now: ctx.now() });
  if (format !== 'html') return renderExport(format, records);
  const report = await buildHtmlReport(await images(), { generatedAt: new Date(ctx.now()).toISOString(), cliVersion: ctx.version });
  if (!report.hasMap) warn('warning: the leaflet package is not installed, so the report has no map');
  return report.html;
}

const BY_EXTENSION: Record<string, ExportFormat> = {
  '.geojson': 'geojson', '.kml': 'kml', '.kmz': 'kmz', '.csv': 'csv', '.html': 'html', '.htm': 'html', '.json': 'json', '.ndjson': 'ndjson', '.jsonl': 'ndjson',
};

/** --format, else the extension of --out. */
export function chooseFormat(format: string | undefined, out: string | undefined): ExportFormat {
  const f = format ?? (out ? BY_EXTENSION[extname(out).toLowerCase()] : undefined);
  if (f && (EXPORT_FORMATS as readonly string[]).includes(f)) return f as ExportFormat;
  if (!f) throw new UsageError('no format given', `use --format ${EXPORT_FORMATS.join('|')} (or --out with one of those extensions)`);
  throw new UsageError(`export cannot write ${f}`, `formats: ${EXPORT_FORMATS.join(', ')}`);
}
