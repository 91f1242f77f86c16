/** Glue for `geo usage`: --json prints the body as received; otherwise flattened key/value rows. */
import type { Handler } from '../../cli.js';
import { flatten } from '../../output/kv.js';
import { render, resolveFormat } from '../../output/render.js';
import { runUsage } from './run.js';

export const usage: Handler = async (ctx) => {
  resolveFormat(ctx); // a bad --format fails before anything is sent (issue 7)
  const res = await runUsage(ctx);
  await render(ctx, {
    raw: res.raw,
    data: res.data,
    records: () => flatten(res.data.data).map(([key, value]) => ({ key, value })),
    human: async (view) => (await import('../../output/views/account.js')).usageView(res.data.data, view),
  });
};
