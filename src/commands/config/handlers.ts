/** Glue for `geo config`: values on stdout (bare for `get`, so `$(geo config get depth)` works). */
import type { Handler } from '../types.js';
import type { Ctx } from '../../context.js';
import { render } from '../../output/render.js';
import { renderTable } from '../../output/table.js';
import { type Entry, runGet, runList, runSet, runUnset } from './run.js';

/** Only an explicit --json/--format changes `get`; a configured default format must not break `$(…)`. */
async function one(ctx: Ctx, e: Entry): Promise<void> {
  if (ctx.globals.json || ctx.globals.format !== undefined) await render(ctx, { data: e, human: () => e.value });
  else ctx.io.stdout.write(e.value + '\n');
}

export const get: Handler = async (ctx, args) => one(ctx, runGet(ctx, String(args[0])));

export const set: Handler = async (ctx, args) => {
  const e = await runSet(ctx, String(args[0]), String(args[1]));
  if (ctx.globals.json || ctx.globals.format !== undefined) return one(ctx, e);
  if (!ctx.globals.quiet) ctx.io.stderr.write(`${e.key} = ${e.value}\n`);
};

export const unset: Handler = async (ctx, args) => {
  const e = await runUnset(ctx, String(args[0]));
  if (ctx.globals.json || ctx.globals.format !== undefined) return one(ctx, e);
  if (!ctx.globals.quiet) ctx.io.stderr.write(`${e.key} reset to the default (${e.value || 'none'})\n`);
};

export const list: Handler = async (ctx) => {
  const entries = runList(ctx);
  await render(ctx, {
    // JSON: a plain {key: value} object, the shape scripts want.
    data: Object.fromEntries(entries.map((e) => [e.key, e.value])),
    records: () => entries,
    human: (view) => renderTable({ head: ['KEY', 'VALUE', 'FROM'], rows: entries.map((e) => [e.key, e.value, e.source]) }, view),
  });
};
