/**
 * Local evidence for a batch, locate's or eval's: the EXIF corroboration block of every
 * answered input (the batch's exif hook), the provenance record of every result (committed to the
 * store with its claim by the batch engine, worker.ts; the EXIF check is added to it here), and the
 * records that --format geojson|kml|csv|html|kmz and --report render. Nothing here is ever sent.
 */
import type { ExifHook } from './records.js';
import type { BatchEvent, BatchRecord } from './types.js';
import { type Corroboration, corroborateImage } from '../evidence/corroborate.js';
import { readForExif } from '../files/read.js';
import { type ProvenanceRecord, isResultBody } from '../evidence/records.js';
import { vouchedImage } from '../image/vouched-image.js';
import { type ReportSource, buildHtmlReport, renderKMZ } from '../output/export/index.js';

export { bodyOf } from './provenance.js';

const isCorroboration = (v: unknown): v is Corroboration => typeof v === 'object' && v !== null && typeof (v as Corroboration).verdict === 'string';

/** Where a result is in the store: its row id and what `geo history show` takes for it. */
export interface StoredAt {
  id: number;
  /** The image's sha256 prefix, or the analysis id for a URL. */
  ref: string;
}

export class Evidence {
  /** Provenance of each successful record (the batch's own objects are the keys). */
  readonly provenance = new Map<BatchRecord, ProvenanceRecord>();
  /** Where each record's result is stored: written by this run, or the stored one it reused. */
  readonly files = new Map<BatchRecord, StoredAt>();
  /** Results this run committed to the store (listed ones: not --no-store). */
  stored = 0;
  private stdinBytes: Uint8Array | undefined;

  /** `keep: false`: nothing is kept per record (a run that prints each line and exports nothing). */
  constructor(private readonly ctx: { now: () => number; version: string }, private readonly opts: { store: boolean; keep?: boolean }) {}

  /** The size of what this run read from stdin (`geo locate -`), once an answer for it came back. */
  get stdinSize(): number | undefined {
    return this.stdinBytes?.length;
  }

  /** The `exif` block: read what EXIF needs of the image again (files are streamed, not held) and compare. */
  readonly exif: ExifHook = async (i) => {
    if (i.input === '-' && i.bytes) this.stdinBytes = i.bytes;
    if (!i.ok || !isResultBody(i.result)) return null;
    const bytes = i.bytes ?? (i.path ? await readForExif(i.path) : undefined);
    return bytes ? corroborateImage(bytes, i.result, i.metadataSent !== undefined ? { metadataSent: i.metadataSent } : {}) : null;
  };

  onEvent(e: BatchEvent): void {
    if (e.type !== 'finished' || !e.stored) return;
    const r = e.record;
    if (e.sentNow && this.opts.store) this.stored++;
    if (this.opts.keep === false || !r.ok || !isResultBody(r.result)) return;
    const rec = e.stored.record;
    this.provenance.set(r, { ...rec, ...(isCorroboration(r.exif) ? { exif: r.exif } : {}) });
    const aid = (rec.response.body as { analysis_id?: unknown } | undefined)?.analysis_id;
    this.files.set(r, { id: e.stored.id, ref: rec.input.sha256 ? rec.input.sha256.slice(0, 12) : typeof aid === 'string' ? aid : String(e.stored.id) });
  }

  /** The provenance of these records, in their order (failures and async acceptances have none). */
  recordsFor(records: readonly BatchRecord[]): ProvenanceRecord[] {
    return records.flatMap((r) => this.provenance.get(r) ?? []);
  }

  /** Only the image the record vouches for (its sha256): image/vouched-image.ts. */
  private async imageOf(rec: ProvenanceRecord): Promise<ReportSource> {
    return { record: rec, ...(await vouchedImage(rec.input, this.stdinBytes ? { stdinBytes: this.stdinBytes } : {})) };
  }

  /** These records with their images (only the bytes each vouches for), for a report of another shape (claim checks). */
  sources(records: readonly ProvenanceRecord[]): Promise<ReportSource[]> {
    return Promise.all(records.map((r) => this.imageOf(r)));
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
