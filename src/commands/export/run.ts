/**
 * Which records `geo export` turns into a file: stored provenance records chosen by sha256
 * (prefix), analysis id or --all, and results read from NDJSON/JSON files or stdin; and the text
 * of that file (the command writes it; geo mcp returns it).
 */
import { extname } from 'node:path';
import type { Readable } from 'node:stream';
import type { Ctx } from '../../context.js';
import { UsageError } from '../../errors.js';
import { type ProvenanceRecord, isResultBody, parseNdjsonResults, readNdjsonResults } from '../../evidence/records.js';
import { vouchedOrRefuse } from '../../batch/case-results.js';
import { isSimulated } from '../../evidence/simulated.js';
import { type VouchOptions, vouchedImage } from '../../image/vouched-image.js';
import { findCase } from '../../store/find.js';
import { expandSamples } from '../../files/samples.js';
import { findResultsOrScene } from '../../media/find-scene.js';
import { DEFAULT_AGREE_KM } from '../../media/options.js';
import { recordSceneKey } from '../../media/scene-records.js';
import { renderSceneKMZ } from '../../output/export/scene-kmz.js';
import { sceneReportHtml } from '../../output/export/scene-report.js';
import { SceneSplit, onlyScene, sceneImages } from './scenes.js';
import { type ExportCase, caseExport } from '../../output/export/case-geo.js';
import type { StoreApi, StoredResult } from '../../store/index.js';
import { EXPORT_FORMATS, type ExportFormat, type ReportSource, buildHtmlReport, renderKMZ, streamExportAsync } from '../../output/export/index.js';

export interface Selection {
  sources: string[];
  all: boolean;
  history: boolean;
  /** --case: the results linked to this local case (its id or name), instead of sources or --all. */
  caseRef?: string;
  /** --include-sandbox: sandbox answers (simulated, never evidence) are left out unless asked. */
  includeSandbox?: boolean;
}

type Warn = (line: string) => void;
const FILE_SOURCE = /\.(ndjson|jsonl|json)$/i;

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(String(c)));
  return Buffer.concat(chunks).toString('utf8');
}

/** A stored result as the exports read it: sandbox answers say so in every format. */
function exported(s: StoredResult): ProvenanceRecord {
  return s.sandbox ? { ...s.record, sandbox: true } : s.record;
}

/** Records as export reads them: an array (named results, files, a case) or a store's stream (--all). */
export type Records = Iterable<ProvenanceRecord> | AsyncIterable<ProvenanceRecord>;

/** Everything read into memory: geo mcp returns an export whole, and a report or KMZ draws all its records. */
export async function gather<T>(items: Iterable<T> | AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const r of items) out.push(r);
  return out;
}

/**
 * The records to export: --all streams from the store, local or team (newest run per image unless
 * --history), so memory does not grow with the store; named results and files are read whole.
 */
export async function selectRecords(ctx: Pick<Ctx, 'io' | 'now' | 'storeApi'>, sel: Selection, warn: Warn): Promise<Records> {
  if (sel.caseRef !== undefined) return (await caseRecords(await ctx.storeApi(), sel)).records;
  if (!sel.all && sel.sources.length === 0) throw new UsageError('nothing to export', 'name results (sha256, analysis id, .ndjson file, -) or use --all');
  if (sel.sources.filter((s) => s === '-').length > 1) throw new UsageError('stdin (-) can be read once');
  const named: ProvenanceRecord[] = [];
  const files: ProvenanceRecord[] = [];
  const onProblem = (where: string, why: string) => warn(`skipped ${where}: ${why}`);
  // sample:NAME names the files shipped with geo, as it does for locate.
  for (const source of expandSamples(sel.sources)) {
    if (source === '-') files.push(...parseNdjsonResults(await readAll(ctx.io.stdin), '-', { now: ctx.now(), onProblem }));
    else if (FILE_SOURCE.test(source)) {
      try {
        files.push(...(await readNdjsonResults(source, { now: ctx.now(), onProblem })));
      } catch (e) {
        throw new UsageError(`cannot read ${source}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, 'check the path; results files are the NDJSON that `geo locate --format ndjson` writes');
      }
    } else {
      // A video file (or the batch id geo history lists for a video or a set): all its stored answers, drawn as its scene.
      const found = await findResultsOrScene(await ctx.storeApi(), source, { agreeKm: DEFAULT_AGREE_KM });
      if ('scene' in found) named.push(...found.scene.results.filter((r) => r.record.unusable === undefined).map(exported));
      else {
        const usable = found.results.filter((r) => r.record.unusable === undefined);
        named.push(...(sel.history ? usable : usable.slice(0, 1)).map(exported));
      }
    }
  }
  if (!sel.all) {
    if (named.length + files.length === 0) throw new UsageError('no results to export', 'geo locate stores every successful result');
    return [...named, ...files];
  }
  const store = await ctx.storeApi();
  const includeSandbox = Boolean(sel.includeSandbox);
  const left = includeSandbox ? 0 : await store.sandboxCount();
  const leftOut = `${left} sandbox result${left === 1 ? '' : 's'}`;
  const stream = store.iterate({ includeSandbox, latestPerImage: !sel.history });
  const first = await stream.next();
  // One message, not a note then an error that seems to contradict it: when only sandbox
  // results are stored, the error says so and how to add them.
  if (first.done && named.length + files.length === 0) {
    if (left > 0) throw new UsageError(`no stored results to export but ${leftOut} (simulated, not evidence), left out`, 'add --include-sandbox to export them, marked simulated');
    throw new UsageError(`no stored results in ${store.where}`, 'geo locate stores every successful result');
  }
  if (left > 0) warn(`left out ${leftOut} (simulated, not evidence); --include-sandbox adds them, marked`);
  // The same stored result named twice (--all plus a sha256) is exported once: --all has them all.
  return (async function* () {
    if (!first.done) yield exported(first.value);
    for await (const r of stream) yield exported(r);
    yield* files;
  })();
}

/**
 * --case: the case's results as its custody log vouches for them (batch/case-results.ts: values
 * from the raw answers and the log, sandbox answers marked by it), and its investigation as the
 * map files draw it (the conclusion's circle, the places ruled out, the notes' points), or nothing
 * when the case does not verify; found before anything is written (an unknown case is exit 2).
 */
export async function caseRecords(store: StoreApi, sel: Selection): Promise<{ records: ProvenanceRecord[]; kase: ExportCase }> {
  if (sel.all || sel.sources.length > 0) throw new UsageError('--case exports the case\'s results: name no results and no --all with it', `geo export --case ${sel.caseRef} --out case.geojson`);
  const c = await findCase(store, sel.caseRef!);
  const ev = await vouchedOrRefuse(store, c, 'nothing is exported');
  const records = ev.vouch.results.map((r) => r.record).filter((r) => isResultBody(r.response.body));
  if (records.length === 0) throw new UsageError(`case ${c.id} has no results to export`, `link some: geo locate … --case ${c.id}, or geo cases link ${c.id} RESULT`);
  return { records, kase: caseExport(ev) };
}

/**
 * The export: chunks of text for the text formats (streamed), a zip Buffer for kmz, the report's
 * HTML. Reports and KMZ embed only the image each record vouches for (image/vouched-image.ts);
 * `confine` is geo mcp's --allow-dir, applied to the image paths a results file names.
 */
export async function renderRecords(
  ctx: Pick<Ctx, 'now' | 'version'>, format: ExportFormat, selected: Records, warn: (l: string) => void, o: Pick<VouchOptions, 'confine'> & { kase?: ExportCase } = {},
): Promise<AsyncIterable<string> | string | Buffer> {
  if (format === 'geojson' || format === 'kml') {
    const split = new SceneSplit();
    return streamExportAsync(format, split.lone(selected), () => split.scenes(), o.kase);
  }
  if (format !== 'html' && format !== 'kmz') return streamExportAsync(format, selected);
  const records = await gather(selected);
  const scene = onlyScene(records);
  if (scene) {
    const shown = await sceneImages(scene, o);
    const simulated = records.filter(isSimulated).length;
    return format === 'kmz' ? renderSceneKMZ(scene, shown, ctx.now(), simulated > 0) : sceneReportHtml(scene, shown, { generatedAt: new Date(ctx.now()).toISOString(), cliVersion: ctx.version, simulated }, warn);
  }
  const scenes = new Set(records.map(recordSceneKey).filter((k) => k !== undefined)).size;
  if (scenes > 0) warn(`${scenes} video${scenes === 1 ? '' : 's'} or photo set${scenes === 1 ? '' : 's'} among these results: each frame is drawn as a result of its own here; export one alone (geo export clip.mp4 --format ${format}) for its consensus`);
  const images = async (): Promise<ReportSource[]> => Promise.all(records.map(async (record) => ({ record, ...(await vouchedImage(record.input, o)) })));
  if (format === 'kmz') return renderKMZ(await images(), { now: ctx.now(), ...(o.kase ? { kase: o.kase } : {}) });
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
