/**
 * `geo eval --copies DIR`: the perceptual hash calibrated on a set of copies (eval/copy-set.ts):
 * every original and copy hashed here (nothing is sent, no key needed), then per kind of copy the
 * recall and false matches, the distances of copies and of distinct pairs, and the threshold the
 * rule of eval/copy-metrics.ts chooses, beside geo's default for `history --like`.
 * Exit 0 with the figures; 2 for a folder without the layout or a flag that does not apply.
 */
import { resolve } from 'node:path';
import { loadSharp } from '../../batch/convert.js';
import { UsageError } from '../../errors.js';
import { type CopyHashes, copyReport } from '../../eval/copy-metrics.js';
import { readCopySet } from '../../eval/copy-set.js';
import { pdqOfMany } from '../../image/pdq-many.js';
import { LIKE_DISTANCE } from '../../image/pdq.js';
import { BASE_FORMATS, formatOutput, resolveFormat, viewOpts } from '../../output/render.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { startSpinner } from '../../output/spinner.js';
import type { Handler } from '../types.js';

/** geo eval's flags that --copies does not take: refused, never silently ignored. */
const NOT_WITH_COPIES = ['depth', 'effort', 'truth', 'correctWithin', 'from', 'fromFile', 'concurrency', 'fresh', 'downscale', 'keepMetadata', 'dryRun', 'maxCredits', 'report', 'fileMode', 'case', 'every', 'scene', 'maxFrames', 'maxDuration', 'agreeKm', 'together', 'claims', 'within', 'claimDistances', 'seed', 'scoped'] as const;
const USAGE = 'geo eval --copies DIR [--json]';

const flagName = (k: string) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

export const evaluateCopies: Handler = async (ctx, args, opts) => {
  const inputs = (args[0] as string[] | undefined) ?? [];
  if (inputs.length > 0) throw new UsageError(`--copies takes its set as its value, not images: ${inputs[0]}`, USAGE);
  for (const k of NOT_WITH_COPIES) if (opts[k] !== undefined && opts[k] !== false) throw new UsageError(`--copies does not take ${flagName(k)}: nothing is located`, USAGE);
  if (opts.store === false) throw new UsageError('--copies does not take --no-store: nothing is located or stored', USAGE);
  const format = resolveFormat(ctx, BASE_FORMATS, 'table');
  const dir = resolve(String(opts.copies));
  const set = readCopySet(dir);
  await loadSharp('the perceptual hash of geo eval --copies');
  const say = (line: string) => {
    if (!ctx.globals.quiet) ctx.io.stderr.write(sanitizeInline(line) + '\n');
  };
  const paths = [...set.originals.map((o) => o.path), ...set.kinds.flatMap((k) => k.copies.map((c) => c.path))];
  const spinner = await startSpinner(ctx, `hashing ${paths.length} images`);
  const hashed = await pdqOfMany(paths, (done) => done % 50 === 0 && spinner.update(`hashing: ${done} of ${paths.length} images`)).finally(() => spinner.stop());
  const unreadable: string[] = [];
  const hashOf = (i: number) => {
    const h = hashed[i]!;
    if ('error' in h) unreadable.push(`${paths[i]}: ${h.error} (${i < set.originals.length ? 'an original: left out with its copies' : 'a copy: counted as missed'})`);
    return 'error' in h ? null : h;
  };
  let at = 0;
  const input: CopyHashes = {
    originals: set.originals.map((o) => {
      const h = hashOf(at++);
      return { name: o.name, hash: h?.hash ?? null, quality: h?.quality ?? null };
    }),
    kinds: set.kinds.map((k) => ({ kind: k.kind, copies: k.copies.map((c) => ({ original: c.original, name: set.originals[c.original]!.name, hash: hashOf(at++)?.hash ?? null })) })),
  };
  // A few named, not thousands; the figures count them all.
  for (const u of unreadable.slice(0, 5)) say(`unreadable: ${u}`);
  if (unreadable.length > 5) say(`... and ${unreadable.length - 5} more unreadable`);
  if (set.orphans.length > 0) say(`${set.orphans.length} cop${set.orphans.length === 1 ? 'y has' : 'ies have'} no original of the same name, left out: ${set.orphans.slice(0, 3).join(', ')}${set.orphans.length > 3 ? ', ...' : ''}`);
  const readable = input.originals.filter((o) => o.hash !== null).length;
  if (readable < 2) throw new UsageError(`--copies ${dir}: ${readable} original${readable === 1 ? '' : 's'} could be hashed; distinct pairs need at least 2`, 'the originals must be images sharp decodes (JPEG, PNG, WebP, AVIF, TIFF, GIF)');
  const report = { set: dir, ...copyReport(input, LIKE_DISTANCE) };
  const view = await viewOpts(ctx, format === 'table' && ctx.io.colorOut);
  const records = () => report.kinds.map(({ farthest: _f, ...k }) => k);
  ctx.io.stdout.write(await formatOutput({ data: report, records, human: async (v) => (await import('../../output/views/copies-eval.js')).copiesEvalView(report, v) }, format, view));
};
