/** Glue for `geo cases`: --json prints the body as received; tables sanitize every server string. */
import type { Case } from '../../api/schemas.js';
import type { Handler } from '../../cli.js';
import { render, resolveFormat } from '../../output/render.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { renderKv } from '../../output/kv.js';
import { renderTable } from '../../output/table.js';
import { runCreate, runList } from './run.js';

const str = (v: unknown) => sanitizeInline(typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));
/** The Case shape has no team field (spec "Case"); show one when the server sends it anyway. */
const teamOf = (c: Case) => str((c as Record<string, unknown>).teamId ?? (c as Record<string, unknown>).team_id ?? '');

export const list: Handler = async (ctx, _args, opts) => {
  resolveFormat(ctx); // a bad --format fails before anything is sent (issue 7)
  const res = await runList(ctx, { team: opts.team as string | undefined, limit: opts.limit as string | undefined });
  const cases = res.data.data;
  render(ctx, {
    raw: res.raw,
    data: res.data,
    records: () => cases,
    human: (view) =>
      cases.length === 0
        ? 'No cases yet. Create one with: geo cases create'
        : renderTable(
            {
              head: ['ID', 'NAME', 'DESCRIPTION', 'TEAM', 'CREATED', 'UPDATED'],
              rows: cases.map((c) => [str(c.id), str(c.name), str(c.description), teamOf(c), str(c.createdAt), str(c.updatedAt)]),
            },
            view,
          ),
  });
};

export const create: Handler = async (ctx, _args, opts) => {
  resolveFormat(ctx); // before the POST: a bad --format must not leave a case created behind an error
  const res = await runCreate(ctx, {
    name: opts.name as string | undefined,
    description: opts.description as string | undefined,
    team: opts.team as string | undefined,
  });
  const c = res.data;
  render(ctx, {
    raw: res.raw,
    data: c,
    human: (view) =>
      renderKv(
        [
          ['id', str(c.id)],
          ['name', str(c.name)],
          ['description', str(c.description)],
          ['team', teamOf(c)],
          ['created', str(c.createdAt)],
          ['updated', str(c.updatedAt)],
        ],
        view,
      ),
  });
  if (!ctx.globals.quiet && ctx.io.stderrIsTTY) ctx.io.stderr.write(`Created case ${str(c.id)}\n`);
};
