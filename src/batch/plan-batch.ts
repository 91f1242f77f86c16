/**
 * runBatch's first half (run.ts): from the arguments to the plan, nothing sent. The inputs read
 * (prepare.ts), what the store already holds for them (reuse.ts), which of the others look like
 * photos located before (similar.ts: each image hashed once, here), the balance when the plan needs
 * it (balance.ts), and the plan, told with its notices.
 */
import { Readable } from 'node:stream';
import { DEPTH_COST } from '../api/schemas.js';
import { UsageError } from '../errors.js';
import { type Balance, readBalance } from './balance.js';
import { loadSharp } from './convert.js';
import { Ledger } from './ledger.js';
import { DEFAULT_CONFIRM_THRESHOLD, buildPlan, checkMaxCredits, requestParams } from './plan.js';
import { type Prepared, prepareBatch } from './prepare.js';
import { type HeldAnswers, heldAnswers } from './reuse.js';
import type { BatchDeps, BatchOptions } from './run-options.js';
import { type SimilarAnswer, hashJobs, similarAnswers } from './similar.js';
import type { Pdq } from '../image/pdq.js';
import type { Job } from './sources.js';
import type { BatchEvent, BatchPlan } from './types.js';
import { serviceFetchNotice } from './url-inputs.js';

export interface PlannedBatch {
  prep: Prepared;
  /** Every input, skipped ones included. */
  inputs: number;
  /** What goes into every request besides the image (plan.ts requestParams). */
  request: Record<string, unknown>;
  ledger: Ledger;
  held: HeldAnswers;
  /** The jobs the store holds no answer for: the ones to send. */
  pending: Job[];
  /** Each image's perceptual hash, made once for the plan (job id -> hash): kept when it is sent. */
  hashes: ReadonlyMap<string, Pdq>;
  /** Jobs that look like photos located before (job id -> the earlier result); --reuse-similar takes these answers. */
  similar: ReadonlyMap<string, SimilarAnswer>;
  /** The jobs answered by an earlier result's answer instead of being sent (--reuse-similar). */
  reuse: ReadonlyMap<string, SimilarAnswer>;
  balance: Balance;
  plan: BatchPlan;
}

/** From this many images on, the plan says it is hashing them (a moment per image, before the plan line). */
const SAY_HASHING = 50;

export async function planBatch(deps: BatchDeps, opts: BatchOptions, started: number, emit: (e: BatchEvent) => void): Promise<PlannedBatch> {
  const store = deps.store;
  const prep = await prepareBatch({
    args: opts.inputs, cwd: deps.cwd, stdin: deps.stdin ?? Readable.from([]), env: deps.env, baseUrl: deps.client.baseUrl, ...(deps.account !== undefined ? { account: deps.account } : {}),
    params: { ...(opts.depth !== undefined ? { depth: opts.depth } : {}), ...(opts.effort ? { effort: opts.effort } : {}), ...(opts.scope ? { scope: opts.scope } : {}), ...(opts.batchId ? { batch_id: opts.batchId } : {}), ...(opts.model ? { model: opts.model } : {}), ...(opts.async ? { async: true } : {}) },
    ...(opts.fromFile !== undefined ? { fromFile: opts.fromFile } : {}),
    ...(opts.journal !== undefined ? { journal: opts.journal } : {}),
    ...(opts.resume !== undefined ? { resume: opts.resume } : {}),
    ...(opts.downscale ? { downscale: true } : {}),
    ...(opts.keepMetadata !== undefined ? { keepMetadata: opts.keepMetadata } : {}),
    ...(opts.serviceFetch !== undefined ? { serviceFetch: opts.serviceFetch } : {}),
    now: deps.now, ...(deps.signal ? { signal: deps.signal } : {}),
    ...(opts.fresh ? { fresh: true } : {}),
    store,
    ...(deps.frugalMemory ? { frugalMemory: deps.frugalMemory } : {}),
    ...(opts.frames ? { frames: opts.frames } : {}),
    ...(opts.together ? { together: true } : {}),
    ...(opts.writes ? { writes: opts.writes } : {}),
  });
  try {
    return await planPrepared(deps, opts, started, emit, prep);
  } catch (err) {
    await prep.fetchedFiles.remove();
    throw err;
  }
}

async function planPrepared(deps: BatchDeps, opts: BatchOptions, started: number, emit: (e: BatchEvent) => void, prep: Prepared): Promise<PlannedBatch> {
  const store = deps.store;
  const n = prep.order.length;
  const inputs = n + prep.skipped.length;
  if (opts.idempotencyKey !== undefined && n !== 1) throw new UsageError(`--idempotency-key names one request, but there are ${n} inputs`, 'give one input, or leave the keys to geo');
  for (const s of prep.skipped) emit({ type: 'notice', message: `skipped ${s.path}: ${s.reason}` });
  if (prep.notice) emit({ type: 'notice', message: prep.notice });
  const byService = prep.jobs.filter((j) => j.source.kind === 'url').length;
  if (byService > 0) emit({ type: 'notice', message: serviceFetchNotice(byService) });
  // --fresh: only what is answered from now on is this batch's (a resume keeps that time).
  const since = opts.fresh ? started : prep.since;
  const request = requestParams(prep.params);
  const ledger = new Ledger({
    store, ...(deps.account !== undefined ? { account: deps.account } : {}), origin: deps.origin ?? deps.client.baseUrl, batch: prep.batch,
    keepMetadata: prep.keepMetadata, downscale: Boolean(opts.downscale), request, async: Boolean(opts.async), ...(since !== undefined ? { since } : {}),
  });
  const held = await heldAnswers(prep.jobs, ledger);
  if (held.legacy > 0) emit({ type: 'notice', message: `${held.legacy === 1 ? 'an answer' : `${held.legacy} answers`} of a journal that predates account fingerprints ${held.legacy === 1 ? 'is' : 'are'} not re-emitted but resent with ${held.legacy === 1 ? 'its key' : 'their keys'} (the service replays ${held.legacy === 1 ? 'it' : 'them'} free for the account that paid)` });
  const unanswered = prep.jobs.filter((j) => !held.answers.has(j.id));
  // A request in flight or a damaged record may have been paid: those go on as they are.
  const fresh = unanswered.filter((j) => !held.open.has(j.id) && !held.damaged.has(j.id));
  // Nothing to find copies of (an empty store, or --fresh): the hashes are made before each upload
  // instead, and a dry run costs no decoding.
  const looking = ledger.reusing && (await store.count()) > 0;
  if (looking && fresh.length >= SAY_HASHING) emit({ type: 'notice', message: `hashing ${fresh.length} images to find copies of photos located before` });
  const hashes = looking ? await hashJobs(store, unanswered) : new Map<string, Pdq>();
  const similar = await similarAnswers(fresh, hashes, ledger);
  const reuse = opts.reuseSimilar ? similar : new Map<string, SimilarAnswer>();
  const pending = unanswered.filter((j) => !reuse.has(j.id));

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
    similar: new Set(similar.keys()), reuseSimilar: Boolean(opts.reuseSimilar),
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
  return { prep, inputs, request, ledger, held, pending, hashes, similar, reuse, balance, plan };
}
