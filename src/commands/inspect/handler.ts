/**
 * Glue for `geo inspect`: one file prints one object with --json; several files (or --format
 * ndjson) print one line per file. A single unreadable file is a usage error (exit 2); with
 * several, the others are still inspected, each failure is a line on stderr, and the exit is 7.
 */
import type { Handler } from '../types.js';
import { PartialFailureError, UsageError } from '../../errors.js';
import { describeError } from '../../output/errors.js';
import { formatOutput, resolveFormat, viewOpts } from '../../output/render.js';
import { expandSamples } from '../../files/samples.js';
import { runInspect } from './run.js';
import { inspectView } from './view.js';
import { readTrustAnchors } from './trust.js';
import { addSeenBefore } from './seen.js';
import { sanitizeInline } from '../../output/sanitize.js';

export const FORMATS = ['table', 'json', 'ndjson'] as const;

export const inspect: Handler = async (ctx, args, opts) => {
  const inputs = expandSamples((args[0] as string[] | undefined) ?? []);
  const format = resolveFormat(ctx, FORMATS);
  const trustAnchors = await readTrustAnchors(opts.c2paTrust as string | undefined);
  const records = await runInspect(ctx, inputs, trustAnchors ? { trustAnchors } : {});
  // Stored results of copies of each file (seen.ts): read from the store, nothing sent.
  await addSeenBefore(ctx, records, (line) => void (!ctx.globals.quiet && ctx.io.stderr.write(`${sanitizeInline(line)}\n`)));
  const failed = records.filter((r) => !r.ok);

  if (inputs.length === 1 && records[0] && !records[0].ok) throw new UsageError(records[0].error.message, records[0].error.hint);

  const many = inputs.length > 1;
  const out = { data: many ? records : records[0], records: () => records, human: (v: Parameters<typeof inspectView>[1]) => inspectView(records, v) };
  ctx.io.stdout.write(await formatOutput(out, format === 'json' && many ? 'ndjson' : format, await viewOpts(ctx)));

  if (failed.length > 0) {
    for (const r of failed) if (!r.ok) ctx.io.stderr.write(describeError(new UsageError(r.error.message, r.error.hint), { color: ctx.io.colorErr }) + '\n');
    throw new PartialFailureError(failed.length, records.length);
  }
};
