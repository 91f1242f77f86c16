/** `geo store …` as data: what each subcommand does, for the handlers and any other front door. */
import type { Ctx } from '../../context.js';
import { chooseStore, withKeyringPassword } from '../../config/store-url.js';
import { UsageError } from '../../errors.js';
import { type Budget, type Spend, type StoreStatus, maskStoreUrl, migrateStore, parsePeriod, pushStore } from '../../store/index.js';

export async function runStatus(ctx: Ctx): Promise<StoreStatus> {
  return (await ctx.storeApi()).status();
}

/** The team store's URL, or a usage error: migrate and push need one. */
async function teamUrl(ctx: Ctx, what: string): Promise<string> {
  const choice = chooseStore(ctx.globals.store, ctx.env, ctx.config);
  if (choice.kind !== 'team') throw new UsageError(`geo store ${what} needs a team store, and this run uses the local one`, 'give it with --store postgres://USER@HOST/DB, GEO_STORE_URL or geo config set store URL');
  return choice.source === 'config' ? withKeyringPassword(ctx.vault, choice.url) : choice.url;
}

export async function runMigrate(ctx: Ctx): Promise<{ store: string; from: number; to: number }> {
  const url = await teamUrl(ctx, 'migrate');
  return { store: maskStoreUrl(url), ...(await migrateStore(url, ctx.env)) };
}

export async function runPush(ctx: Ctx): Promise<Awaited<ReturnType<typeof pushStore>> & { from: string; to: string }> {
  await teamUrl(ctx, 'push');
  const team = await ctx.storeApi();
  const local = ctx.localStore();
  return { from: local.path, to: team.where, ...(await pushStore(local, team)) };
}

export async function runBudgetSet(ctx: Ctx, credits: string, per: string): Promise<Budget> {
  const cap = Number(credits);
  if (!/^\d+$/.test(credits.trim()) || !Number.isSafeInteger(cap)) throw new UsageError(`the budget is a whole number of credits, not "${credits}"`, 'geo store budget set 500 --per month');
  return (await ctx.storeApi()).budget.set(cap, parsePeriod(per));
}

export async function runBudgetShow(ctx: Ctx): Promise<{ store: string; budget: Budget | null; by_analyst: Spend[]; by_case: Spend[] }> {
  const api = await ctx.storeApi();
  const budget = (await api.budget.get()) ?? null;
  const spend = await api.budget.spend();
  return { store: api.where, budget, by_analyst: spend.byAnalyst, by_case: spend.byCase };
}
