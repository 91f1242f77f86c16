/**
 * Glue for `geo analyses`. The search text comes from -S/--search (or its earlier name --query) or
 * the positional argument; `geo analyses -q paris` is quiet + positional "paris", a search all the same.
 */
import type { Handler } from '../types.js';
import { UsageError } from '../../errors.js';
import { render, resolveFormat } from '../../output/render.js';
import { runAnalyses } from './run.js';

export const analyses: Handler = async (ctx, args, opts) => {
  resolveFormat(ctx); // a bad --format fails before anything is sent
  const positional = args[0] as string | undefined;
  const query = (opts.search ?? opts.query) as string | undefined;
  if (positional !== undefined && query !== undefined && positional !== query) {
    throw new UsageError('give the search text once: either --search TEXT or a positional TEXT');
  }
  const res = await runAnalyses(ctx, { q: query ?? positional, city: opts.city as string | undefined, limit: opts.limit as string | undefined });
  // Off the contract (not a list, items that are not objects): shown as far as it goes; the warnings say the rest.
  const items = Array.isArray(res.data.data) ? res.data.data.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null) : [];
  await render(ctx, { raw: res.raw, data: res.data, deviations: res.deviations, records: () => items, human: async (view) => (await import('../../output/views/account.js')).analysesView(items, view) });
};
