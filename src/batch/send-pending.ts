/**
 * runBatch's sending (run.ts): the jobs the store holds no answer for go through the scheduler
 * (scheduler.ts, paced to the rate limit) to sendJob (worker.ts), which claims, sends, stores and
 * journals each, spending from one retry budget shared by the batch.
 */
import { DEPTH_COST } from '../api/schemas.js';
import { Journal } from './journal.js';
import type { PlannedBatch } from './plan-batch.js';
import { type ProgressMeter, startTicker } from './progress.js';
import { answerRecord } from './provenance.js';
import type { BatchDeps, BatchOptions } from './run-options.js';
import { type SchedulerResult, schedule } from './scheduler.js';
import type { Settle } from './settle.js';
import type { SpendGuard } from './spend-guard.js';
import type { BatchEvent, BatchSummary } from './types.js';
import { sendJob } from './worker.js';

export interface Sending {
  /** When the run started (the journal's head says so). */
  started: number;
  spend: SpendGuard;
  summary: BatchSummary;
  meter: ProgressMeter;
  settle: Settle;
  emit: (e: BatchEvent) => void;
}

/** What the scheduler returned, and what the sending spent of the retries and met of 429s. */
export interface Sent {
  result: SchedulerResult;
  readonly retriesUsed: number;
  readonly rateLimited: number;
}

export async function sendPending(deps: BatchDeps, opts: BatchOptions, p: PlannedBatch, s: Sending): Promise<Sent> {
  const { prep, ledger, request, pending, balance } = p;
  const { started, spend, summary, meter, settle, emit } = s;
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
          ...(deps.stopSending ? { stopSending: deps.stopSending } : {}), ...(deps.caseId !== undefined ? { caseId: deps.caseId } : {}), emit, counters, listed: opts.listed !== false, hashes: p.hashes,
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
  return {
    result,
    get retriesUsed() {
      return budgetStart - budget.remaining;
    },
    get rateLimited() {
      return counters.rateLimited;
    },
  };
}
