/**
 * Several batches as one plan (a claim check's unscoped batch beside one scoped batch per
 * claimed place, at one depth or several; the pattern `geo eval` follows for its depths): each
 * batch is planned first by the engine's own dry run (nothing sent), --max-credits is checked
 * against their total and consent asked once for it, then each batch runs without asking again,
 * within what is left of the budget consented to (spend-guard.ts). One batch alone plans, asks and
 * sends exactly as `geo locate` does.
 */
import { UsageError } from '../errors.js';
import { planLine } from '../output/views/batch.js';
import { type Consent, requireConsent } from './consent.js';
import type { BudgetName } from './plan.js';
import { type BatchDeps, type BatchOptions, type BatchResult, runBatch } from './run.js';
import { spendLimit } from './spend-guard.js';
import type { BatchEvent, BatchPlan } from './types.js';

/** One batch: its request options (inputs, depth, scope…) and how the plan line names it. */
export interface Unit {
  options: BatchOptions;
  /** "depth 1", "depth 1, scoped to Kharkiv (20 km)". */
  label: string;
}

export interface UnitsOptions {
  maxCredits?: number;
  budgetName?: BudgetName;
  yes?: boolean;
  dryRun?: boolean;
  confirmThreshold?: number;
  /** How consent is asked (a prompt on a terminal, or why none can be). */
  consent: Consent;
  /** What consent names ("12 claims at depth 1"). */
  what: string;
  /** The engine's deps for one unit (onEvent included); consent fields are added here. */
  deps: (unit: number) => BatchDeps;
  /** Plan lines and notices for stderr. */
  say: (line: string) => void;
  /** Every event of every unit, plan events excepted (the plan lines are said here). */
  onEvent?: (unit: number, e: BatchEvent) => void;
}

export type UnitsRan = { dryRun: true; plans: BatchPlan[] } | { dryRun: false; runs: BatchResult[]; plans: BatchPlan[] };

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** The plan line of a run: "plan: …" for one batch; one line per batch and their total for several. */
function planLines(units: readonly Unit[], plans: readonly BatchPlan[], say: (l: string) => void): void {
  const total = plans.reduce((n, p) => n + p.credits, 0);
  if (plans.every((p) => p.toSend === 0)) return;
  if (plans.length === 1) return say(`plan: ${planLine(plans[0]!, { balance: false })}`);
  plans.forEach((p, i) => say(`plan, ${units[i]!.label}: ${planLine(p, { balance: false })}`));
  say(`plan, all batches: up to ${plural(total, 'credit')}`);
}

/** --max-credits over every batch: the refusal one batch gives (plan.ts checkMaxCredits), for the total. */
function checkTotal(plans: readonly BatchPlan[], o: UnitsOptions): void {
  const total = plans.reduce((n, p) => n + p.credits, 0);
  if (o.maxCredits === undefined || total <= o.maxCredits) return;
  const parts = plans.filter((p) => p.toSend > 0).map((p) => `${p.toSend} × ${p.costPerImage} at depth ${p.depth}`).join(' + ');
  throw new UsageError(`the plan needs up to ${total} credits (${parts}), above ${o.budgetName?.what ?? `--max-credits ${o.maxCredits}`}; nothing was sent`, `${o.budgetName?.raise ?? 'raise --max-credits'}, lower --depth, drop --scoped, or check fewer claims`);
}

/** One plan standing for every batch's, for consent: the total to send against one balance. */
function totalPlan(plans: readonly BatchPlan[]): BatchPlan {
  const first = plans[0]!;
  const credits = plans.reduce((n, p) => n + p.credits, 0);
  const insufficient = first.available !== undefined && credits > first.available;
  return { ...first, toSend: plans.reduce((n, p) => n + p.toSend, 0), credits, insufficient, needsConfirm: credits > first.confirmThreshold || insufficient };
}

export async function runUnits(units: readonly Unit[], o: UnitsOptions): Promise<UnitsRan> {
  const withEvents = (i: number, extra: Partial<BatchDeps> = {}): BatchDeps => {
    const d = o.deps(i);
    return { ...d, ...extra, onEvent: (e) => {
      d.onEvent?.(e);
      if (e.type !== 'plan') o.onEvent?.(i, e);
    } };
  };
  const shared = { ...(o.confirmThreshold !== undefined ? { confirmThreshold: o.confirmThreshold } : {}) };
  // One batch, sent: the engine plans, asks and sends as it does for locate.
  if (units.length === 1 && !o.dryRun) {
    let plan: BatchPlan | undefined;
    const d = withEvents(0, { ...o.consent });
    const result = await runBatch({ ...d, onEvent: (e) => {
      if (e.type === 'plan') planLines(units, [(plan = e.plan)], o.say);
      d.onEvent?.(e);
    } }, {
      ...units[0]!.options, ...shared, ...(o.maxCredits !== undefined ? { maxCredits: o.maxCredits } : {}), ...(o.budgetName ? { budgetName: o.budgetName } : {}), ...(o.yes ? { yes: true } : {}),
    });
    return { dryRun: false, runs: [result], plans: [plan ?? result.plan] };
  }
  // Every plan first, from the engine's dry run (which sends nothing); its notices are the real run's too.
  const plans: BatchPlan[] = [];
  for (const [i, u] of units.entries()) {
    const d = o.deps(i);
    const quiet: BatchDeps = { ...d, onEvent: (e) => o.dryRun && e.type === 'notice' && o.say(e.message) };
    plans.push((await runBatch(quiet, { ...u.options, ...shared, dryRun: true })).plan);
  }
  checkTotal(plans, o);
  if (o.dryRun) return { dryRun: true, plans };
  planLines(units, plans, o.say);
  const total = totalPlan(plans);
  await requireConsent(total, { yes: o.yes, maxCredits: o.maxCredits, ...o.consent });
  // The budget consent covered, kept against what the service charges across every batch.
  const limit = spendLimit({ maxCredits: o.maxCredits, maxCreditsName: o.budgetName?.what, yes: o.yes, planCredits: total.credits, threshold: total.confirmThreshold });
  const runs: BatchResult[] = [];
  let spent = 0;
  for (const [i, u] of units.entries()) {
    const left = limit ? { spendLimit: { credits: limit.credits - spent, what: `what is left (${limit.credits - spent}) of ${limit.what}` } } : {};
    const result = await runBatch(withEvents(i), { ...u.options, ...shared, yes: true, ...left });
    spent += result.summary.creditsSpent;
    runs.push(result);
    if (result.summary.stopped) break;
  }
  return { dryRun: false, runs, plans };
}
