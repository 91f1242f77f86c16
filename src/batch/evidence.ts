/**
 * Local evidence for a batch, locate's or eval's (issue 6): the EXIF corroboration block of every
 * answered input (the batch's exif hook), the provenance record of every successful result (stored unless --no-store;
 * a failed write warns and never fails a result that was paid for), and the records that
 * --format geojson|kml|csv|html|kmz and --report render. Nothing here is ever sent to the API.
 */
import { readFile, stat } from 'node:fs/promises';
import type { ExifHook } from './records.js';
import { UNUSABLE } from './outcome.js';
import type { BatchEvent, BatchRecord } from './types.js';
import { dataDir } from '../config/paths.js';
import { type Corroboration, corroborateImage } from '../local/corroborate.js';
import { readForExif } from '../local/files.js';
import { type ProvenanceRecord, buildRecord, isResultBody, saveRecord } from '../local/store.js';
import { type ReportSource, buildHtmlReport, renderKMZ } from '../output/export/index.js';
import { isUrlInput } from './inputs.js';

type Finished = Extract<BatchEvent, { type: 'finished' }>;
/** Larger images are not embedded, as in `geo export`: a report should stay mailable. */
const MAX_EMBED_BYTES = 25 * 1024 * 1024;

/** The parsed raw body (it parsed once already, in the client), else the text itself. */
export function bodyOf(raw: string | undefined): unknown {
  try {
    return raw === undefined ? null : (JSON.parse(raw) as unknown);
  } catch {
    return raw;
  }
}

const isCorroboration = (v: unknown): v is Corroboration => typeof v === 'object' && v !== null && typeof (v as Corroboration).verdict === 'string';

export class Evidence {
  /** Provenance of each successful record (the batch's own objects are the keys). */
  readonly provenance = new Map<BatchRecord, ProvenanceRecord>();
  /** Where each record's provenance file is: written by this run, or the stored one it reused. */
  readonly files = new Map<BatchRecord, string>();
  stored = 0;
  private request: Record<string, unknown> = {};
  private stdinBytes: Uint8Array | undefined;
  private writes: Array<Promise<void>> = [];

  constructor(
    private readonly ctx: { env: Record<string, string | undefined>; now: () => number; version: string },
    private readonly opts: { store: boolean; baseUrl: string; warn: (line: string) => void; account?: string },
  ) {}

  /** The `exif` block: read what EXIF needs of the image again (files are streamed, not held) and compare. */
  readonly exif: ExifHook = async (i) => {
    if (i.input === '-' && i.bytes) this.stdinBytes = i.bytes;
    if (!i.ok || !isResultBody(i.result)) return null;
    const bytes = i.bytes ?? (i.path ? await readForExif(i.path) : undefined);
    return bytes ? corroborateImage(bytes, i.result, i.metadataSent !== undefined ? { metadataSent: i.metadataSent } : {}) : null;
  };

  onEvent(e: BatchEvent): void {
    if (e.type === 'plan') this.request = e.plan.request;
    if (e.type !== 'finished') return;
    const r = e.record;
    if (!r.ok || !isResultBody(r.result)) {
      // A paid answer without usable coordinates (or an async acceptance) is stored too, raw body
      // and all, marked so that exports and look-ups skip it.
      const why = r.ok ? 'accepted for asynchronous analysis (202): no coordinates yet' : r.error?.code === UNUSABLE ? r.error.message : undefined;
      if (why !== undefined && e.response?.raw !== undefined) this.store(e, this.recordOf(e, why));
      return;
    }
    const rec = this.recordOf(e);
    this.provenance.set(e.record, rec);
    if (e.reused) this.files.set(e.record, e.reused.file);
    this.store(e, rec);
  }

  private store(e: Finished, rec: ProvenanceRecord): void {
    // An answer re-emitted from the journal or reused from the store was stored when it arrived;
    // a URL has no sha256 to file it under.
    if (this.opts.store && !e.fromJournal && !e.reused && e.record.sha256 !== null) this.writes.push(this.save(rec, e.record));
  }

  private recordOf(e: Finished, unusable?: string): ProvenanceRecord {
    const r = e.record;
    const m = e.response ?? {};
    const body = unusable === undefined ? r.result : bodyOf(m.raw);
    const url = isUrlInput(r.input);
    return buildRecord({
      input: { path: e.path ?? r.input, sha256: r.sha256 ?? '' },
      request: { ...(url ? { image_url: r.input } : {}), ...this.request },
      response: {
        data: body, raw: m.raw ?? JSON.stringify(r.result), ...(m.rawBytes ? { rawBytes: m.rawBytes } : {}), status: m.status ?? 200, headers: m.headers ?? {}, replayed: e.replayed,
        ...(m.requestId ? { requestId: m.requestId } : {}), ...(m.idempotencyKey ? { idempotencyKey: m.idempotencyKey } : {}),
        ...(m.attempts !== undefined ? { attempts: m.attempts } : {}), ...(m.elapsedMs !== undefined ? { elapsedMs: m.elapsedMs } : {}),
      },
      baseUrl: this.opts.baseUrl,
      ...(this.opts.account !== undefined ? { account: this.opts.account } : {}),
      cliVersion: this.ctx.version,
      ...(isCorroboration(r.exif) ? { exif: r.exif } : {}),
      ...(m.deviations?.length ? { deviations: m.deviations } : {}),
      ...(unusable !== undefined ? { unusable } : {}),
      ...(m.sent ? { sent: m.sent } : {}),
      now: this.ctx.now(),
    });
  }

  private async save(rec: ProvenanceRecord, record: BatchRecord): Promise<void> {
    try {
      this.files.set(record, await saveRecord(dataDir(this.ctx.env), rec));
      this.stored++;
    } catch (err) {
      this.opts.warn(`warning: could not store the provenance record of ${record.input} (${err instanceof Error ? err.message : String(err)}); the result itself is unaffected`);
    }
  }

  /** Waits for the record writes (they run while the batch goes on). */
  async flush(): Promise<void> {
    await Promise.all(this.writes.splice(0));
  }

  /** The provenance of these records, in their order (failures and async acceptances have none). */
  recordsFor(records: readonly BatchRecord[]): ProvenanceRecord[] {
    return records.flatMap((r) => this.provenance.get(r) ?? []);
  }

  private async imageOf(rec: ProvenanceRecord): Promise<ReportSource> {
    const path = rec.input.path;
    if (path === '-') return this.stdinBytes ? { record: rec, imageBytes: this.stdinBytes } : { record: rec, missingImage: 'image came from stdin' };
    if (isUrlInput(path)) return { record: rec, missingImage: `image was sent by URL: ${path}` };
    try {
      if ((await stat(path)).size > MAX_EMBED_BYTES) return { record: rec, missingImage: `image too large to embed: ${path}` };
      return { record: rec, imageBytes: await readFile(path) };
    } catch {
      return { record: rec, missingImage: `image not found at ${path}` };
    }
  }

  /** The self-contained HTML report of these records, with their images. */
  async report(records: readonly ProvenanceRecord[]): Promise<{ html: string; hasMap: boolean }> {
    const sources = await Promise.all(records.map((r) => this.imageOf(r)));
    return buildHtmlReport(sources, { generatedAt: new Date(this.ctx.now()).toISOString(), cliVersion: this.ctx.version });
  }

  /** The KMZ of these records, each image in its placemark's balloon. */
  async kmz(records: readonly ProvenanceRecord[]): Promise<Buffer> {
    return renderKMZ(await Promise.all(records.map((r) => this.imageOf(r))), { now: this.ctx.now() });
  }
}
