/** Glue for `geo usage`: --json prints the body as received; otherwise flattened key/value rows. */
import type { Handler } from '../../cli.js';
import { flatten } from '../../output/kv.js';
import { render } from '../../output/render.js';
import { usageView } from '../../output/views/account.js';
import { runUsage } from './run.js';

export const usage: Handler = async (ctx) => {
  const res = await runUsage(ctx);
  render(ctx, {
    raw: res.raw,
    data: res.data,
    records: () => flatten(res.data.data).map(([key, value]) => ({ key, value })),
    human: (view) => usageView(res.data.data, view),
  });
};
