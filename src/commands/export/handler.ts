/** Glue for `geo export`: pick the format, select records, write the file (or stdout). */
import { writeFile } from 'node:fs/promises';
import type { Handler } from '../types.js';
import { UsageError } from '../../errors.js';
import { BINARY_FORMATS } from '../../output/export/index.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { chooseFormat, renderRecords, selectRecords } from './run.js';

export const exportResults: Handler = async (ctx, args, opts) => {
  const out = opts.out as string | undefined;
  const format = chooseFormat(ctx.globals.format, out);
  const toStdout = !out || out === '-';
  // Checked before any record is read: a zip on a terminal is noise, and can upset it.
  if (toStdout && BINARY_FORMATS.includes(format) && ctx.io.stdoutIsTTY) throw new UsageError(`${format} is a binary format: not written to a terminal`, `use --out results.${format}, or redirect: > results.${format}`);
  const warn = (line: string) => {
    if (!ctx.globals.quiet) ctx.io.stderr.write(sanitizeInline(line) + '\n');
  };
  const records = await selectRecords(ctx, { sources: (args[0] as string[] | undefined) ?? [], all: Boolean(opts.all), history: Boolean(opts.history) }, warn);
  const text = await renderRecords(ctx, format, records, warn);
  if (!toStdout) {
    await writeFile(out, text);
    warn(`wrote ${records.length} result${records.length === 1 ? '' : 's'} to ${out} (${format})`);
  } else {
    ctx.io.stdout.write(text);
  }
};
