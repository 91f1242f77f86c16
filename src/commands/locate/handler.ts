/**
 * Glue for `geo locate`. Every locate, one image or a thousand, runs through the batch engine with
 * its journal: the project rule "a rerun of the same work never pays twice" then holds for a single
 * photo too (a rerun re-emits the stored answer; an interrupted one resends with the same key).
 * What differs is the output: one named image prints today's rich view (single.ts), anything else
 * one record per input (many.ts). Evidence (EXIF check, provenance, exports) is local (evidence.ts).
 */
import { basename, resolve } from 'node:path';
import { consentDeps } from '../../batch/consent.js';
import { expandInputs, isUrlInput } from '../../batch/inputs.js';
import { readExifGps } from '../../image/exif.js';
import type { BatchPlan } from '../../batch/types.js';
import type { Handler } from '../types.js';
import type { Ctx } from '../../context.js';
import { readForExif } from '../../files/read.js';
import { expandSamples } from '../../files/samples.js';
import { viewOpts } from '../../output/render.js';
import { planLine, similarLine } from '../../output/views/batch.js';
import { writeDryRun } from './dry-run.js';
import { EXPORT_FORMATS, chooseFormat, writeReport } from './exports.js';
import { ManyOutput } from './many.js';
import { note, resumeCommand } from './notes.js';
import { parseLocate, runLocate, startLocate } from './run.js';
import { SingleOutput } from './single.js';
import { sceneOf } from './scene-options.js';
import { resumedHeadOf } from '../../batch/prepare.js';

/**
 * Issue 11: the plan is on stderr before anything is spent (unless -q); a dry run prints it on
 * stdout instead. A balance not read (one image below the threshold) is left out, not "unknown".
 */
function showPlan(ctx: Ctx, plan: BatchPlan): void {
  if (plan.toSend > 0) note(ctx, `plan: ${planLine(plan, { balance: false })}`);
  const copies = similarLine(plan);
  if (copies) note(ctx, copies);
}

/**
 * --keep-metadata says what it gives away before anything is sent: the photo's GPS and
 * the camera's serial numbers go to the service with the file. One image: its own GPS, named.
 */
async function keptMetadataNotice(file: string | undefined): Promise<string> {
  const after = 'the service can read where and with what camera it was taken, so its answer is no independent witness';
  if (file === undefined || file === '-' || isUrlInput(file)) return `--keep-metadata: files are sent as they are, with any GPS position, camera serial numbers and other EXIF/XMP fields they hold; ${after}`;
  let gps: { lat: number; lng: number } | undefined;
  try {
    // The bytes EXIF needs (a JPEG's first 256 KiB), not the whole photo: a 15 MB one read whole
    // here was 15 MB of peak RSS before it was even sent (bench/image.mjs).
    gps = await readExifGps(await readForExif(file));
  } catch {
    gps = undefined;
  }
  const where = gps ? `its GPS position (${gps.lat.toFixed(6)}, ${gps.lng.toFixed(6)})` : 'any GPS position';
  return `--keep-metadata: ${basename(file)} is sent as it is, with ${where}, camera serial numbers and every other EXIF/XMP field; ${after}`;
}

export const locate: Handler = async (ctx, args, opts) => {
  const inputs = expandSamples((args[0] as string[] | undefined) ?? []);
  // A video, or photos --together: one scene and its consensus.
  const scene = await sceneOf(inputs, opts, async (resume) => resumedHeadOf(await ctx.storeApi(), resolve('.'), resume));
  if (scene) return (await import('./scene-handler.js')).locateScene(ctx, scene, opts);
  const s = await parseLocate(ctx, inputs, opts);
  // DESIGN.md: many results into a pipe are NDJSON; one result, or a dry run's plan, is text.
  const format = chooseFormat(ctx, s.single || s.dryRun ? 'table' : 'ndjson', s.dryRun);
  const warn = (l: string) => note(ctx, l);
  // What the user typed is checked before what is configured: without a key, a missing
  // file is still exit 2 naming the file, not exit 3 naming the key.
  const b = s.batch;
  if (!s.dryRun && b.resume === undefined && !ctx.resolved().key) await expandInputs(b.inputs, { cwd: resolve('.'), ...(b.fromFile !== undefined ? { fromFile: b.fromFile } : {}) });
  const keepMetadataNotice = b.keepMetadata ? await keptMetadataNotice(s.single ? b.inputs[0] : undefined) : '';
  // One line per input, nothing exported or reported at the end: records are printed and let go,
  // so memory does not grow with the batch.
  const streamed = !s.single && !s.dryRun && (format === 'ndjson' || format === 'json') && s.report === undefined;
  const run = await startLocate(ctx, s, { keep: !streamed });
  if (s.scopeNote !== undefined) warn(s.scopeNote);
  const { client, evidence } = run;
  const resume = (journal: string | undefined) => (journal ? resumeCommand(ctx, journal, s.batch) : undefined);
  const custody = run.custody;
  const shared = {
    format, sandbox: () => client.servedBySandbox === true, evidence, resume, ...(s.minConfidence !== undefined ? { minConfidence: s.minConfidence } : {}),
    ...(custody ? { onExport: (f: string, bytes: string | Uint8Array) => custody.fileWritten('export', f, '-', bytes) } : {}),
  };
  const out = s.single ? new SingleOutput(ctx, { ...shared, ...(b.idempotencyKey !== undefined ? { userKey: true } : {}) }) : new ManyOutput(ctx, shared);
  let result;
  try {
    result = await runLocate(ctx, run, {
      onEvent: (e) => {
        if (e.type === 'plan' && !s.dryRun) showPlan(ctx, e.plan);
        if (e.type === 'plan' && !s.dryRun && b.keepMetadata && e.plan.toSend > 0) warn(keepMetadataNotice);
        out.onEvent(e);
      },
      consent: consentDeps(ctx),
      // The live line is redrawn every second on a terminal (one image has its spinner instead).
      ...(ctx.animate && !s.single ? { tickMs: 1000 } : {}),
    });
  } finally {
    await out.stop();
  }
  if (s.dryRun) {
    const f = (EXPORT_FORMATS as readonly string[]).includes(format) ? 'table' : format;
    await writeDryRun(ctx.io.stdout, result.plan, result.previews, { single: s.single, format: f, view: await viewOpts(ctx), ...(s.batch.maxCredits !== undefined ? { maxCredits: s.batch.maxCredits } : {}) });
    return;
  }
  try {
    await out.finish(result);
  } finally {
    const html = s.report !== undefined ? await writeReport(s.report, evidence.recordsFor(result.records), evidence, warn, s.fileMode) : undefined;
    if (html !== undefined) custody?.fileWritten('report', 'html', s.report!, html);
  }
  // Every answer is shown and stored: a custody entry that could not be appended fails the command now.
  const failed = await custody?.close(warn);
  if (failed) throw failed;
};
