/**
 * runBatch: inputs -> plan -> consent -> claims -> scheduler -> one record per input.
 * Records are handed to onEvent as each request finishes (the command writes and flushes one
 * NDJSON line per record); the returned list is the skipped inputs, then the rest in input order.
 * Every answer is committed to the store (src/store/) with its claim before onEvent sees it.
 */
import { Readable } from 'node:stream';
import { DEPTH_COST, type Depth, type Effort, type Scope } from '../api/schemas.js';
import { UsageError } from '../errors.js';
import type { StoreApi } from '../store/index.js';
import { countRecords, skippedRecord } from './accounting.js';
import { type Balance, readBalance } from './balance.js';
import { requireConsent } from './consent.js';
import { loadSharp } from './convert.js';
import { Journal } from './journal.js';
import { Ledger } from './ledger.js';
import { describeStop } from './outcome.js';
import { type BudgetName, type RequestPreview, DEFAULT_CONFIRM_THRESHOLD, buildPlan, checkMaxCredits, previewRequests, requestParams } from './plan.js';
import { prepareBatch } from './prepare.js';
import { ProgressMeter, startTicker } from './progress.js';
import { answerRecord } from './provenance.js';
import { type ExifHook, recordsFor } from './records.js';
import { heldAnswers } from './reuse.js';
import { schedule } from './scheduler.js';
import { type SpendLimit, SpendGuard, spendLimit } from './spend-guard.js';
import type { FrameInput, Job } from './sources.js';
import type { BatchEvent, BatchPlan, BatchRecord, BatchSummary, JobOutcome, ReusedFrom, SettledHow } from './types.js';
import { otherKeyLine } from './wait-claim.js';
import { type BatchClient, sendJob } from './worker.js';

export interface BatchDeps {
  client: BatchClient;
  env: Record<string, string | undefined>;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  /** Aborted when no new request may start (stdout closed); requests in flight finish and are stored. */
  stopSending?: AbortSignal;
  /** --case: the case whose spend this is, named with each reservation (geo store budget show, by case). */
  caseId?: string;
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
  /** accountFingerprint of the client's key: claims and results are this account's only. */
  account?: string;
  /**
   * The service's identity for claims and reuse (default the client's base URL). `--sandbox` starts
   * a sandbox on a new port each run, so it passes one name for all of them (Ctx.serviceId).
   */
  origin?: string;
  /** The store: claims, results, batch heads (the local file or a team's server). */
  store: StoreApi;
  /** Called between phases once the inputs number LARGE_BATCH or more (Runtime.frugalMemory). */
  frugalMemory?: () => void;
  /** geo's version, for the provenance records. */
  version: string;
  /** A 'progress' event every this many ms while requests run (a terminal's live line); default none. */
  tickMs?: number;
}

export interface BatchOptions {
  inputs: string[];
  fromFile?: string;
  /** Default: the --resume batch's depth, else 1. */
  depth?: Depth;
  effort?: Effort;
  scope?: Scope;
  batchId?: string;
  model?: string;
  async?: boolean;
  /** One input only: the key to send it with (the caller's own idempotency, e.g. a case number). */
  idempotencyKey?: string;
  concurrency?: number;
  /** --journal FILE: the batch written there too; false or absent: the store only. */
  journal?: string | false;
  /** --resume FILE or batch id. */
  resume?: string;
  /** Ignore what the store holds (but requests still in flight): send again, with new keys. */
  fresh?: boolean;
  maxCredits?: number;
  /**
   * The budget kept while sending, when the caller decides it (geo eval: what is left of the
   * consent given for all its batches); default from maxCredits, yes and the plan (spend-guard.ts).
   */
  spendLimit?: SpendLimit;
  /** Who set maxCredits, for the refusal (default: --max-credits). */
  budgetName?: BudgetName;
  /** Consent to the plan whatever its cost (--yes). */
  yes?: boolean;
  confirmThreshold?: number;
  dryRun?: boolean;
  downscale?: boolean;
  /** Send files with their metadata (default: removed before upload). Undefined: a resumed batch decides. */
  keepMetadata?: boolean;
  /** false (--no-store): answers are kept for their claims only, not listed in history or exports. */
  listed?: boolean;
  /**
   * false: every record goes out as a 'finished' event and is not kept for the result (records
   * come back empty; the summary still counts them). What a run printing one line per input uses,
   * so 100,000 inputs never hold 100,000 answers.
   */
  keepRecords?: boolean;
  /** Retries shared by the whole batch; default max(10, requests to send). */
  retryBudget?: number;
  /** A video's frames, made in memory; `inputs` then names the videos (the journal's command). */
  frames?: FrameInput[];
  /** --together: the inputs are one set of photos of one scene. */
  together?: boolean;
  /** Files written after the run (--report): refused before anything is sent if one is an input (prepare.ts). */
  writes?: ReadonlyArray<{ path: string; what: string }>;
}

export interface BatchResult {
  plan: BatchPlan;
  records: BatchRecord[];
  /** --dry-run: each request as it would be sent, made when read (plan.ts previewRequests). */
  previews?: AsyncIterable<RequestPreview>;
  summary: BatchSummary;
}

export async function runBatch(deps: BatchDeps, opts: BatchOptions): Promise<BatchResult> {
  const emit = (e: BatchEvent) => deps.onEvent?.(e);
  const started = deps.now();
  const store = deps.store;
  const prep = await prepareBatch({
    args: opts.inputs, cwd: deps.cwd, stdin: deps.stdin ?? Readable.from([]), env: deps.env, baseUrl: deps.client.baseUrl, ...(deps.account !== undefined ? { account: deps.account } : {}),
    params: { ...(opts.depth !== undefined ? { depth: opts.depth } : {}), ...(opts.effort ? { effort: opts.effort } : {}), ...(opts.scope ? { scope: opts.scope } : {}), ...(opts.batchId ? { batch_id: opts.batchId } : {}), ...(opts.model ? { model: opts.model } : {}), ...(opts.async ? { async: true } : {}) },
    ...(opts.fromFile !== undefined ? { fromFile: opts.fromFile } : {}),
    ...(opts.journal !== undefined ? { journal: opts.journal } : {}),
    ...(opts.resume !== undefined ? { resume: opts.resume } : {}),
    ...(opts.downscale ? { downscale: true } : {}),
    ...(opts.keepMetadata !== undefined ? { keepMetadata: opts.keepMetadata } : {}),
    ...(opts.fresh ? { fresh: true } : {}),
    store,
    ...(deps.frugalMemory ? { frugalMemory: deps.frugalMemory } : {}),
    ...(opts.frames ? { frames: opts.frames } : {}),
    ...(opts.together ? { together: true } : {}),
    ...(opts.writes ? { writes: opts.writes } : {}),
  });
  const n = prep.order.length;
  const inputs = n + prep.skipped.length;
  if (opts.idempotencyKey !== undefined && n !== 1) throw new UsageError(`--idempotency-key names one request, but there are ${n} inputs`, 'give one input, or leave the keys to geo');
  for (const s of prep.skipped) emit({ type: 'notice', message: `skipped ${s.path}: ${s.reason}` });
  if (prep.notice) emit({ type: 'notice', message: prep.notice });
  // --fresh: only what is answered from now on is this batch's (a resume keeps that time).
  const since = opts.fresh ? started : prep.since;
  const request = requestParams(prep.params);
  const ledger = new Ledger({
    store, ...(deps.account !== undefined ? { account: deps.account } : {}), origin: deps.origin ?? deps.client.baseUrl, batch: prep.batch,
    keepMetadata: prep.keepMetadata, downscale: Boolean(opts.downscale), request, async: Boolean(opts.async), ...(since !== undefined ? { since } : {}),
  });
  const held = await heldAnswers(prep.jobs, ledger);
  if (held.legacy > 0) emit({ type: 'notice', message: `${held.legacy === 1 ? 'an answer' : `${held.legacy} answers`} of a journal that predates account fingerprints ${held.legacy === 1 ? 'is' : 'are'} not re-emitted but resent with ${held.legacy === 1 ? 'its key' : 'their keys'} (the service replays ${held.legacy === 1 ? 'it' : 'them'} free for the account that paid)` });
  const pending = prep.jobs.filter((j) => !held.answers.has(j.id));

  checkMaxCredits(pending.length, prep.params.depth, opts.maxCredits, opts.budgetName);
  // The balance (balance.ts); one image that cannot need a confirmation skips the read.
  const mayConfirm = pending.length * DEPTH_COST[prep.params.depth] > (opts.confirmThreshold ?? DEFAULT_CONFIRM_THRESHOLD);
  const balance: Balance = pending.length > 1 || (pending.length === 1 && (opts.dryRun || mayConfirm))
    ? await readBalance(deps.client, deps.now, (message) => emit({ type: 'notice', message }), Boolean(opts.dryRun))
    : {};
  const { available } = balance;
  const plan = buildPlan({
    jobs: prep.jobs, inputs, skipped: prep.skipped.map((s) => ({ input: s.path, reason: s.reason })), params: prep.params,
    ...(prep.journalPath ? { journal: prep.journalPath } : {}), batch: prep.batch,
    ...(available !== undefined ? { available } : {}),
    held: new Map([...held.answers].map(([id, h]) => [id, h.how])),
    elsewhere: new Set([...held.open].filter(([, o]) => o.elsewhere).map(([id]) => id)),
    damaged: new Set(held.damaged.keys()),
    ...(opts.confirmThreshold !== undefined ? { confirmThreshold: opts.confirmThreshold } : {}),
    ...(opts.maxCredits !== undefined ? { maxCredits: opts.maxCredits } : {}),
    ...(opts.budgetName ? { budgetName: opts.budgetName } : {}),
  });
  if (plan.conversions > 0) await loadSharp(`converting or downscaling ${plan.conversions} image(s)`);
  emit({ type: 'plan', plan });
  for (const [id, files] of held.damaged) {
    const job = prep.jobs.find((j) => j.id === id);
    emit({ type: 'notice', message: `${job?.inputs[0] ?? id}: its only stored record is damaged (${files[0]}); it may have been paid for, so sending it again asks first` });
  }
  if (plan.insufficient) emit({ type: 'notice', message: `the plan needs up to ${plan.credits} credits but ${plan.available} are available; the batch stops at the first 402` });
  const meter = new ProgressMeter(inputs, pending.length, deps.now);
  const summary: BatchSummary = {
    inputs, unique: prep.jobs.length, ok: 0, failed: 0, notSent: 0, inFlight: 0, skipped: 0, fromJournal: 0, fromResults: 0, fromOthers: 0, unstored: 0, replayed: 0,
    creditsSpent: 0, retriesUsed: 0, rateLimited: 0, elapsedMs: 0, concurrency: 0, batch: prep.batch, ...(prep.journalPath ? { journal: prep.journalPath } : {}),
  };
  if (opts.dryRun) {
    // Made as the output reads them (plan.ts): nothing is held for 100,000 inputs.
    const previews = previewRequests(pending, prep.params, deps.client.baseUrl, new Map([...held.open].map(([id, o]) => [id, o.key])), { keepMetadata: prep.keepMetadata });
    return { plan, records: [], previews, summary: { ...summary, elapsedMs: deps.now() - started } };
  }
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

  /** Each settled job's records (none kept without keepRecords: settled is all it then says). */
  const byId = new Map<string, BatchRecord[]>();
  const NOT_KEPT: BatchRecord[] = [];
  /** `how`: answered now, by an earlier run of this batch, by a stored result, by another process, or never sent. */
  const settle = async (job: Job, o: JobOutcome, how: SettledHow, reused?: ReusedFrom) => {
    const recs = await recordsFor(job, o, deps.exif);
    byId.set(job.id, keep ? recs : NOT_KEPT);
    countRecords(recs, counts);
    if (how === 'not_sent') meter.recordNotSent(recs.length);
    if (how !== 'sent') meter.recordSkipped(recs.length, o.ok);
    else meter.record(recs.length, o.ok, o.credits ?? 0);
    if (how === 'others') summary.fromOthers++;
    if (o.storeError) summary.unstored++;
    // The EXIF check reads the file again after the answer: added to the stored record now.
    if (how === 'sent' && o.stored && recs[0]?.exif) {
      try {
        await store.setExif(o.stored.id, recs[0].exif);
      } catch {
        // The answer is stored; only its EXIF check is missing (geo inspect recomputes it).
      }
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
      });
    });
    emit({ type: 'progress', progress: meter.snapshot() });
  };

  // Earlier answers first: re-emitted, never resent (read from the store one at a time).
  for (const j of prep.jobs) {
    const h = held.answers.get(j.id);
    if (!h) continue;
    const outcome = (await ledger.settled(h)) ?? { ok: false as const, error: { code: 'missing_answer', message: 'its stored answer could not be read back', final: false } };
    if (h.how === 'journal') summary.fromJournal++;
    else summary.fromResults++;
    if (h.how === 'results' && h.from?.paidBy !== undefined) summary.fromColleagues = (summary.fromColleagues ?? 0) + 1;
    // The caller's own key, for a request answered under another: not sent, and said so.
    const answeredUnder = outcome.response?.idempotencyKey;
    if (opts.idempotencyKey !== undefined && answeredUnder !== opts.idempotencyKey) emit({ type: 'notice', message: otherKeyLine(j.inputs[0]!, 'reused', answeredUnder, opts.idempotencyKey) });
    await settle(j, outcome, h.how, h.how === 'results' ? h.from : undefined);
  }

  const journal = prep.journalPath && opts.journal !== false ? (await Journal.open(prep.journalPath, { fresh: Boolean(opts.fresh) })) : undefined;
  if (journal && (!journal.state.head || opts.fresh)) await journal.journal.append({ ...prep.head, created: new Date(started).toISOString(), ...(opts.fresh ? { fresh_since: new Date(started).toISOString() } : {}) });
  const budget = { remaining: opts.retryBudget ?? Math.max(10, pending.length) };
  const budgetStart = budget.remaining;
  const counters = { rateLimited: 0 };
  let waitSaid = false;
  const recordCtx = { request, baseUrl: deps.client.baseUrl, ...(deps.account !== undefined ? { account: deps.account } : {}), version: deps.version, now: deps.now };
  let result;
  const ticker = deps.tickMs ? startTicker(() => emit({ type: 'progress', progress: meter.snapshot() }), deps.tickMs) : undefined;
  try {
    result = await schedule(pending, (job, ctl) => {
      return sendJob(
        {
          client: deps.client, ledger, ...(journal ? { journal: journal.journal } : {}), request, upload: { keepMetadata: prep.keepMetadata },
          ...(opts.idempotencyKey !== undefined ? { userKey: opts.idempotencyKey } : {}),
          cost: DEPTH_COST[prep.params.depth], budget, spend, now: deps.now, sleep: deps.sleep, ...(deps.signal ? { signal: deps.signal } : {}),
          ...(deps.stopSending ? { stopSending: deps.stopSending } : {}), ...(deps.caseId !== undefined ? { caseId: deps.caseId } : {}), emit, counters, listed: opts.listed !== false,
          record: (j, facts) => answerRecord(recordCtx, j, facts),
          inFlight: (d) => (meter.inFlight += d),
          onWait: () => {
            if (waitSaid) return;
            waitSaid = true;
            emit({ type: 'notice', message: 'another geo process is sending some of these images: waiting for its answers instead of paying again' });
          },
          finish: async (j, o, how) => {
            if (o.ok && o.replayed) summary.replayed++;
            await settle(j, o, how);
          },
        },
        job, ctl,
      );
    }, {
      now: deps.now, sleep: deps.sleep, ...(deps.signal ? { signal: deps.signal } : {}), ...(deps.stopSending ? { stop: deps.stopSending } : {}), ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
      ...(balance.rateLimit ? { initialRateLimit: balance.rateLimit, initialStartedAt: balance.answeredAt, initialRefused: balance.refused === true } : {}), onPause: (untilMs) => emit({ type: 'paused', untilMs, reason: 'rate_limited' }),
      onWait: (untilMs, why) => emit({ type: 'waiting', untilMs, why }),
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
  const records = !keep ? [] : [...skipped, ...prep.order.flatMap((id) => {
    const k = seen.get(id) ?? 0;
    seen.set(id, k + 1);
    const r = byId.get(id)?.[k];
    return r ? [r] : [];
  })];
  return {
    plan,
    records,
    summary: {
      ...summary, ...counts, creditsSpent: meter.creditsSpent, retriesUsed: budgetStart - budget.remaining, rateLimited: counters.rateLimited,
      elapsedMs: deps.now() - started, concurrency: result.concurrency, ...(result.stopped ? { stopped: result.stopped } : {}),
    },
  };
}
