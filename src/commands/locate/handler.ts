/**
 * Glue for `geo locate`. Every locate, one image or a thousand, runs through the batch engine with
 * its journal: the project rule "a rerun of the same work never pays twice" then holds for a single
 * photo too (a rerun re-emits the stored answer; an interrupted one resends with the same key).
 * What differs is the output: one named image prints today's rich view (single.ts), anything else
 * one record per input (many.ts). Evidence (EXIF check, provenance, exports) is local (evidence.ts).
 */
import { resolve } from 'node:path';
import { normalizeBaseUrl } from '../../api/client.js';
import type { BatchClient } from '../../batch/worker.js';
import { overWhat } from '../../batch/consent.js';
import type { BatchPlan } from '../../batch/plan.js';
import { runBatch } from '../../batch/run.js';
import type { Handler } from '../../cli.js';
import { dataDir } from '../../config/paths.js';
import type { Ctx } from '../../context.js';
import { MissingKeyError } from '../../errors.js';
import { expandSamples } from '../../local/samples.js';
import { noPromptReason } from '../../output/io.js';
import { viewOpts } from '../../output/render.js';
import { planLine } from '../../output/views/batch.js';
import { dryRunText } from './dry-run.js';
import { Evidence } from '../../batch/evidence.js';
import { EXPORT_FORMATS, chooseFormat, writeReport } from './exports.js';
import { ManyOutput } from './many.js';
import { note, resumeCommand } from './notes.js';
import { parseLocate } from './options.js';
import { SingleOutput } from './single.js';

/** --dry-run needs no key: without one, the plan simply has no balance. */
function clientFor(ctx: Ctx, dryRun: boolean): BatchClient {
  try {
    return ctx.client();
  } catch (err) {
    if (!(dryRun && err instanceof MissingKeyError)) throw err;
    const fail = () => Promise.reject(err);
    return { baseUrl: normalizeBaseUrl(ctx.resolved().baseUrl.value), credits: fail, geolocate: fail };
  }
}

/**
 * Consent (batch/consent.ts): on a terminal a plan that needs it asks (its plan line is already
 * on stderr); elsewhere the engine refuses it, naming why nothing could ask.
 */
function consentDeps(ctx: Ctx): { confirm: (plan: BatchPlan) => Promise<boolean> } | { noPrompt: string } {
  if (ctx.interactive) return { confirm: (plan) => ctx.prompt.confirm(`Spend up to ${plan.credits} credits (${overWhat(plan)})?`, false) };
  return { noPrompt: noPromptReason(ctx.io, ctx.env, ctx.globals.input === false) ?? 'not interactive' };
}

/**
 * Issue 11: the plan is on stderr before anything is spent (unless -q); a dry run prints it on
 * stdout instead. A balance not read (one image below the threshold) is left out, not "unknown".
 */
function showPlan(ctx: Ctx, plan: BatchPlan): void {
  if (plan.toSend > 0) note(ctx, `plan: ${planLine(plan, { balance: false })}`);
}

export const locate: Handler = async (ctx, args, opts) => {
  const inputs = expandSamples((args[0] as string[] | undefined) ?? []);
  const s = await parseLocate(ctx, inputs, opts);
  // DESIGN.md: many results into a pipe are NDJSON; one result, or a dry run's plan, is text.
  const format = chooseFormat(ctx, s.single || s.dryRun ? 'table' : 'ndjson', s.dryRun);
  const client = clientFor(ctx, s.dryRun);
  const warn = (l: string) => note(ctx, l);
  if (s.scopeNote !== undefined) warn(s.scopeNote);
  const account = ctx.account();
  const evidence = new Evidence(ctx, { store: s.store && !s.dryRun, baseUrl: client.baseUrl, warn, ...(account !== undefined ? { account } : {}) });
  const resume = (journal: string | undefined) => (journal ? resumeCommand(ctx, journal, s.batch) : undefined);
  const shared = { format, sandbox: () => client.servedBySandbox === true, evidence, resume, ...(s.minConfidence !== undefined ? { minConfidence: s.minConfidence } : {}) };
  const out = s.single ? new SingleOutput(ctx, shared) : new ManyOutput(ctx, shared);
  let result;
  try {
    result = await runBatch(
      {
        client, env: ctx.env, now: ctx.now, sleep: ctx.sleep, signal: ctx.signal, stdin: ctx.io.stdin,
        // Relative names are the user's, from where geo was started (path.resolve reads it).
        cwd: resolve('.'),
        onEvent: (e) => {
          if (e.type === 'plan' && !s.dryRun) showPlan(ctx, e.plan);
          evidence.onEvent(e);
          out.onEvent(e);
        },
        exif: evidence.exif,
        // Stored results are read for reuse even with --no-store, which only stops new writes.
        ...(account !== undefined ? { account } : {}), dataDir: dataDir(ctx.env),
        ...consentDeps(ctx),
        // The live line is redrawn every second on a terminal (one image has its spinner instead).
        ...(ctx.animate && !s.single ? { tickMs: 1000 } : {}),
      },
      s.batch,
    );
  } finally {
    await out.stop();
  }
  await evidence.flush();
  if (s.dryRun) {
    const f = (EXPORT_FORMATS as readonly string[]).includes(format) ? 'table' : format;
    ctx.io.stdout.write(await dryRunText(result.plan, { single: s.single, format: f, view: await viewOpts(ctx), ...(s.batch.maxCredits !== undefined ? { maxCredits: s.batch.maxCredits } : {}) }));
    return;
  }
  try {
    await out.finish(result);
  } finally {
    if (s.report !== undefined) await writeReport(s.report, evidence.recordsFor(result.records), evidence, warn);
  }
};
