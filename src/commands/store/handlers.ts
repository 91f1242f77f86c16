/** Glue for `geo store`: data from run.ts, JSON or a few plain lines (every server string sanitized). */
import type { Handler } from '../types.js';
import { render } from '../../output/render.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { runBudgetSet, runBudgetShow, runMigrate, runPush, runStatus } from './run.js';

const s = (v: unknown) => sanitizeInline(String(v));

export const status: Handler = async (ctx) => {
  const st = await runStatus(ctx);
  const data = { store: st.kind, where: st.where, schema: st.schema, knows: st.knows, rtt_ms: Math.round(st.rttMs * 100) / 100, counts: st.counts };
  await render(ctx, {
    data,
    human: () => [
      `store:   ${st.kind === 'team' ? 'team (PostgreSQL)' : 'local (SQLite)'} ${s(st.where)}`,
      `schema:  ${st.schema}${st.schema === st.knows ? '' : ` (this geo knows ${st.knows})`}`,
      `round trip: ${data.rtt_ms} ms`,
      `results: ${st.counts.results} · open claims: ${st.counts.openClaims} · cases: ${st.counts.cases} · custody entries: ${st.counts.custodyEntries}`,
    ].join('\n'),
  });
};

export const migrate: Handler = async (ctx) => {
  const r = await runMigrate(ctx);
  await render(ctx, { data: r, human: () => (r.from === r.to ? `${s(r.store)} is at schema ${r.to} already: nothing to do` : `${s(r.store)}: schema ${r.from} -> ${r.to}`) });
};

export const push: Handler = async (ctx) => {
  const r = await runPush(ctx);
  await render(ctx, {
    data: r,
    human: () => [
      `pushed ${s(r.from)} into ${s(r.to)}:`,
      `  results: ${r.results.copied} copied, ${r.results.already} already there`,
      `  claims: ${r.claims.copied} copied, ${r.claims.already} already there`,
      `  cases: ${r.cases.copied} copied, ${r.cases.already} already there; custody entries: ${r.custody.copied} copied, ${r.custody.already} already there`,
      `  batches: ${r.batches} · case links: ${r.links} · timestamps: ${r.timestamps} · embedded provenance: ${r.embedded} · kept files: ${r.kept}`,
      ...(r.diverged.length ? [`  not pushed (their team log went another way): ${r.diverged.map(s).join(', ')}`] : []),
    ].join('\n'),
  });
};

export const budgetSet: Handler = async (ctx, args, opts) => {
  const b = await runBudgetSet(ctx, String(args[0]), String(opts.per ?? 'month'));
  await render(ctx, { data: b, human: () => `budget: ${b.cap} credits per ${b.per} (since ${b.since}); spent ${b.spent}, reserved ${b.reserved}` });
};

export const budgetShow: Handler = async (ctx) => {
  const r = await runBudgetShow(ctx);
  const rows = (title: string, xs: Array<{ who: string; credits: number; requests: number }>) => (xs.length ? [title, ...xs.map((x) => `  ${s(x.who)}: ${x.credits} credits, ${x.requests} requests`)] : []);
  await render(ctx, {
    data: r,
    human: () => [
      r.budget ? `budget: ${r.budget.cap} credits per ${r.budget.per} (since ${r.budget.since}); spent ${r.budget.spent}, reserved ${r.budget.reserved}, left ${Math.max(0, r.budget.cap - r.budget.spent - r.budget.reserved)}` : `no budget set on ${s(r.store)} (geo store budget set 500 --per month)`,
      ...rows('by analyst:', r.by_analyst),
      ...rows('by case:', r.by_case),
    ].join('\n'),
  });
};
