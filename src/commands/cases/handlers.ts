/**
 * Glue for `geo cases list | create`: tables sanitize every server string. The views (tables,
 * chalk) are imported only for the human output.
 */
import type { Case } from '../../api/schemas.js';
import type { Handler } from '../types.js';
import { render, resolveFormat } from '../../output/render.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { runCreate, runList } from './run.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const views = () => import('../../output/views/cases.js');
const say = (ctx: Parameters<Handler>[0], line: string) => {
  if (!ctx.globals.quiet) ctx.io.stderr.write(`${sanitizeInline(line)}\n`);
};

/** --json: the service's body as received, each case in `data` with where, local_id and results, the local ones after them. */
export const list: Handler = async (ctx, _args, opts) => {
  resolveFormat(ctx); // a bad --format fails before anything is sent
  const res = await runList(ctx, { team: opts.team as string | undefined, limit: opts.limit as string | undefined });
  if (res.note) say(ctx, res.note);
  await render(ctx, { data: res.body, deviations: res.deviations, records: () => res.cases, human: async (view) => (await views()).casesView(res.cases, view) });
};

/** --json: the service's body as received (or, with --local, the local case); the view adds the local id. */
export const create: Handler = async (ctx, _args, opts) => {
  resolveFormat(ctx); // before the POST: a bad --format must not leave a case created behind an error
  const res = await runCreate(ctx, {
    name: opts.name as string | undefined,
    description: opts.description as string | undefined,
    team: opts.team as string | undefined,
    ...(opts.local ? { local: true } : {}),
  });
  const l = res.local;
  const s = res.service;
  const c = (s && isObject(s.data) ? s.data : { id: l.id, name: l.name, description: l.description, teamId: l.team, createdAt: l.created_at, updatedAt: l.created_at }) as Case;
  await render(ctx, { ...(s ? { raw: s.raw, deviations: s.deviations } : {}), data: c, human: async (view) => (await views()).caseView(c, view, l) });
  // Two lines, so neither id is ever cut on a narrow terminal.
  if (!ctx.globals.quiet && ctx.io.stderrIsTTY) ctx.io.stderr.write(s ? `Created case ${sanitizeInline(c.id)}\nRecorded here as ${l.id}\n` : `Created case ${l.id}, on this machine only\n`);
};
