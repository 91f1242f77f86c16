/**
 * How runBatch (run.ts) settles each job, once, however it ended: answered now, by an earlier run
 * of this batch, by a stored result, by another process, or never sent. Its records are made
 * (records.ts), counted, kept for the result or not, and told as one 'finished' event each, then
 * a 'progress' event; the records come back in input order at the end.
 */
import type { StoreApi } from '../store/index.js';
import type { RecordCounts } from './accounting.js';
import { countRecords } from './accounting.js';
import type { Ledger } from './ledger.js';
import { describeStop } from './outcome.js';
import type { ProgressMeter } from './progress.js';
import { keepOriginal } from './keep-original.js';
import { type ExifHook, recordsFor } from './records.js';
import type { HeldAnswers } from './reuse.js';
import { type ReuseContext, reuseAnswer } from './copies.js';
import type { SimilarAnswer } from './similar.js';
import type { Job } from './sources.js';
import type { BatchEvent, BatchRecord, BatchStop, BatchSummary, JobOutcome, ReusedFrom, SettledHow } from './types.js';
import { otherKeyLine } from './wait-claim.js';

export type Settle = (job: Job, o: JobOutcome, how: SettledHow, reused?: ReusedFrom) => Promise<void>;

export interface Settling {
  store: StoreApi;
  exif?: ExifHook;
  /** false: records are told, not kept (BatchOptions.keepRecords). */
  keep: boolean;
  counts: RecordCounts;
  summary: BatchSummary;
  meter: ProgressMeter;
  emit: (e: BatchEvent) => void;
  /** --keep-original: each answered job's original bytes kept in the store (keep-original.ts). */
  keepOriginal?: boolean;
}

/** The settle of a run, and each settled job's records (none kept without `keep`: settled is all it then says). */
export function settler(s: Settling): { settle: Settle; byId: Map<string, BatchRecord[]> } {
  const { store, counts, summary, meter, emit } = s;
  const byId = new Map<string, BatchRecord[]>();
  const NOT_KEPT: BatchRecord[] = [];
  /** `how`: answered now, by an earlier run of this batch, by a stored result, by another process, or never sent. */
  const settle = async (job: Job, o: JobOutcome, how: SettledHow, reused?: ReusedFrom) => {
    const recs = await recordsFor(job, o, s.exif);
    byId.set(job.id, s.keep ? recs : NOT_KEPT);
    countRecords(recs, counts);
    if (how === 'not_sent') meter.recordNotSent(recs.length);
    if (how !== 'sent') meter.recordSkipped(recs.length, o.ok);
    else meter.record(recs.length, o.ok, o.credits ?? 0);
    if (how === 'others') summary.fromOthers++;
    if (o.ok && o.copyOf?.reused) summary.fromSimilar = (summary.fromSimilar ?? 0) + 1;
    else if (o.ok && o.copyOf) summary.copiesLinked = (summary.copiesLinked ?? 0) + 1;
    if (o.storeError) summary.unstored++;
    // The EXIF check reads the file again after the answer: added to the stored record now.
    if (how === 'sent' && o.stored && recs[0]?.exif) {
      try {
        await store.setExif(o.stored.id, recs[0].exif);
      } catch {
        // The answer is stored; only its EXIF check is missing (geo inspect recomputes it).
      }
    }
    // Before its 'finished' event: a case that links the answer finds its original already kept.
    if (s.keepOriginal && o.stored && how !== 'not_sent') {
      const why = await keepOriginal(store, job);
      if (why) emit({ type: 'notice', message: why });
    }
    const extra = {
      ...(o.response ? { response: o.response } : {}), ...(!o.ok && o.cause !== undefined ? { cause: o.cause } : {}),
      ...(o.stored ? { stored: o.stored } : {}), ...(o.storeError ? { storeError: o.storeError } : {}), ...(o.credits !== undefined ? { credits: how === 'sent' ? o.credits : 0 } : {}),
    };
    recs.forEach((record, i) => {
      const path = job.paths[i];
      emit({
        type: 'finished', record, fromJournal: how === 'journal', replayed: o.ok && o.replayed, ...(path ? { path } : {}), ...extra, ...(reused ? { reused } : {}),
        ...(how === 'sent' ? { sentNow: true } : {}), ...(how === 'others' ? { fromOthers: true } : {}), ...(job.origin ? { origin: job.origin } : {}),
        ...(job.fetched?.[i] ? { fetched: job.fetched[i] } : {}),
        ...(o.ok && o.copyOf ? { copyOf: o.copyOf } : {}),
      });
    });
    emit({ type: 'progress', progress: meter.snapshot() });
  };
  return { settle, byId };
}

/** Earlier answers first: re-emitted, never resent (read from the store one at a time). */
export async function settleStored(jobs: readonly Job[], held: HeldAnswers, ledger: Ledger, summary: BatchSummary, settle: Settle, userKey: string | undefined, emit: (e: BatchEvent) => void): Promise<void> {
  for (const j of jobs) {
    const h = held.answers.get(j.id);
    if (!h) continue;
    const outcome = (await ledger.settled(h)) ?? { ok: false as const, error: { code: 'missing_answer', message: 'its stored answer could not be read back', final: false } };
    if (h.how === 'journal') summary.fromJournal++;
    else summary.fromResults++;
    if (h.how === 'results' && h.from?.paidBy !== undefined) summary.fromColleagues = (summary.fromColleagues ?? 0) + 1;
    // The caller's own key, for a request answered under another: not sent, and said so.
    const answeredUnder = outcome.response?.idempotencyKey;
    if (userKey !== undefined && answeredUnder !== userKey) emit({ type: 'notice', message: otherKeyLine(j.inputs[0]!, 'reused', answeredUnder, userKey) });
    await settle(j, outcome, h.how, h.how === 'results' ? h.from : undefined);
  }
}

/** Copies of photos located before, answered by those results (--reuse-similar: copies.ts), in input order; nothing sent. */
export async function settleSimilar(jobs: readonly Job[], reuse: ReadonlyMap<string, SimilarAnswer>, c: ReuseContext, settle: Settle): Promise<void> {
  for (const j of jobs) {
    const s = reuse.get(j.id);
    if (!s) continue;
    const outcome = (await reuseAnswer(c, j, s)) ?? { ok: false as const, error: { code: 'missing_answer', message: `the answer of result ${s.result} it was to reuse could not be read back`, final: false } };
    await settle(j, outcome, 'similar');
  }
}

/** Inputs never tried because the batch stopped: one record each, so every input has a line. */
export async function settleNotSent(pending: readonly Job[], stopped: BatchStop, byId: ReadonlyMap<string, BatchRecord[]>, settle: Settle): Promise<void> {
  const why = describeStop(stopped);
  for (const j of pending) if (!byId.has(j.id)) await settle(j, { ok: false, error: { code: 'not_sent', message: `not sent: ${why}`, final: false } }, 'not_sent');
}

/** The skipped inputs' records, then each input's in input order: the k-th input naming an image gets that image's k-th record. */
export function recordsInInputOrder(skipped: BatchRecord[], order: readonly string[], byId: ReadonlyMap<string, BatchRecord[]>): BatchRecord[] {
  const seen = new Map<string, number>();
  return [...skipped, ...order.flatMap((id) => {
    const k = seen.get(id) ?? 0;
    seen.set(id, k + 1);
    const r = byId.get(id)?.[k];
    return r ? [r] : [];
  })];
}
