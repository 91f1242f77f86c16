/** Glue for `geo export`: pick the format, select records, write the file (or stdout), streaming. */
import { createWriteStream } from 'node:fs';
import type { Handler } from '../types.js';
import { UsageError } from '../../errors.js';
import { BINARY_FORMATS } from '../../output/export/index.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { writeAll } from '../../output/write-all.js';
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
  const selected = await selectRecords(ctx, { sources: (args[0] as string[] | undefined) ?? [], all: Boolean(opts.all), history: Boolean(opts.history), includeSandbox: Boolean(opts.includeSandbox) }, warn);
  let count = 0;
  const counted = (function* () {
    for (const r of selected) {
      count++;
      yield r;
    }
  })();
  const output = await renderRecords(ctx, format, counted, warn);
  const file = toStdout ? undefined : createWriteStream(out, { mode: 0o600 });
  await writeAll(file ?? ctx.io.stdout, typeof output === 'string' || Buffer.isBuffer(output) ? [output] : output);
  if (file) {
    await new Promise<void>((resolve, reject) => file.end((err?: Error | null) => (err ? reject(err) : resolve())));
    warn(`wrote ${count} result${count === 1 ? '' : 's'} to ${out} (${format})`);
  }
};
