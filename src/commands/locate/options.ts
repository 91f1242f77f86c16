/**
 * `geo locate` flags -> the batch options and the output settings. Everything here runs before a
 * byte is read or sent, so a bad flag costs nothing (exit 2).
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Depth } from '../../api/schemas.js';
import type { BatchOptions } from '../../batch/run.js';
import type { Ctx } from '../../context.js';
import { UsageError } from '../../errors.js';
import { checkWritableFile } from '../../files/safe.js';
import { configuredThreshold } from '../../batch/consent.js';
import { isUrlInput } from '../../batch/inputs.js';
import { type LocateFlags, planLocate } from './request.js';
import { fileMode, wholeNumber } from '../../flags.js';
import type { FileMode } from '../../files/own-file.js';

const FLAG_NAMES = ['depth', 'effort', 'scope', 'center', 'radius', 'capturedAt', 'batchId', 'async', 'model', 'idempotencyKey', 'maxCredits', 'minConfidence'] as const;

export interface LocateSettings {
  batch: BatchOptions;
  /** One named image (not a folder, not a list): the rich view, and --json is the body as received. */
  single: boolean;
  dryRun: boolean;
  minConfidence?: number;
  store: boolean;
  report?: string;
  /** --file-mode: the report's mode (0600 unless asked). */
  fileMode?: FileMode;
  /** Which place `--scope NAME` was taken as, when its centre came from the offline index. */
  scopeNote?: string;
  /** --case: the local case each result is linked to, with its custody entries. */
  caseRef?: string;
}



/** A folder, a list or several names always print one record per input, even when they hold one image. */
async function namesOneImage(inputs: string[], fromFile: unknown): Promise<boolean> {
  if (inputs.length !== 1 || fromFile !== undefined) return false;
  const only = inputs[0]!;
  if (only === '-' || isUrlInput(only)) return true;
  return !(await stat(resolve(only)).then((s) => s.isDirectory(), () => false));
}

export async function parseLocate(ctx: Ctx, inputs: string[], opts: Record<string, unknown>): Promise<LocateSettings> {
  const flags = Object.fromEntries(FLAG_NAMES.filter((k) => opts[k] !== undefined).map((k) => [k, opts[k]])) as LocateFlags;
  const resume = opts.resume as string | undefined;
  const single = await namesOneImage(inputs, opts.fromFile);
  // On --resume the journal's depth wins over the configured default (a flag still must match it).
  const configDepth = resume === undefined ? ctx.config.getDefault('depth') : undefined;
  const plan = planLocate(flags, single && isUrlInput(inputs[0]!) ? inputs[0] : undefined, configDepth);
  const r = plan.request;
  if (plan.idempotencyKey !== undefined && !single) {
    throw new UsageError('--idempotency-key names one request: give exactly one image', 'for many inputs the journal keeps one key per image (--journal FILE)');
  }
  const concurrency = wholeNumber(opts.concurrency, '--concurrency', 1, 256, 'by default it follows the rate limit and the observed latency');
  const threshold = configuredThreshold(ctx.config.getDefault('confirm_threshold'));
  const journal = opts.journal as string | undefined;
  const batch: BatchOptions = {
    inputs,
    ...(opts.fromFile !== undefined ? { fromFile: String(opts.fromFile) } : {}),
    ...(r.depth !== undefined ? { depth: r.depth as Depth } : {}),
    ...(r.effort !== undefined ? { effort: r.effort } : {}),
    ...(r.scope !== undefined ? { scope: r.scope } : {}),
    ...(r.batch_id !== undefined ? { batchId: r.batch_id } : {}),
    ...(r.model !== undefined ? { model: r.model } : {}),
    ...(r.async ? { async: true } : {}),
    ...(plan.idempotencyKey !== undefined ? { idempotencyKey: plan.idempotencyKey } : {}),
    ...(concurrency !== undefined ? { concurrency } : {}),
    // A caller's own key already makes a rerun free (the service replays it): no journal needed.
    ...(journal !== undefined ? { journal } : plan.idempotencyKey !== undefined ? { journal: false as const } : {}),
    ...(resume !== undefined ? { resume } : {}),
    ...(opts.fresh ? { fresh: true } : {}),
    ...(opts.reuseSimilar ? { reuseSimilar: true } : {}),
    ...(plan.maxCredits !== undefined ? { maxCredits: plan.maxCredits } : {}),
    ...(ctx.globals.yes ? { yes: true } : {}),
    ...(threshold !== undefined ? { confirmThreshold: threshold } : {}),
    ...(opts.dryRun ? { dryRun: true } : {}),
    ...(opts.downscale ? { downscale: true } : {}),
    ...(opts.keepMetadata ? { keepMetadata: true } : {}),
    ...(opts.serviceFetch ? { serviceFetch: true } : {}),
    ...(opts.keepOriginal ? { keepOriginal: true } : {}),
  };
  if (journal !== undefined && resume !== undefined) throw new UsageError('--journal and --resume both name the journal', '--resume FILE alone reruns that journal\'s command');
  const report = opts.report as string | undefined;
  if (report !== undefined && r.async) throw new UsageError('--report needs the result, which --async does not wait for');
  // Refused before anything is sent: a link, a FIFO, a second name, one of the inputs (and, once
  // folders are listed, any file found in them: batch/prepare.ts).
  if (report !== undefined) {
    checkWritableFile(report, 'the report', { inputs: () => inputs });
    batch.writes = [{ path: resolve(report), what: 'the report' }];
  }
  const mode = fileMode(opts.fileMode);
  const caseRef = opts.case as string | undefined;
  if (caseRef !== undefined && opts.store === false) throw new UsageError('--case keeps its results in the store, which --no-store keeps them out of', 'drop --no-store, or --case');
  if (opts.keepOriginal && opts.store === false) throw new UsageError('--keep-original keeps the photos in the store, which --no-store keeps out of it', 'drop --no-store, or --keep-original');
  return {
    batch,
    single,
    dryRun: Boolean(opts.dryRun),
    ...(plan.minConfidence !== undefined ? { minConfidence: plan.minConfidence } : {}),
    store: opts.store !== false,
    ...(report !== undefined ? { report } : {}),
    ...(mode !== undefined ? { fileMode: mode } : {}),
    ...(plan.scopeNote !== undefined ? { scopeNote: plan.scopeNote } : {}),
    ...(caseRef !== undefined ? { caseRef } : {}),
  };
}
