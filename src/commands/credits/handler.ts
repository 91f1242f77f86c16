/** Glue for `geo credits`: --json prints the body as received; the table sanitizes every value. */
import type { Handler } from '../../cli.js';
import { render, resolveFormat } from '../../output/render.js';
import { creditsView } from '../../output/views/account.js';
import { runCredits } from './run.js';

export const credits: Handler = async (ctx) => {
  resolveFormat(ctx); // a bad --format fails before anything is sent (issue 7)
  const res = await runCredits(ctx);
  render(ctx, { raw: res.raw, data: res.data, human: (view) => creditsView(res.data.data, view) });
};
