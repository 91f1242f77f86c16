/**
 * Glue for `geo credits`: --json prints the body as received; the table sanitizes every value.
 * The view (tables, chalk) is imported only for the table: --json stays light (start-up
 * budget is measured on `geo credits --json`).
 */
import type { Handler } from '../types.js';
import { render, resolveFormat } from '../../output/render.js';
import { runCredits } from './run.js';

export const credits: Handler = async (ctx) => {
  resolveFormat(ctx); // a bad --format fails before anything is sent
  const res = await runCredits(ctx);
  await render(ctx, { raw: res.raw, data: res.data, deviations: res.deviations, human: async (view) => (await import('../../output/views/account.js')).creditsView(res.data.data, view) });
};
