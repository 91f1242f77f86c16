/**
 * Glue for `geo cases`: --json prints the body as received; tables sanitize every server string.
 * The views (tables, chalk) are imported only for the human output.
 */
import type { Case } from '../../api/schemas.js';
import type { Handler } from '../types.js';
import { render, resolveFormat } from '../../output/render.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { runCreate, runList } from './run.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const views = () => import('../../output/views/cases.js');

export const list: Handler = async (ctx, _args, opts) => {
  resolveFormat(ctx); // a bad --format fails before anything is sent (issue 7)
  const res = await runList(ctx, { team: opts.team as string | undefined, limit: opts.limit as string | undefined });
  // Off the contract (not a list, items that are not objects): shown as far as it goes; the warnings say the rest.
  const cases = Array.isArray(res.data.data) ? res.data.data.filter(isObject) : [];
  await render(ctx, { raw: res.raw, data: res.data, deviations: res.deviations, records: () => cases, human: async (view) => (await views()).casesView(cases, view) });
};

export const create: Handler = async (ctx, _args, opts) => {
  resolveFormat(ctx); // before the POST: a bad --format must not leave a case created behind an error
  const res = await runCreate(ctx, {
    name: opts.name as string | undefined,
    description: opts.description as string | undefined,
    team: opts.team as string | undefined,
  });
  const c = (isObject(res.data) ? res.data : {}) as Case;
  await render(ctx, { raw: res.raw, data: c, deviations: res.deviations, human: async (view) => (await views()).caseView(c, view) });
  if (!ctx.globals.quiet && ctx.io.stderrIsTTY) ctx.io.stderr.write(`Created case ${sanitizeInline(c.id)}\n`);
};
