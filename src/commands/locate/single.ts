/**
 * One named image. The batch engine runs underneath (its claims make a rerun free), but what is
 * printed is one answer: the body exactly as received for --json, the rich view on a terminal or
 * piped, one NDJSON record, an export; a failure is thrown as the error it was, so the exit code
 * and the hint are those of a plain call.
 */
import { DEPTH_LATENCY, type Depth, type GeolocateResponse } from '../../api/schemas.js';
import { IN_FLIGHT } from '../../batch/accounting.js';
import type { BatchPlan } from '../../batch/types.js';
import type { BatchResult } from '../../batch/run.js';
import type { BatchEvent } from '../../batch/types.js';
import type { Ctx } from '../../context.js';
import { ApiError } from '../../api/errors.js';
import { UNUSABLE, isKeyConflict } from '../../batch/outcome.js';
import { KEY_REUSED } from '../../store/index.js';
import { BelowConfidenceError, CancelledError, ServiceAnswerError, StoreError, UsageError } from '../../errors.js';
import { isResultBody } from '../../evidence/records.js';
import { SIMULATED, isSimulated } from '../../evidence/simulated.js';
import { costOf } from '../../output/errors.js';
import { BASE_FORMATS, formatOutput, viewOpts } from '../../output/render.js';
import { type Spinner, startSpinner } from '../../output/spinner.js';
import { locateView } from '../../output/views/locate.js';
import { acceptedView, fieldsView } from '../../output/views/locate-dry-run.js';
import { type Evidence, bodyOf } from '../../batch/evidence.js';
import { exportText } from './exports.js';
import { reusedSimilarLine } from '../../evidence/copy-events.js';
import { copyNote, fromJournalNote, fromOthersNote, fromResultsNote, keptHint, keyConflictHint, label, note, retryLine, sandboxBanner, stillRunningHint, unstoredLine, waitingLine, warnDeviations } from './notes.js';

type Finished = Extract<BatchEvent, { type: 'finished' }>;

export class SingleOutput {
  private plan: BatchPlan | undefined;
  private spinner: Promise<Spinner> | undefined;
  private finished: Finished | undefined;
  private readonly banner: () => void;

  constructor(
    private readonly ctx: Ctx,
    private readonly o: {
      format: string; sandbox: () => boolean; minConfidence?: number; evidence: Evidence; resume: (journal: string | undefined) => string | undefined;
      /** An export format written to stdout (--case logs it). */
      onExport?: (format: string, bytes: string | Uint8Array) => void;
      /** --idempotency-key was given: a 409 for another payload then asks for another key, not --fresh. */
      userKey?: boolean;
    },
  ) {
    this.banner = sandboxBanner(o.sandbox, (l) => note(ctx, l), Boolean(ctx.globals.sandbox));
  }

  onEvent(e: BatchEvent): void {
    if (e.type === 'plan') this.plan = e.plan;
    else if (e.type === 'notice') note(this.ctx, e.message);
    else if (e.type === 'started') {
      this.banner(); // known already when the balance was read first
      const depth = (this.plan?.depth ?? 1) as Depth;
      this.spinner = startSpinner(this.ctx, `locating ${label(e.input)} · ${costOf(depth)} · usually ${DEPTH_LATENCY[depth]}`);
    } else if (e.type === 'retry') void this.spinner?.then((s) => s.note(retryLine(e, this.ctx.now())));
    else if (e.type === 'waiting') {
      // Before the request went out (the balance read said the quota is spent): no spinner yet.
      if (this.spinner) void this.spinner.then((s) => s.note(waitingLine(e, this.ctx.now())));
      else note(this.ctx, waitingLine(e, this.ctx.now()));
    }
    else if (e.type === 'finished') {
      this.finished = e;
      this.banner();
    }
  }

  async stop(): Promise<void> {
    (await this.spinner)?.stop();
  }

  async finish(result: BatchResult): Promise<void> {
    const f = this.finished;
    const stop = result.summary.stopped;
    const resume = this.o.resume(result.summary.journal ?? result.summary.batch);
    if (stop?.reason === 'cancelled') {
      // In backticks: the command stays on one line, whole, however narrow the terminal.
      const again = resume !== undefined ? `\`${resume}\`` : 'the same command';
      if (f?.record.error?.code !== IN_FLIGHT.code) throw new CancelledError('cancelled: nothing was sent', `${again} sends it`);
      throw new CancelledError('cancelled while in flight: the request may have been charged', `${again} resends it with the same key, which the service replays free`);
    }
    if (!f) throw new Error('locate: the batch ended without an answer');
    const ctx = this.ctx;
    const res = f.response ?? {};
    const view = await viewOpts(ctx);
    const write = (s: string | Uint8Array) => ctx.io.stdout.write(s);
    const warn = (l: string) => note(ctx, l);
    if (f.fromJournal) note(ctx, fromJournalNote());
    if (f.reused) note(ctx, fromResultsNote(f.reused));
    if (f.fromOthers) note(ctx, fromOthersNote());
    if (f.copyOf && !f.copyOf.reused) note(ctx, copyNote(f.copyOf));
    // Shown first (a paid answer is never lost), then the store's failure is the command's.
    const unstored = () => {
      if (f.storeError) throw new StoreError(unstoredLine(f.record.input, f.storeError, f.credits, res.idempotencyKey), f.storeError.kind, f.storeError.hint);
    };
    if (!f.record.ok) {
      const e = f.record.error!;
      if (e.code === UNUSABLE) {
        // Paid, kept, but no coordinates: the body as received for --json, its fields otherwise.
        const body = bodyOf(res.raw);
        // An export format (geojson, kml, csv, html, kmz) has no place to put it: nothing on stdout.
        if ((BASE_FORMATS as readonly string[]).includes(this.o.format)) write(await formatOutput({ ...(res.raw !== undefined ? { raw: res.raw } : {}), data: body, records: () => [f.record], human: (v) => fieldsView(`The answer (${res.status ?? e.status ?? 200}) has no usable coordinates`, body, v) }, this.o.format, view));
        warnDeviations(warn, res.deviations);
        unstored();
        throw new ServiceAnswerError(`${f.record.input}: ${e.message}`, keptHint());
      }
      const cause = f.cause ?? stop?.error;
      if (cause instanceof ApiError && cause.code === 'idempotency_in_progress') throw new ServiceAnswerError(`${f.record.input}: the same request was still running on the server (409) when the deadline passed`, stillRunningHint(resume));
      if (isKeyConflict(cause)) throw new UsageError(`${f.record.input}: the service refused the request: its Idempotency-Key was used before for a different request (409), and resending cannot change that`, keyConflictHint(this.o.userKey === true));
      if (cause !== undefined) throw cause;
      // The caller's own key, used before for another image or other fields: refused here, nothing sent (store/claims.ts).
      if (e.code === KEY_REUSED) throw new UsageError(`${f.record.input}: ${e.message}; nothing was sent`, keyConflictHint(true));
      // A final failure an earlier run recorded (a 422): the same answer again.
      throw new UsageError(`${f.record.input}: ${e.message} (${e.code}${e.status ? `, ${e.status}` : ''}), recorded by an earlier run`, 'add --fresh to send it again');
    }
    const data = f.record.result;
    if (!isResultBody(data)) {
      // The 202 of --async: its body shape is not shown in the spec, so it is passed on as is.
      write(await formatOutput({ ...(res.raw !== undefined ? { raw: res.raw } : {}), data, records: () => [f.record], human: (v) => acceptedView(data, v) }, this.o.format, view));
      warnDeviations(warn, res.deviations);
      return unstored();
    }
    const body = data as GeolocateResponse;
    // A sandbox's answer where the banner did not say so (nothing was sent: it came from the store):
    // the view opens with the mark; other formats get it on stderr, before the answer is written.
    const simulated = isSimulated(f.stored?.record) && !this.o.sandbox();
    if (simulated && this.o.format !== 'table') note(ctx, SIMULATED);
    const prov = this.o.evidence.recordsFor([f.record]);
    const exported = await exportText(this.o.format, prov, this.o.evidence, warn);
    if (exported !== undefined) {
      write(exported);
      this.o.onExport?.(this.o.format, exported);
    } else if (f.copyOf?.reused) {
      // Another photo's answer: never printed as this image's body as received. --json gets the
      // record that says whose it is; the view opens with the same words.
      const line = reusedSimilarLine(f.copyOf, f.copyOf.input);
      if (this.o.format !== 'table') note(ctx, line);
      const meta = { input: f.record.input, evidence: (f.record.exif ?? null) as Parameters<typeof locateView>[1]['evidence'], reusedSimilar: line, ...(simulated ? { simulated } : {}) };
      write(await formatOutput({ data: f.record, records: () => [f.record], human: (v) => richOrFields(body, meta, v) }, this.o.format, view));
    } else {
      const meta = {
        input: f.record.input, replayed: f.replayed, fromJournal: f.fromJournal, ...(f.reused ? { fromResults: true, ...(f.reused.paidBy !== undefined ? { paidBy: f.reused.paidBy } : {}) } : {}), evidence: (f.record.exif ?? null) as Parameters<typeof locateView>[1]['evidence'],
        ...(res.elapsedMs !== undefined ? { elapsedMs: res.elapsedMs } : {}), ...(res.attempts !== undefined ? { attempts: res.attempts } : {}),
        ...(res.requestId ? { requestId: res.requestId } : {}), ...(this.plan ? { askedDepth: this.plan.depth } : {}), ...(simulated ? { simulated } : {}),
      };
      write(await formatOutput({ ...(res.raw !== undefined ? { raw: res.raw } : {}), data: body, records: () => [f.record], human: (v) => richOrFields(body, meta, v) }, this.o.format, view));
    }
    warnDeviations(warn, res.deviations);
    if (f.replayed && this.o.format !== 'table') note(ctx, 'replayed: the stored response for this Idempotency-Key, no credits charged');
    if (body.scope_consistent === false) note(ctx, 'warning: the image contradicts the --scope; the result is the unscoped estimate (scope_consistent: false)');
    unstored();
    const min = this.o.minConfidence;
    if (min !== undefined && typeof body.confidence === 'number' && body.confidence < min) throw new BelowConfidenceError(body.confidence, min);
  }
}

/** The rich view; if a deviating answer still trips it, every field as received instead. */
function richOrFields(body: GeolocateResponse, meta: Parameters<typeof locateView>[1], v: Parameters<typeof locateView>[2]): string {
  try {
    return locateView(body, meta, v);
  } catch {
    return fieldsView('The answer (shown field by field: it is off the contract)', body, v);
  }
}
