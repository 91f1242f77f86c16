/** Glue for `geo credits`: --json prints the body as received; the table sanitizes every value. */
import type { Handler } from '../../cli.js';
import { render } from '../../output/render.js';
import { creditsView } from '../../output/views/account.js';
import { runCredits } from './run.js';

export const credits: Handler = async (ctx) => {
  const res = await runCredits(ctx);
  render(ctx, { raw: res.raw, data: res.data, human: (view) => creditsView(res.data.data, view) });
};
