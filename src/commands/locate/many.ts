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
import { PartialFailureError, StoreError } from '../../errors.js';
import { isResultBody } from '../../evidence/records.js';
import { viewOpts } from '../../output/render.js';
import { makeStyle } from '../../output/style.js';
import { sanitizeJsonText } from '../../output/sanitize.js';
import { waitEnds } from '../../output/wait-line.js';
import { type ResultRow, progressLine, progressPercentLine, progressTenth, resultsTable, summaryLines } from '../../output/views/batch.js';
import type { Evidence } from '../../batch/evidence.js';
import { exportText } from './exports.js';
import { LiveLine } from './live.js';
import { copyNote, fromOthersNote, fromResultsNote, label, sandboxBanner, stderrLines, unstoredLine, waitingLine, warnDeviations } from './notes.js';

function row(r: BatchRecord): ResultRow {
  if (!r.ok || !isResultBody(r.result)) return { input: r.input, ok: false, error: r.error ?? { code: 'accepted', message: '' } };
  const b = r.result;
  const place = [b.location.neighborhood, b.location.city, b.location.country].filter((p) => typeof p === 'string' && p.trim() !== '');
  const verdict = (r.exif as { verdict?: string } | null)?.verdict;
  return { input: r.input, ok: true, place: [...new Set(place)].join(', '), lat: b.location.latitude, lng: b.location.longitude, confidence: b.confidence, ...(verdict ? { verdict } : {}) };
}

/** Failures the summary explains as a group (never sent, or abandoned in flight) or already named (skipped). */
const QUIET_CODES = new Set(['not_sent', 'in_flight', 'skipped']);

/** Reuse notes printed one by one before the summary takes over. */
const REUSE_NOTES = 4;

export class ManyOutput {
  private readonly live: LiveLine;
  private readonly lines: boolean;
  private readonly banner: () => void;
  private reusedNotes = 0;
  /** Answers below --min-confidence, counted as they finish (the records may not be kept). */
  private below = 0;
  private othersNotes = 0;
  private copyNotes = 0;
  private tenth = 0;
  /** When the latest rate-limit wait ends: the progress line counts it down until then. */
  private waitUntil = 0;

  constructor(
    private readonly ctx: Ctx,
    private readonly o: {
      format: string; sandbox: () => boolean; minConfidence?: number; evidence: Evidence; resume: (journal: string | undefined) => string | undefined;
      /** One NDJSON line per finished input (default: the record); a video adds its frame's origin. */
      lineOf?: (e: Extract<BatchEvent, { type: 'finished' }>) => unknown;
      /** --json prints one object at the end instead of lines (a video's consensus). */
      jsonAtEnd?: boolean;
      /** An export format written to stdout (--case logs it). */
      onExport?: (format: string, bytes: string | Uint8Array) => void;
    },
  ) {
    this.live = new LiveLine(ctx);
    this.banner = sandboxBanner(o.sandbox, (l) => this.live.note(l), Boolean(ctx.globals.sandbox));
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
        this.waitUntil = Math.max(this.waitUntil, e.untilMs);
        return this.live.note(`rate limited (429): every worker waits ${waitEnds(e.untilMs, this.ctx.now())}`);
      case 'waiting':
        this.waitUntil = Math.max(this.waitUntil, e.untilMs);
        return this.live.note(waitingLine(e, this.ctx.now()));
      case 'progress':
        // Accessible mode: a plain line per tenth done, nothing redrawn (a screen reader reads each redraw).
        if (this.ctx.accessible) {
          if (progressTenth(e.progress) > this.tenth) this.live.note(progressPercentLine(e.progress));
          this.tenth = Math.max(this.tenth, progressTenth(e.progress));
          return;
        }
        return this.live.update(progressLine(e.progress, style, this.waitLeftS()));
      case 'stopped':
        // A cancel aborts what is in flight (the service may still finish it); other stops wait for it.
        return this.live.note(`stopping: ${describeStop(e.stop)}; ${e.stop.reason === 'cancelled' ? 'requests in flight are abandoned and may still be charged' : 'requests in flight finish and are recorded'}`);
      case 'finished':
        this.banner();
        if (this.o.minConfidence !== undefined && e.record.ok && isResultBody(e.record.result) && e.record.result.confidence < this.o.minConfidence) this.below++;
        // One note per reused input for the first few; a folder of hundreds gets the summary's count.
        if (e.reused && ++this.reusedNotes <= REUSE_NOTES) this.live.note(this.reusedNotes < REUSE_NOTES ? fromResultsNote(e.reused, e.record.input) : 'more inputs answered from your results, not charged: the summary counts them');
        if (e.copyOf && ++this.copyNotes <= REUSE_NOTES) this.live.note(this.copyNotes < REUSE_NOTES ? copyNote(e.copyOf, e.record.input) : 'more copies of photos located before: the summary counts them');
        if (e.fromOthers && ++this.othersNotes <= REUSE_NOTES) this.live.note(this.othersNotes < REUSE_NOTES ? fromOthersNote(e.record.input) : 'more inputs answered by another geo process, not charged here: the summary counts them');
        // A failed input is named on stderr as it fails, as a skipped one is: the
        // summary only counts them. Not sent and in flight are the summary's to explain.
        if (!e.record.ok && !QUIET_CODES.has(e.record.error?.code ?? '')) this.live.note(`failed: ${label(e.record.input)}: ${e.record.error?.message || e.record.error?.code || 'error'}${e.record.error?.code ? ` (${e.record.error.code})` : ''}`);
        // Flushed per line: a reader of the pipe sees each result as soon as it exists.
        if (this.lines && !this.ctx.outputClosed.aborted) this.ctx.io.stdout.write(sanitizeJsonText(JSON.stringify(this.o.lineOf?.(e) ?? e.record)) + '\n');
        if (e.storeError) this.live.note(unstoredLine(e.record.input, e.storeError, e.credits, e.response?.idempotencyKey));
        return warnDeviations((l) => this.live.note(l), e.response?.deviations, e.record.input);
      default:
        return;
    }
  }

  /** Whole seconds left of the rate-limit wait, or undefined when none is under way. */
  private waitLeftS(): number | undefined {
    const ms = this.waitUntil - this.ctx.now();
    return ms > 0 ? Math.ceil(ms / 1000) : undefined;
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
    const closed = ctx.outputClosed.aborted;
    const exported = closed ? undefined : await exportText(o.format, o.evidence.recordsFor(records), o.evidence, warn);
    if (exported !== undefined) {
      ctx.io.stdout.write(exported);
      o.onExport?.(o.format, exported);
    } else if (!this.lines && !closed && records.length > 0) ctx.io.stdout.write(resultsTable(records.map(row), await viewOpts(ctx)) + '\n');
    this.close(result);
  }

  /** The summary on stderr and the exit code (7 for failures, 3-6/130 for a stop, 8 below --min-confidence). */
  close(result: BatchResult): void {
    const { ctx, o } = this;
    const { summary } = result;
    const below = this.below;
    // The reader left (`| head -1`): the line below says what happened and what to run, once (issue
    // 34: the summary's "stopped" and --resume command beside it read as a second, other account).
    const readerLeft = summary.stopped?.reason === 'output_closed';
    if (!ctx.globals.quiet) {
      const { stopped, ...counts } = summary;
      const resume = readerLeft ? undefined : o.resume(summary.journal ?? summary.batch);
      const data = {
        ...counts, ...(stopped && !readerLeft ? { stopped: describeStop(stopped) } : {}), ...(resume ? { resume } : {}), belowConfidence: below, ...(o.evidence.stored > 0 ? { stored: o.evidence.stored } : {}),
      };
      ctx.io.stderr.write(summaryLines(data, makeStyle(ctx.io.colorErr)).map((l) => stderrLines(ctx, l)).join('\n') + '\n');
    }
    // What was in flight is stored; saying so is all that is left to do.
    if (readerLeft) {
      if (!ctx.globals.quiet) ctx.io.stderr.write(stderrLines(ctx, outputClosedLine(summary)) + '\n');
      return;
    }
    if (summary.unstored > 0) {
      // Kept in the journal when there is one; the store's own failure says the exit (unreachable: 6).
      const kept = summary.journal ? `, kept in the journal ${summary.journal} (the resume command above brings them in)` : ' (see the lines above for the keys that replay them free)';
      const cause = summary.stopped?.error instanceof StoreError ? summary.stopped.error.kind : 'other';
      throw new StoreError(`${summary.unstored} paid answer${summary.unstored === 1 ? ' was' : 's were'} shown but not stored${kept}`, cause);
    }
    const failed = summary.failed + summary.notSent + summary.inFlight + summary.skipped;
    if (summary.stopped) throw new PartialFailureError(failed, summary.inputs, stopExitCode(summary.stopped));
    if (failed > 0) throw new PartialFailureError(failed, summary.inputs);
    if (below > 0) throw new PartialFailureError(below, summary.inputs, 8);
  }
}

/** What a closed stdout left: nothing paid is lost, and how to see it and finish. */
function outputClosedLine(s: BatchResult['summary']): string {
  const answered = s.ok + s.failed;
  return `stdout was closed: geo stopped sending; ${answered} answer${answered === 1 ? ' is' : 's are'} in the store (geo history shows them)` +
    (s.notSent > 0 ? `, ${s.notSent} input${s.notSent === 1 ? ' was' : 's were'} not sent: run the same command again to send them` : '');
}
