/** Glue between commander and the run functions: arguments in, rendered data out. */
import type { Handler } from '../types.js';
import type { Ctx } from '../../context.js';
import { render, resolveFormat } from '../../output/render.js';
import { stderrText } from '../../output/fit.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { renderTable } from '../../output/table.js';
import { runAdd } from './add.js';
import { type StorageName, runShow, runTest } from './check.js';
import { runList, runRemove, runUse } from './manage.js';
import { runMigrate } from './migrate.js';

/** Where a key is kept, as `keys list/show/test` say it. */
function storedIn(ctx: Ctx, storage: StorageName): string {
  if (storage === 'keyring') return 'OS keyring';
  if (storage === 'file') return `file ${ctx.config.path}`;
  return storage === 'env' ? 'environment (GEO_API_KEY)' : 'sandbox';
}

/** Confirmations are messages, not data: stderr, and silent under --quiet. */
function note(ctx: Ctx, line: string): void {
  if (!ctx.globals.quiet) ctx.io.stderr.write(stderrText(ctx.io, line) + '\n');
}

/** JSON when chosen by flag or `geo config set format` (render.ts resolveFormat, the one choice). */
const wantsJson = (ctx: Ctx) => resolveFormat(ctx) === 'json';

export const add: Handler = async (ctx, args, opts) => {
  const r = await runAdd(ctx, {
    name: args[0] as string | undefined,
    stdin: Boolean(opts.stdin),
    verify: opts.verify !== false,
    baseUrl: opts.baseUrl as string | undefined,
    insecureStorage: Boolean(opts.insecureStorage),
  });
  // Why the key is in the file is said once, here, even under --quiet and --json: it is about the key's safety.
  for (const line of r.notices) ctx.io.stderr.write(stderrText(ctx.io, line) + '\n');
  if (wantsJson(ctx)) return void ctx.io.stdout.write(JSON.stringify(r, null, 2) + '\n');
  const checked = r.verified ? `verified, ${r.balance ?? '?'} credits available` : 'not verified';
  note(ctx, `${r.replaced ? 'Replaced' : 'Saved'} profile "${r.name}" (${r.key}, ${r.baseUrl}; ${checked}; key in the ${storedIn(ctx, r.storage)})${r.active ? ', active' : ''}`);
  if (!r.active) note(ctx, `Use it with --profile ${r.name}, or make it the default: geo keys use ${r.name}`);
};

export const list: Handler = async (ctx) => {
  const rows = runList(ctx);
  await render(ctx, {
    data: rows,
    records: () => rows,
    human: (view) =>
      rows.length === 0
        ? 'No profiles yet. Add one with: geo keys add'
        : renderTable({ head: ['', 'NAME', 'KEY', 'BASE URL', 'STORED'], rows: rows.map((p) => [p.active ? '*' : '', p.name, p.key, p.baseUrl, p.storage]) }, view),
  });
};

export const use: Handler = async (ctx, args) => {
  const p = await runUse(ctx, String(args[0]));
  if (wantsJson(ctx)) return void ctx.io.stdout.write(JSON.stringify(p, null, 2) + '\n');
  note(ctx, `Active profile: ${p.name} (${p.key}, ${p.baseUrl})`);
  const env = ctx.env.GEO_API_KEY ? 'GEO_API_KEY' : ctx.env.GEO_PROFILE ? 'GEO_PROFILE' : undefined;
  if (env) note(ctx, `note: ${env} is set in the environment and still wins over the active profile`);
};

export const remove: Handler = async (ctx, args) => {
  const r = await runRemove(ctx, String(args[0]));
  if (r.warning) ctx.io.stderr.write(r.warning + '\n');
  if (wantsJson(ctx)) return void ctx.io.stdout.write(JSON.stringify(r, null, 2) + '\n');
  const from = r.storage === 'keyring' && !r.warning ? ' and its key from the OS keyring' : '';
  note(ctx, `Removed profile "${r.name}"${from}${r.active ? `; active: ${r.active}` : '; no active profile now'}`);
};

export const migrate: Handler = async (ctx, args) => {
  const r = await runMigrate(ctx, (args[0] as string[] | undefined) ?? []);
  if (wantsJson(ctx)) return void ctx.io.stdout.write(JSON.stringify(r, null, 2) + '\n');
  for (const name of r.moved) note(ctx, `Moved the key of profile "${name}" into the OS keyring (read back, then removed from ${ctx.config.path})`);
  if (r.moved.length === 0) note(ctx, r.already.length ? 'Nothing to move: every key is in the OS keyring already' : 'Nothing to move: no profile keeps its key in the config file');
};

export const show: Handler = async (ctx) => {
  const s = runShow(ctx);
  await render(ctx, {
    data: s,
    human: (view) =>
      renderTable(
        {
          head: ['', 'VALUE', 'FROM'],
          rows: [
            ['key', s.key ? s.key.value : '(none)', s.key ? s.key.source : '-'],
            ['stored', s.key ? storedIn(ctx, s.key.storage) : '-', ''],
            ['base URL', s.baseUrl.value, s.baseUrl.source],
            ['profile', s.profile ? s.profile.name : '(none)', s.profile ? s.profile.source : '-'],
          ],
        },
        view,
      ),
  });
};

export const test: Handler = async (ctx) => {
  resolveFormat(ctx); // a bad --format fails before anything is sent
  const r = await runTest(ctx);
  await render(ctx, {
    data: r,
    human: () =>
      [
        `ok: the key works`,
        `key       ${r.key} (from ${r.keySource}${r.profile ? `, profile ${sanitizeInline(r.profile)}` : ''}; ${storedIn(ctx, r.storage)})`,
        `base URL  ${sanitizeInline(r.baseUrl)}`,
        `credits   ${r.totalAvailable ?? 'missing'} available (balance ${r.balance ?? 'missing'}, api_balance ${r.apiBalance ?? 'missing'})`,
      ].join('\n'),
  });
};
