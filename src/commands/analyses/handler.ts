/**
 * Glue for `geo analyses`. The search text comes from -S/--search (or its earlier name --query) or
 * the positional argument; `geo analyses -q paris` is quiet + positional "paris", a search all the same.
 */
import type { Handler } from '../../cli.js';
import { UsageError } from '../../errors.js';
import { render, resolveFormat } from '../../output/render.js';
import { runAnalyses } from './run.js';

export const analyses: Handler = async (ctx, args, opts) => {
  resolveFormat(ctx); // a bad --format fails before anything is sent (issue 7)
  const positional = args[0] as string | undefined;
  const query = (opts.search ?? opts.query) as string | undefined;
  if (positional !== undefined && query !== undefined && positional !== query) {
    throw new UsageError('give the search text once: either --search TEXT or a positional TEXT');
  }
  const res = await runAnalyses(ctx, { q: query ?? positional, city: opts.city as string | undefined, limit: opts.limit as string | undefined });
  const items = res.data.data;
  await render(ctx, { raw: res.raw, data: res.data, records: () => items, human: async (view) => (await import('../../output/views/account.js')).analysesView(items, view) });
};
