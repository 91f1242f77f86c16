/**
 * Many inputs (several names, a folder, --from-file, --resume). Piped, --json or --format ndjson:
 * one NDJSON line per input, written as it finishes, so a crash loses no printed result. On a
 * terminal: a live progress line on stderr, the results table on stdout at the end. Exports
 * (--format geojson|kml|csv|html) at the end. Always a summary on stderr, and the exit code of
 * DESIGN.md: 7 when some inputs failed, 3/4/5/6/130 when the batch stopped early.
 */
import type { BatchResult } from '../../batch/run.js';
import type { BatchEvent, BatchRecord } from '../../batch/types.js';
import { describeStop, stopExitCode } from '../../batch/outcome.js';
import type { Ctx } from '../../context.js';
import { PartialFailureError } from '../../errors.js';
import { isResultBody } from '../../local/store.js';
import { viewOpts } from '../../output/render.js';
import { makeStyle } from '../../output/style.js';
import { sanitizeJsonText } from '../../output/sanitize.js';
import { type ResultRow, progressLine, resultsTable, summaryLines } from '../../output/views/batch.js';
import type { Evidence } from '../../batch/evidence.js';
import { exportText } from './exports.js';
import { LiveLine } from './live.js';
import { fromResultsNote, sandboxBanner, stderrLines, warnDeviations } from './notes.js';

function row(r: BatchRecord): ResultRow {
  if (!r.ok || !isResultBody(r.result)) return { input: r.input, ok: false, error: r.error ?? { code: 'accepted', message: '' } };
  const b = r.result;
  const place = [b.location.neighborhood, b.location.city, b.location.country].filter((p) => typeof p === 'string' && p.trim() !== '');
  const verdict = (r.exif as { verdict?: string } | null)?.verdict;
  return { input: r.input, ok: true, place: [...new Set(place)].join(', '), lat: b.location.latitude, lng: b.location.longitude, confidence: b.confidence, ...(verdict ? { verdict } : {}) };
}

/** Reuse notes printed one by one before the summary takes over. */
const REUSE_NOTES = 4;

export class ManyOutput {
  private readonly live: LiveLine;
  private readonly lines: boolean;
  private readonly banner: () => void;
  private reusedNotes = 0;

  constructor(
    private readonly ctx: Ctx,
    private readonly o: {
      format: string; sandbox: () => boolean; minConfidence?: number; evidence: Evidence; resume: (journal: string | undefined) => string | undefined;
      /** One NDJSON line per finished input (default: the record); a video adds its frame's origin. */
      lineOf?: (e: Extract<BatchEvent, { type: 'finished' }>) => unknown;
      /** --json prints one object at the end instead of lines (a video's consensus). */
      jsonAtEnd?: boolean;
    },
  ) {
    this.live = new LiveLine(ctx);
    this.banner = sandboxBanner(o.sandbox, (l) => this.live.note(l));
    // One line per input for ndjson, and for --json with many inputs (the handler makes ndjson the
    // piped default); an explicit --format table is a table, piped or not.
    this.lines = o.format === 'ndjson' || (o.format === 'json' && !o.jsonAtEnd);
  }

  onEvent(e: BatchEvent): void {
    const style = makeStyle(this.ctx.io.colorErr);
    switch (e.type) {
      case 'notice':
        return this.live.note(e.message);
      case 'started':
        return this.banner();
      case 'paused':
        return this.live.note(`rate limited (429): every worker waits ${Math.max(1, Math.round((e.untilMs - this.ctx.now()) / 1000))} s`);
      case 'progress':
        return this.live.update(progressLine(e.progress, style));
      case 'stopped':
        // A cancel aborts what is in flight (the service may still finish it); other stops wait for it.
        return this.live.note(`stopping: ${describeStop(e.stop)}; ${e.stop.reason === 'cancelled' ? 'requests in flight are abandoned and may still be charged' : 'requests in flight finish and are recorded'}`);
      case 'finished':
        this.banner();
        // One note per reused input for the first few; a folder of hundreds gets the summary's count.
        if (e.reused && ++this.reusedNotes <= REUSE_NOTES) this.live.note(this.reusedNotes < REUSE_NOTES ? fromResultsNote(e.reused, e.record.input) : 'more inputs answered from your results, not charged: the summary counts them');
        // Flushed per line: a reader of the pipe sees each result as soon as it exists.
        if (this.lines) this.ctx.io.stdout.write(sanitizeJsonText(JSON.stringify(this.o.lineOf?.(e) ?? e.record)) + '\n');
        return warnDeviations((l) => this.live.note(l), e.response?.deviations, e.record.input);
      default:
        return;
    }
  }

  /** A lasting line on stderr, above the live line. */
  note(line: string): void {
    this.live.note(line);
  }

  async stop(): Promise<void> {
    this.live.clear();
  }

  async finish(result: BatchResult): Promise<void> {
    const { ctx, o } = this;
    const { records } = result;
    const warn = (l: string) => this.live.note(l);
    const exported = await exportText(o.format, o.evidence.recordsFor(records), o.evidence, warn);
    if (exported !== undefined) ctx.io.stdout.write(exported);
    else if (!this.lines && records.length > 0) ctx.io.stdout.write(resultsTable(records.map(row), await viewOpts(ctx)) + '\n');
    this.close(result);
  }

  /** The summary on stderr and the exit code (7 for failures, 3-6/130 for a stop, 8 below --min-confidence). */
  close(result: BatchResult): void {
    const { ctx, o } = this;
    const { records, summary } = result;
    const min = o.minConfidence;
    const below = min === undefined ? 0 : records.filter((r) => r.ok && isResultBody(r.result) && r.result.confidence < min).length;
    if (!ctx.globals.quiet) {
      const { stopped, ...counts } = summary;
      const resume = o.resume(summary.journal);
      const data = {
        ...counts, ...(stopped ? { stopped: describeStop(stopped) } : {}), ...(resume ? { resume } : {}), belowConfidence: below, ...(o.evidence.stored > 0 ? { stored: o.evidence.stored } : {}),
      };
      ctx.io.stderr.write(summaryLines(data, makeStyle(ctx.io.colorErr)).map((l) => stderrLines(ctx, l)).join('\n') + '\n');
    }
    const failed = summary.failed + summary.notSent + summary.inFlight + summary.skipped;
    if (summary.stopped) throw new PartialFailureError(failed, summary.inputs, stopExitCode(summary.stopped));
    if (failed > 0) throw new PartialFailureError(failed, summary.inputs);
    if (below > 0) throw new PartialFailureError(below, summary.inputs, 8);
  }
}
