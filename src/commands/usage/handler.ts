/** Glue for `geo usage`: --json prints the body as received; otherwise flattened key/value rows. */
import type { Handler } from '../types.js';
import { flatten } from '../../output/kv.js';
import { render, resolveFormat } from '../../output/render.js';
import { runUsage } from './run.js';

export const usage: Handler = async (ctx) => {
  resolveFormat(ctx); // a bad --format fails before anything is sent
  const res = await runUsage(ctx);
  // Read leniently: without the data object, the whole body is what there is to show.
  const data: unknown = typeof res.data.data === 'object' && res.data.data !== null ? res.data.data : res.data;
  await render(ctx, {
    raw: res.raw,
    data: res.data,
    deviations: res.deviations,
    records: () => flatten(data).map(([key, value]) => ({ key, value })),
    human: async (view) => (await import('../../output/views/account.js')).usageView(data as Record<string, unknown>, view),
  });
};
