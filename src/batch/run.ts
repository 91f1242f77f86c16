/**
 * runBatch: inputs -> plan -> consent -> journal -> scheduler -> one record per input.
 * Records are handed to onEvent as each request finishes (the command writes and flushes one
 * NDJSON line per record); the returned list is the skipped inputs, then the rest in input order.
 */
import { Readable } from 'node:stream';
import { DEPTH_COST, type Depth, type Effort, type Scope } from '../api/schemas.js';
import { UsageError } from '../errors.js';
import { countRecords, skippedRecord } from './accounting.js';
import { type Balance, readBalance } from './balance.js';
import { requireConsent } from './consent.js';
import { loadSharp } from './convert.js';
import { Journal, isFinished, parseJournal } from './journal.js';
import { describeStop } from './outcome.js';
import { type BatchPlan, type BudgetName, DEFAULT_CONFIRM_THRESHOLD, buildPlan, checkMaxCredits, previewRequests, requestParams } from './plan.js';
import { prepareBatch } from './prepare.js';
import { ProgressMeter, startTicker } from './progress.js';
import { type ExifHook, recordsFor } from './records.js';
import { answersHeld, journalOutcome } from './reuse.js';
import { schedule } from './scheduler.js';
import type { FrameInput, Job } from './sources.js';
import type { BatchEvent, BatchRecord, BatchSummary, ReusedFrom } from './types.js';
import { type BatchClient, type JobOutcome, sendJob } from './worker.js';

export interface BatchDeps {
  client: BatchClient;
  env: Record<string, string | undefined>;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  onEvent?: (e: BatchEvent) => void;
  /** Where relative paths start (the command passes the process's folder). */
  cwd: string;
  /** For `-`; absent means empty. */
  stdin?: Readable;
  /** Asked when the plan needs consent; false cancels (nothing sent). Absent: refused (consent.ts). */
  confirm?: (plan: BatchPlan) => Promise<boolean>;
  /** Why there is no confirm, for the refusal ("stdin is not a terminal"). */
  noPrompt?: string;
  /** The record's exif block (evidence engine); default null. Never fails a record. */
  exif?: ExifHook;
  /** accountFingerprint of the client's key: journals carry it, answers are reused only for it. */
  account?: string;
  /** dataDir(env): stored results of earlier commands are reused from here (reuse.ts); absent, none. */
  dataDir?: string;
  /** A 'progress' event every this many ms while requests run (a terminal's live line); default none. */
  tickMs?: number;
}

export interface BatchOptions {
  inputs: string[];
  fromFile?: string;
  /** Default: the --resume journal's depth, else 1. */
  depth?: Depth;
  effort?: Effort;
  scope?: Scope;
  batchId?: string;
  model?: string;
  async?: boolean;
  /** One input only: the key to send it with (the caller's own idempotency, e.g. a case number). */
  idempotencyKey?: string;
  concurrency?: number;
  /** A path, false for none; default stateDir/journals/<hash>.ndjson. */
  journal?: string | false;
  resume?: string;
  /** Ignore what the journal and the stored results hold: send again, and start the journal anew. */
  fresh?: boolean;
  maxCredits?: number;
  /** Who set maxCredits, for the refusal (default: --max-credits). */
  budgetName?: BudgetName;
  /** Consent to the plan whatever its cost (--yes). */
  yes?: boolean;
  confirmThreshold?: number;
  dryRun?: boolean;
  downscale?: boolean;
  /** Send files with their metadata (default: removed before upload; issue 14). Undefined: a resumed journal decides. */
  keepMetadata?: boolean;
  /** Retries shared by the whole batch; default max(10, requests to send). */
  retryBudget?: number;
  /** A video's frames, made in memory (issue 23); `inputs` then names the videos (the journal's command). */
  frames?: FrameInput[];
  /** --together: the inputs are one set of photos of one scene (issue 23). */
  together?: boolean;
}

export interface BatchResult {
  plan: BatchPlan;
  records: BatchRecord[];
  summary: BatchSummary;
}

export async function runBatch(deps: BatchDeps, opts: BatchOptions): Promise<BatchResult> {
  const emit = (e: BatchEvent) => deps.onEvent?.(e);
  const started = deps.now();
  const prep = await prepareBatch({
    args: opts.inputs, cwd: deps.cwd, stdin: deps.stdin ?? Readable.from([]), env: deps.env, baseUrl: deps.client.baseUrl, ...(deps.account !== undefined ? { account: deps.account } : {}),
    params: { ...(opts.depth !== undefined ? { depth: opts.depth } : {}), ...(opts.effort ? { effort: opts.effort } : {}), ...(opts.scope ? { scope: opts.scope } : {}), ...(opts.batchId ? { batch_id: opts.batchId } : {}), ...(opts.model ? { model: opts.model } : {}), ...(opts.async ? { async: true } : {}) },
    ...(opts.fromFile !== undefined ? { fromFile: opts.fromFile } : {}),
    ...(opts.journal !== undefined ? { journal: opts.journal } : {}),
    ...(opts.resume !== undefined ? { resume: opts.resume } : {}),
    ...(opts.downscale ? { downscale: true } : {}),
    ...(opts.keepMetadata !== undefined ? { keepMetadata: opts.keepMetadata } : {}),
    ...(opts.frames ? { frames: opts.frames } : {}),
    ...(opts.together ? { together: true } : {}),
  });
  const n = prep.order.length;
  const inputs = n + prep.skipped.length;
  if (opts.idempotencyKey !== undefined && n !== 1) throw new UsageError(`--idempotency-key names one request, but there are ${n} inputs`, 'give one input, or leave the keys to the journal');
  for (const s of prep.skipped) emit({ type: 'notice', message: `skipped ${s.path}: ${s.reason}` });
  // This account's answers from earlier runs: the journal's, then stored results of other commands.
  const { state, stored, notice } = await answersHeld(prep, deps, Boolean(opts.fresh));
  if (notice) emit({ type: 'notice', message: notice });
  const pending = prep.jobs.filter((j) => !isFinished(state?.done.get(j.id)) && !stored.has(j.id));

  checkMaxCredits(pending.length, prep.params.depth, opts.maxCredits, opts.budgetName);
  // The balance (balance.ts); one image that cannot need a confirmation skips the read.
  const mayConfirm = pending.length * DEPTH_COST[prep.params.depth] > (opts.confirmThreshold ?? DEFAULT_CONFIRM_THRESHOLD);
  const balance: Balance = pending.length > 1 || (pending.length === 1 && (opts.dryRun || mayConfirm))
    ? await readBalance(deps.client, deps.now, (message) => emit({ type: 'notice', message }))
    : {};
  const { available } = balance;
  const plan = buildPlan({
    jobs: prep.jobs, inputs, skipped: prep.skipped.map((s) => ({ input: s.path, reason: s.reason })), params: prep.params,
    ...(prep.journalPath ? { journal: { path: prep.journalPath, state: state ?? parseJournal('') } } : {}),
    ...(available !== undefined ? { available } : {}), reused: new Set(stored.keys()),
    ...(opts.confirmThreshold !== undefined ? { confirmThreshold: opts.confirmThreshold } : {}),
    ...(opts.maxCredits !== undefined ? { maxCredits: opts.maxCredits } : {}),
    ...(opts.budgetName ? { budgetName: opts.budgetName } : {}),
  });
  if (plan.conversions > 0) await loadSharp(`converting or downscaling ${plan.conversions} image(s)`);
  if (opts.dryRun) plan.requests = await previewRequests(prep.jobs.filter((j) => !stored.has(j.id)), prep.params, deps.client.baseUrl, state, { keepMetadata: prep.keepMetadata });
  emit({ type: 'plan', plan });
  if (plan.insufficient) emit({ type: 'notice', message: `the plan needs up to ${plan.credits} credits but ${plan.available} are available; the batch stops at the first 402` });
  const meter = new ProgressMeter(inputs, pending.length, deps.now);
  const summary: BatchSummary = {
    inputs, unique: prep.jobs.length, ok: 0, failed: 0, notSent: 0, inFlight: 0, skipped: 0, fromJournal: 0, fromResults: 0, replayed: 0,
    creditsSpent: 0, retriesUsed: 0, rateLimited: 0, elapsedMs: 0, concurrency: 0, ...(prep.journalPath ? { journal: prep.journalPath } : {}),
  };
  if (opts.dryRun) return { plan, records: [], summary: { ...summary, elapsedMs: deps.now() - started } };
  await requireConsent(plan, { yes: opts.yes, maxCredits: opts.maxCredits, confirm: deps.confirm, noPrompt: deps.noPrompt });
  // Inputs skipped while loading are settled before anything is sent: one record each.
  const skipped = prep.skipped.map(skippedRecord);
  for (const record of skipped) {
    meter.recordSkipped(1, false);
    emit({ type: 'finished', record, fromJournal: false, replayed: false });
  }

  const byId = new Map<string, BatchRecord[]>();
  /** `how`: answered now, by an earlier run's journal, by a stored result (`reused`), or never sent (batch stopped). */
  const settle = async (job: Job, o: JobOutcome, how: 'sent' | 'journal' | 'results' | 'not_sent', reused?: ReusedFrom) => {
    const recs = await recordsFor(job, o, deps.exif);
    byId.set(job.id, recs);
    if (how === 'not_sent') meter.recordNotSent(recs.length);
    if (how !== 'sent') meter.recordSkipped(recs.length, o.ok);
    else meter.record(recs.length, o.ok, o.credits ?? 0);
    const extra = { ...(o.response ? { response: o.response } : {}), ...(!o.ok && o.cause !== undefined ? { cause: o.cause } : {}) };
    recs.forEach((record, i) => {
      const path = job.paths[i];
      emit({ type: 'finished', record, fromJournal: how === 'journal', replayed: o.ok && o.replayed, ...(path ? { path } : {}), ...extra, ...(reused ? { reused } : {}), ...(job.origin ? { origin: job.origin } : {}) });
    });
    emit({ type: 'progress', progress: meter.snapshot() });
  };

  // Earlier runs' answers first: re-emitted, never resent.
  for (const j of prep.jobs) {
    const d = state?.done.get(j.id);
    if (!isFinished(d)) continue;
    summary.fromJournal++;
    await settle(j, { ...journalOutcome(d!), metadataSent: prep.keepMetadata }, 'journal');
  }
  for (const j of prep.jobs) {
    const a = stored.get(j.id);
    if (!a) continue;
    summary.fromResults++;
    await settle(j, a.outcome, 'results', a.from);
  }

  const journal = prep.journalPath ? (await Journal.open(prep.journalPath, { fresh: Boolean(opts.fresh) })) : undefined;
  if (journal && (!journal.state.head || opts.fresh)) await journal.journal.append({ ...prep.head, created: new Date(deps.now()).toISOString() });
  const budget = { remaining: opts.retryBudget ?? Math.max(10, pending.length) };
  const budgetStart = budget.remaining;
  const counters = { rateLimited: 0 };
  const keys = new Map(state?.keys ?? []);
  if (opts.idempotencyKey !== undefined) keys.set(prep.jobs[0]!.id, opts.idempotencyKey);
  let result;
  const ticker = deps.tickMs ? startTicker(() => emit({ type: 'progress', progress: meter.snapshot() }), deps.tickMs) : undefined;
  try {
    result = await schedule(pending, (job, ctl) => {
      return sendJob(
        {
          client: deps.client, ...(journal ? { journal: journal.journal } : {}), keys, request: requestParams(prep.params), upload: { keepMetadata: prep.keepMetadata },
          cost: DEPTH_COST[prep.params.depth], budget, now: deps.now, ...(deps.signal ? { signal: deps.signal } : {}), emit, counters,
          inFlight: (d) => (meter.inFlight += d),
          finish: async (j, o) => {
            if (o.ok && o.replayed) summary.replayed++;
            await settle(j, o, 'sent');
          },
        },
        job, ctl,
      );
    }, {
      now: deps.now, sleep: deps.sleep, ...(deps.signal ? { signal: deps.signal } : {}), ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
      ...(balance.rateLimit ? { initialRateLimit: balance.rateLimit, initialStartedAt: balance.answeredAt } : {}), onPause: (untilMs) => emit({ type: 'paused', untilMs, reason: 'rate_limited' }),
    });
  } finally {
    ticker?.stop();
    await journal?.journal.close();
  }
  // Inputs never tried because the batch stopped: one record each, so every input has a line.
  if (result.stopped) {
    emit({ type: 'stopped', stop: result.stopped });
    const why = describeStop(result.stopped);
    for (const j of pending) if (!byId.has(j.id)) await settle(j, { ok: false, error: { code: 'not_sent', message: `not sent: ${why}`, final: false } }, 'not_sent');
  }
  // Duplicates: the k-th input naming an image gets that image's k-th record.
  const seen = new Map<string, number>();
  const records = [...skipped, ...prep.order.flatMap((o) => {
    const k = seen.get(o.id) ?? 0;
    seen.set(o.id, k + 1);
    const r = byId.get(o.id)?.[k];
    return r ? [r] : [];
  })];
  return {
    plan,
    records,
    summary: {
      ...summary, ...countRecords(records), creditsSpent: meter.creditsSpent, retriesUsed: budgetStart - budget.remaining, rateLimited: counters.rateLimited,
      elapsedMs: deps.now() - started, concurrency: result.concurrency, ...(result.stopped ? { stopped: result.stopped } : {}),
    },
  };
}
