/**
 * Locating the images on the batch engine, one batch per depth: each depth keeps its own
 * journal and reuses results already paid (journal, then the provenance store), so a rerun of the
 * same evaluation sends nothing. Several depths are one plan: each depth's plan is made first
 * (runBatch --dry-run: the engine's own counting), then --max-credits and consent apply to the
 * total, and only then is anything sent.
 */
import { resolve } from 'node:path';
import type { Depth } from '../../api/schemas.js';
import { consentDeps, requireConsent } from '../../batch/consent.js';
import { spendLimit } from '../../batch/spend-guard.js';
import type { Evidence } from '../../batch/evidence.js';
import type { BatchPlan } from '../../batch/types.js';
import { type BatchDeps, type BatchOptions, type BatchResult, runBatch } from '../../batch/run.js';
import type { BatchEvent } from '../../batch/types.js';
import type { Ctx } from '../../context.js';
import { UsageError } from '../../errors.js';
import { planLine } from '../../output/views/batch.js';
import type { FrameInput } from '../../batch/sources.js';
import type { EvalSettings } from './options.js';
import { clientForPlan } from '../../batch/keyless.js';

export interface DepthRun {
  depth: Depth;
  /** Which of the works (one per photo set with --together; else the only one). */
  work: number;
  result: BatchResult;
}

export type Ran = { dryRun: true; plans: BatchPlan[] } | { dryRun: false; runs: DepthRun[] };

type Say = (line: string) => void;

/** What each depth's batch sends: the images, or the frames of the videos (named by `inputs`). */
export interface EvalWork {
  inputs: string[];
  frames?: FrameInput[];
  /** The inputs are one set of photos of one scene (geo eval --together: one work per set). */
  together?: boolean;
  /** "5 images", "10 frames of 1 video": what the consent prompt names. */
  what: string;
}

function options(s: EvalSettings, work: EvalWork, depth: Depth): BatchOptions {
  return {
    inputs: work.inputs,
    ...(work.frames ? { frames: work.frames } : {}),
    ...(work.together ? { together: true } : {}),
    depth,
    ...(s.effort !== undefined ? { effort: s.effort } : {}),
    ...(s.concurrency !== undefined ? { concurrency: s.concurrency } : {}),
    ...(s.fresh ? { fresh: true } : {}),
    ...(s.downscale ? { downscale: true } : {}),
    ...(s.keepMetadata ? { keepMetadata: true } : {}),
    ...(s.confirmThreshold !== undefined ? { confirmThreshold: s.confirmThreshold } : {}),
    ...(s.store ? {} : { listed: false }),
    // Any image found in a folder is checked against the report too, before anything is sent.
    ...(s.report !== undefined ? { writes: [{ path: resolve(s.report), what: 'the report' }] } : {}),
  };
}

/** --max-credits over every depth: the same refusal as one batch's (plan.ts checkMaxCredits), for the total. */
function checkTotal(plans: readonly BatchPlan[], maxCredits: number | undefined): void {
  const total = plans.reduce((n, p) => n + p.credits, 0);
  if (maxCredits === undefined || total <= maxCredits) return;
  const parts = plans.map((p) => `${p.toSend} × ${p.costPerImage} at depth ${p.depth}`).join(' + ');
  throw new UsageError(`the plan needs up to ${total} credits (${parts}), above --max-credits ${maxCredits}; nothing was sent`, 'raise --max-credits, drop a depth, or give fewer images');
}

/** One plan standing for every depth's, for consent: the total to send and spend against one balance. */
function totalPlan(plans: readonly BatchPlan[]): BatchPlan {
  const first = plans[0]!;
  const credits = plans.reduce((n, p) => n + p.credits, 0);
  const insufficient = first.available !== undefined && credits > first.available;
  return { ...first, toSend: plans.reduce((n, p) => n + p.toSend, 0), credits, insufficient, needsConfirm: credits > first.confirmThreshold || insufficient };
}

/**
 * Every work (its own batch) at every depth. One work at one depth plans, asks and sends as locate
 * does; otherwise every plan is made first and consent covers their total.
 */
export async function locateDepths(ctx: Ctx, s: EvalSettings, works: readonly EvalWork[], hooks: { evidence: Evidence; say: Say; onEvent: (depth: Depth, e: BatchEvent) => void; caseId?: string }): Promise<Ran> {
  const client = clientForPlan(() => ctx.client(), () => ctx.resolved().baseUrl.value, s.dryRun);
  const account = await ctx.account();
  const store = await ctx.storeApi();
  const what = `${works.length === 1 ? works[0]!.what : `${works.length} sets of photos`} at depth ${s.depths.join(', ')}`;
  const deps = (depth: Depth, consent: Pick<BatchDeps, 'confirm' | 'noPrompt'>): BatchDeps => ({
    client, env: ctx.env, now: ctx.now, sleep: ctx.sleep, signal: ctx.signal, cwd: resolve('.'),
    exif: hooks.evidence.exif, ...(account !== undefined ? { account } : {}), store, version: ctx.version, origin: ctx.serviceId(), ...(hooks.caseId !== undefined ? { caseId: hooks.caseId } : {}), ...consent, ...(ctx.frugalMemory ? { frugalMemory: ctx.frugalMemory } : {}),
    onEvent: (e) => {
      if (e.type === 'plan' && e.plan.toSend > 0 && s.depths.length === 1 && works.length === 1 && !s.dryRun) hooks.say(`plan: ${planLine(e.plan, { balance: false })}`);
      hooks.evidence.onEvent(e);
      hooks.onEvent(depth, e);
    },
  });
  // One batch, sent: the engine plans, asks and sends as it does for locate.
  if (s.depths.length === 1 && works.length === 1 && !s.dryRun) {
    const depth = s.depths[0]!;
    const result = await runBatch(deps(depth, consentDeps(ctx, what)), { ...options(s, works[0]!, depth), ...(s.maxCredits !== undefined ? { maxCredits: s.maxCredits } : {}), ...(ctx.globals.yes ? { yes: true } : {}) });
    return { dryRun: false, runs: [{ depth, work: 0, result }] };
  }
  // Several batches (or a dry run): every plan first, from the engine's dry run, which sends nothing.
  const units = s.depths.flatMap((depth) => works.map((w, work) => ({ depth, work, w })));
  const plans: BatchPlan[] = [];
  for (const u of units) {
    // Its notices are the real run's too: shown once, by the run (or here, when nothing runs).
    const quiet = { ...deps(u.depth, {}), onEvent: (e: BatchEvent) => s.dryRun && e.type === 'notice' && hooks.say(e.message) };
    plans.push((await runBatch(quiet, { ...options(s, u.w, u.depth), dryRun: true })).plan);
  }
  checkTotal(plans, s.maxCredits);
  if (s.dryRun) return { dryRun: true, plans };
  const total = totalPlan(plans);
  if (total.toSend > 0) {
    plans.forEach((p, i) => hooks.say(`plan, depth ${p.depth}${works.length > 1 ? `, ${units[i]!.w.what}` : ''}: ${planLine(p, { balance: false })}`));
    hooks.say(`plan, all ${works.length > 1 ? 'sets and depths' : 'depths'}: up to ${total.credits} credit${total.credits === 1 ? '' : 's'}`);
  }
  const consent = consentDeps(ctx, what);
  await requireConsent(total, { yes: ctx.globals.yes, maxCredits: s.maxCredits, ...consent });
  const runs: DepthRun[] = [];
  // The budget consent covered, kept against what the service charges across every batch (batch/spend-guard.ts).
  const limit = spendLimit({ maxCredits: s.maxCredits, yes: ctx.globals.yes, planCredits: total.credits, threshold: total.confirmThreshold });
  let spent = 0;
  for (const u of units) {
    // Consent covered the total: each batch goes ahead without asking again, within what is left of it.
    const left = limit ? { spendLimit: { credits: limit.credits - spent, what: `what is left (${limit.credits - spent}) of ${limit.what}` } } : {};
    const result = await runBatch(deps(u.depth, {}), { ...options(s, u.w, u.depth), yes: true, ...left });
    spent += result.summary.creditsSpent;
    runs.push({ depth: u.depth, work: u.work, result });
    if (result.summary.stopped) break;
  }
  return { dryRun: false, runs };
}
