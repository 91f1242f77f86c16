/** Glue for `geo docs`: the URL is the data (stdout); what happened is a message (stderr). */
import type { Handler } from '../types.js';
import { resolveFormat } from '../../output/render.js';
import { fileMode } from '../../flags.js';
import { runDocs } from './run.js';

export const docs: Handler = async (ctx, _args, opts) => {
  const json = resolveFormat(ctx) === 'json'; // before any download: a bad --format exits 2 first
  const mode = fileMode(opts.fileMode);
  const r = await runDocs(ctx, { open: Boolean(opts.open), ...(typeof opts.html === 'string' ? { html: opts.html } : {}), ...(mode ? { mode } : {}) });
  if (json) return void ctx.io.stdout.write(JSON.stringify(r, null, 2) + '\n');
  const say = (line: string) => !ctx.globals.quiet && ctx.io.stderr.write(line + '\n');
  if (r.saved) say(`Saved the documentation to ${r.saved.file} (${r.saved.bytes} bytes)`);
  if (r.opened) say(`Opened in the browser (${r.opened})`);
  if (r.opened === false) say('No browser opener found (set BROWSER, or install xdg-open); open this URL yourself:');
  ctx.io.stdout.write(r.url + '\n');
};
