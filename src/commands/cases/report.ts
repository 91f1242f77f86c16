/**
 * `geo cases report <case> [--out report.html] [--format html|md|json]`: the case as a report a
 * person reads (output/export/case-report-*.ts): the question, the sources, the method, the
 * observations with their working copies, the clues judged, the places ruled out, the conclusion on
 * its map, the reviews and the custody summary. Read through the one path a case is read by
 * (batch/case-results.ts): a case that does not verify gets no report. The images are the ones
 * custody vouches for: an original whose file still hashes to its input's sha256, a working copy or
 * exhibit kept in the store by its sha256. The file written is logged (file_written, kind report).
 */
import { extname, resolve } from 'node:path';
import { caseLog } from '../../batch/case-custody.js';
import { type CaseEvidence, vouchedOrRefuse } from '../../batch/case-results.js';
import { caseSigner } from '../../batch/case-sign.js';
import { UsageError } from '../../errors.js';
import { sha256Hex } from '../../evidence/custody.js';
import { writeOwnFile } from '../../files/own-file.js';
import { checkWritableFile } from '../../files/safe.js';
import { fileMode } from '../../flags.js';
import { vouchedImage } from '../../image/vouched-image.js';
import { caseExport } from '../../output/export/case-geo.js';
import { type CaseReport, caseReport } from '../../output/export/case-report-data.js';
import { type Shown, renderCaseReportHtml } from '../../output/export/case-report-html.js';
import { renderCaseReportMd } from '../../output/export/case-report-md.js';
import { countryOutlines } from '../../output/export/outlines.js';
import { thumbnailDataUrl } from '../../output/export/thumbnail.js';
import { sanitizeInline, sanitizeJsonText } from '../../output/sanitize.js';
import { writeAll } from '../../output/write-all.js';
import { findCase } from '../../store/find.js';
import type { StoreApi } from '../../store/index.js';
import type { Handler } from '../types.js';

export const REPORT_FORMATS = ['html', 'md', 'json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
const BY_EXTENSION: Record<string, ReportFormat> = { '.html': 'html', '.htm': 'html', '.md': 'md', '.markdown': 'md', '.json': 'json' };

/** --format (or --json), else --out's extension; Markdown when it goes to stdout and nobody chose. */
export function reportFormat(flag: string | undefined, out: string | undefined): ReportFormat {
  const toFile = out !== undefined && out !== '-';
  const f = flag ?? (toFile ? BY_EXTENSION[extname(out).toLowerCase()] : 'md');
  if (f && (REPORT_FORMATS as readonly string[]).includes(f)) return f as ReportFormat;
  if (!f) throw new UsageError(`no report format for ${out}`, 'use --format html|md (or --out with .html or .md)');
  throw new UsageError(`a case report cannot be written as ${f}`, `formats: ${REPORT_FORMATS.join(', ')}`);
}

export interface Written {
  report: CaseReport;
  text: string;
}

/** Each image the report shows, by sha256: originals whose files still hash to it, kept working copies and exhibits. */
async function imagesOf(store: StoreApi, report: CaseReport, originals: ReadonlyArray<{ path: string | null; sha256: string }>): Promise<Map<string, Shown>> {
  const out = new Map<string, Shown>();
  const show = async (sha256: string, bytes: () => Promise<Uint8Array | string>) => {
    if (out.has(sha256)) return;
    const b = await bytes();
    const url = typeof b === 'string' ? undefined : await thumbnailDataUrl(b);
    out.set(sha256, url ? { url } : { missing: typeof b === 'string' ? b : 'not an image a browser shows' });
  };
  const kept = async (sha256: string, why: string) => (await store.kept.get(sha256))?.bytes ?? why;
  for (const o of [...originals, ...report.working_copies.map((w) => ({ path: w.of.input_path, sha256: w.of.sha256 }))]) {
    await show(o.sha256, async () => {
      const v = o.path === null ? { missingImage: 'its path was not logged' } : await vouchedImage({ path: o.path, sha256: o.sha256 });
      return 'imageBytes' in v ? v.imageBytes : kept(o.sha256, v.missingImage);
    });
  }
  for (const w of report.working_copies) await show(w.sha256, () => kept(w.sha256, 'not kept in this store'));
  for (const x of report.notes.flatMap((n) => n.exhibits)) await show(x.sha256, () => kept(x.sha256, 'not kept in this store'));
  return out;
}

/** The report of a case already read and vouched for (a bundle holds one as its report.html). */
export async function renderCaseReport(store: StoreApi, ev: CaseEvidence, o: { now: number; version: string }, format: ReportFormat): Promise<Written> {
  const report = caseReport(ev, o);
  if (format === 'json') return { report, text: sanitizeJsonText(JSON.stringify(report, null, 2)) + '\n' };
  if (format === 'md') return { report, text: renderCaseReportMd(report) };
  const { geometry } = caseExport(ev);
  const points = [...(geometry.conclusion ? [geometry.conclusion] : []), ...geometry.notes, ...geometry.results];
  const images = await imagesOf(store, report, ev.vouch.results.map((r) => r.input));
  const outlines = countryOutlines(points);
  return { report, text: renderCaseReportHtml(report, { images, geometry, ...(outlines ? { outlines } : {}) }) };
}

export const report: Handler = async (ctx, args, opts) => {
  const out = opts.out as string | undefined;
  const format = reportFormat(ctx.globals.json ? 'json' : ctx.globals.format, out);
  const toStdout = out === undefined || out === '-';
  if (toStdout && format === 'html' && ctx.io.stdoutIsTTY) throw new UsageError('html is a report for a browser: not written to a terminal', 'use --out report.html, or --format md');
  const mode = fileMode(opts.fileMode);
  const store = await ctx.storeApi();
  const c = await findCase(store, String(args[0]));
  // Refused before anything is read: a link, a FIFO, a folder, or one of the case's own photos.
  const photos = (await store.cases.linked(c.id)).map((l) => l.stored.record.input.path);
  if (!toStdout) checkWritableFile(out, 'the report', { inputs: () => photos });
  const { text } = await renderCaseReport(store, await vouchedOrRefuse(store, c, 'no report is written'), { now: ctx.now(), version: ctx.version }, format);
  const bytes = Buffer.from(text, 'utf8');
  if (toStdout) await writeAll(ctx.io.stdout, [bytes]);
  else await writeOwnFile(out, 'the report', bytes, { inputs: () => photos, ...(mode ? { mode } : {}) });
  const signer = await caseSigner(ctx, (line) => ctx.io.stderr.write(`${sanitizeInline(line)}\n`));
  const path = toStdout ? '-' : resolve(out);
  await caseLog(store, await signer.actor(), ctx.now).append(c.id, { event: 'file_written', data: { file: { kind: 'report', format, path, sha256: sha256Hex(bytes), size: bytes.length } } });
  await signer.auto(c.id);
  if (!toStdout && !ctx.globals.quiet) ctx.io.stderr.write(`wrote the report of case ${sanitizeInline(c.id)} to ${sanitizeInline(out)} (${format}); logged in its custody\n`);
};
