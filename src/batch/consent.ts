/**
 * Consent before spending (DESIGN.md "never pay silently"). A plan above the confirm
 * threshold, or above the balance, is sent only with consent: --yes, a --max-credits budget that
 * covers it, or a yes at a prompt. Where nothing can ask (stdin or stderr piped, --no-input, CI),
 * the plan is refused before a single geolocate is sent, the way `terraform apply` refuses without
 * -auto-approve: silence is not consent. What consent covers is then kept while sending, against
 * what the service actually charges (spend-guard.ts).
 */
import { DeclinedError, UsageError } from '../errors.js';
import { type IO, noPromptReason } from '../output/io.js';
import type { BatchPlan } from './types.js';

export interface ConsentInput {
  /** --yes. */
  yes?: boolean | undefined;
  maxCredits?: number | undefined;
  /** Present when a prompt can be shown; false means no. */
  confirm?: ((plan: BatchPlan) => Promise<boolean>) | undefined;
  /** Why no prompt can be shown ("stdin is not a terminal"), for the refusal. */
  noPrompt?: string | undefined;
}

/** Why the plan needs consent, in words ("above the confirm threshold of 20"). */
export function overWhat(plan: Pick<BatchPlan, 'insufficient' | 'available' | 'confirmThreshold' | 'credits'> & { damaged?: number }): string {
  if (plan.insufficient) return `more than the balance of ${plan.available}`;
  if (plan.credits <= plan.confirmThreshold && plan.damaged) return `${plan.damaged === 1 ? 'an image whose only stored record is' : `${plan.damaged} images whose only stored records are`} damaged, so it may pay again for what was paid`;
  return `above the confirm threshold of ${plan.confirmThreshold}`;
}

/** A prompt to ask with, or why there is none. */
export type Consent = { confirm: (plan: BatchPlan) => Promise<boolean> } | { noPrompt: string };

/** What a command can ask with (the slice of its Ctx consent needs). */
export interface Asker {
  interactive: boolean;
  prompt: { confirm(message: string, def?: boolean): Promise<boolean> };
  io: IO;
  env: Record<string, string | undefined>;
  globals: { input?: boolean };
}

/**
 * How a command gets consent, for runBatch: a prompt on a terminal (naming `what` is spent, when
 * given); elsewhere, why nothing can ask, for the refusal.
 */
export function consentDeps(ctx: Asker, what?: string): Consent {
  const on = what !== undefined ? ` on ${what}` : '';
  if (ctx.interactive) return { confirm: (plan) => ctx.prompt.confirm(`Spend up to ${plan.credits} credits${on} (${overWhat(plan)})?`, false) };
  return { noPrompt: noPromptReason(ctx.io, ctx.env, ctx.globals.input === false) ?? 'not interactive' };
}

/** Resolves when the plan may be sent; throws (nothing sent) when it may not. */
export async function requireConsent(plan: BatchPlan, c: ConsentInput): Promise<void> {
  if (!plan.needsConfirm || c.yes) return;
  // buildPlan already refused a plan above --max-credits: a budget given is one that covers the plan.
  if (c.maxCredits !== undefined && c.maxCredits >= plan.credits) return;
  // Only the balance is short and the cost is within the threshold: the first 402 stops the batch
  // (a notice says so), and what it spends stays below what needs consent.
  if (!c.confirm && plan.credits <= plan.confirmThreshold && !plan.damaged) return;
  if (c.confirm) {
    if (await c.confirm(plan)) return;
    throw new DeclinedError(`you said no: nothing was sent, nothing spent`, `--yes or --max-credits ${plan.credits} runs it without asking`);
  }
  throw new UsageError(
    `the plan spends up to ${plan.credits} credits, ${overWhat(plan)}, and nothing can ask for confirmation (${c.noPrompt ?? 'not interactive'}); nothing was sent`,
    `pass --yes or --max-credits ${plan.credits}`,
  );
}

/** `geo config set confirm_threshold N` as a number of credits; undefined when unset (the default applies). */
export function configuredThreshold(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = /^\d+$/.test(v.trim()) ? Number(v.trim()) : Number.NaN;
  if (!Number.isFinite(n)) throw new UsageError(`the configured confirm_threshold "${v}" is not a whole number of credits`, 'geo config set confirm_threshold 20');
  return n;
}
