/**
 * Glue for `geo cases`: --json prints the body as received; tables sanitize every server string.
 * The views (tables, chalk) are imported only for the human output.
 */
import type { Handler } from '../../cli.js';
import { render, resolveFormat } from '../../output/render.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { runCreate, runList } from './run.js';

const views = () => import('../../output/views/cases.js');

export const list: Handler = async (ctx, _args, opts) => {
  resolveFormat(ctx); // a bad --format fails before anything is sent (issue 7)
  const res = await runList(ctx, { team: opts.team as string | undefined, limit: opts.limit as string | undefined });
  const cases = res.data.data;
  await render(ctx, { raw: res.raw, data: res.data, records: () => cases, human: async (view) => (await views()).casesView(cases, view) });
};

export const create: Handler = async (ctx, _args, opts) => {
  resolveFormat(ctx); // before the POST: a bad --format must not leave a case created behind an error
  const res = await runCreate(ctx, {
    name: opts.name as string | undefined,
    description: opts.description as string | undefined,
    team: opts.team as string | undefined,
  });
  const c = res.data;
  await render(ctx, { raw: res.raw, data: c, human: async (view) => (await views()).caseView(c, view) });
  if (!ctx.globals.quiet && ctx.io.stderrIsTTY) ctx.io.stderr.write(`Created case ${sanitizeInline(c.id)}\n`);
};
