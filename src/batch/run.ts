/**
 * runBatch: inputs -> plan -> consent -> claims -> scheduler -> one record per input.
 * Records are handed to onEvent as each request finishes (the command writes and flushes one
 * NDJSON line per record); the returned list is the skipped inputs, then the rest in input order.
 * Every answer is committed to the store (src/store/) with its claim before onEvent sees it.
 * The plan is plan-batch.ts's, the sending send-pending.ts's, each job's settling settle.ts's.
 */
import { countRecords, skippedRecord } from './accounting.js';
import { requireConsent } from './consent.js';
import { type PlannedBatch, planBatch } from './plan-batch.js';
import { previewRequests } from './plan.js';
import { ProgressMeter } from './progress.js';
import type { BatchDeps, BatchOptions, BatchResult } from './run-options.js';
import { sendPending } from './send-pending.js';
import { recordsInInputOrder, settleNotSent, settleSimilar, settleStored, settler } from './settle.js';
import { SpendGuard, spendLimit } from './spend-guard.js';
import type { BatchEvent, BatchSummary } from './types.js';
import { removingAfter } from './url-inputs.js';

export type { BatchDeps, BatchOptions, BatchResult } from './run-options.js';

export async function runBatch(deps: BatchDeps, opts: BatchOptions): Promise<BatchResult> {
  const emit = (e: BatchEvent) => deps.onEvent?.(e);
  const started = deps.now();
  const planned = await planBatch(deps, opts, started, emit);
  const files = planned.prep.fetchedFiles;
  if (opts.dryRun) {
    const { prep, held, pending, plan } = planned;
    // Made as the output reads them (plan.ts): nothing is held for 100,000 inputs. The photos fetched
    // are read for them (what metadata would go), then removed.
    const previews = removingAfter(previewRequests(pending, prep.params, deps.client.baseUrl, new Map([...held.open].map(([id, o]) => [id, o.key])), { keepMetadata: prep.keepMetadata }), files);
    return { plan, records: [], previews, summary: { ...emptySummary(planned), elapsedMs: deps.now() - started } };
  }
  try {
    return await sendPlanned(deps, opts, planned, started, emit);
  } finally {
    await files.remove();
  }
}

function emptySummary(planned: PlannedBatch): BatchSummary {
  const { prep, inputs } = planned;
  return {
    inputs, unique: prep.jobs.length, ok: 0, failed: 0, notSent: 0, inFlight: 0, skipped: 0, fromJournal: 0, fromResults: 0, fromOthers: 0, unstored: 0, replayed: 0,
    creditsSpent: 0, retriesUsed: 0, rateLimited: 0, elapsedMs: 0, concurrency: 0, batch: prep.batch, ...(prep.journalPath ? { journal: prep.journalPath } : {}),
  };
}

async function sendPlanned(deps: BatchDeps, opts: BatchOptions, planned: PlannedBatch, started: number, emit: (e: BatchEvent) => void): Promise<BatchResult> {
  const store = deps.store;
  const { prep, inputs, held, pending, plan } = planned;
  const meter = new ProgressMeter(inputs, pending.length, deps.now);
  const summary = emptySummary(planned);
  await requireConsent(plan, { yes: opts.yes, maxCredits: opts.maxCredits, confirm: deps.confirm, noPrompt: deps.noPrompt });
  // What consent covers is kept against what the service charges, not what the plan priced (spend-guard.ts).
  const spend = new SpendGuard(opts.spendLimit ?? spendLimit({ maxCredits: opts.maxCredits, maxCreditsName: opts.budgetName?.what, yes: opts.yes, planCredits: plan.credits, threshold: plan.confirmThreshold }), prep.params.depth);
  // The batch's head, so `--resume ID` can run it again (a --fresh run says from when its answers count).
  await store.saveBatch(prep.batch, { ...prep.head, created: new Date(started).toISOString(), ...(opts.fresh ? { fresh_since: new Date(started).toISOString() } : {}) });
  // Inputs skipped while loading are settled before anything is sent: one record each.
  const keep = opts.keepRecords !== false;
  const counts = countRecords([]);
  const skipped = prep.skipped.map(skippedRecord);
  countRecords(skipped, counts);
  for (const record of skipped) {
    meter.recordUnusable(1);
    emit({ type: 'finished', record, fromJournal: false, replayed: false });
  }

  const { settle, byId } = settler({ store, exif: deps.exif, keep, counts, summary, meter, emit, ...(opts.keepOriginal ? { keepOriginal: true } : {}) });
  await settleStored(prep.jobs, held, planned.ledger, summary, settle, opts.idempotencyKey, emit);
  await settleSimilar(prep.jobs, planned.reuse, { ledger: planned.ledger, listed: opts.listed !== false, hashes: planned.hashes, now: deps.now, version: deps.version }, settle);
  const sent = await sendPending(deps, opts, planned, { started, spend, summary, meter, settle, emit });
  const { result } = sent;
  if (result.stopped) {
    emit({ type: 'stopped', stop: result.stopped });
    await settleNotSent(pending, result.stopped, byId, settle);
  }
  const records = !keep ? [] : recordsInInputOrder(skipped, prep.order, byId);
  return {
    plan,
    records,
    summary: {
      ...summary, ...counts, creditsSpent: meter.creditsSpent, retriesUsed: sent.retriesUsed, rateLimited: sent.rateLimited,
      elapsedMs: deps.now() - started, concurrency: result.concurrency, ...(result.stopped ? { stopped: result.stopped } : {}),
    },
  };
}
