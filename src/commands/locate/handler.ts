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
import type { BatchPlan } from '../../batch/plan.js';
import { runBatch } from '../../batch/run.js';
import type { Handler } from '../../cli.js';
import type { Ctx } from '../../context.js';
import { MissingKeyError } from '../../errors.js';
import { viewOpts } from '../../output/render.js';
import { planLine } from '../../output/views/batch.js';
import { dryRunText } from './dry-run.js';
import { Evidence } from './evidence.js';
import { EXPORT_FORMATS, chooseFormat, writeReport } from './exports.js';
import { ManyOutput } from './many.js';
import { note } from './notes.js';
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

/** On a terminal, a plan above the threshold (or the balance) asks first; --yes and pipes never ask. */
function confirmer(ctx: Ctx): ((plan: BatchPlan) => Promise<boolean>) | undefined {
  if (!ctx.interactive || ctx.globals.yes) return undefined;
  return async (plan) => {
    ctx.io.stderr.write(`plan: ${planLine(plan)}\n`);
    const over = plan.insufficient ? `more than the balance of ${plan.available}` : `above the confirm threshold of ${plan.confirmThreshold}`;
    return ctx.prompt.confirm(`Spend up to ${plan.credits} credits (${over})?`, false);
  };
}

export const locate: Handler = async (ctx, args, opts) => {
  const inputs = (args[0] as string[] | undefined) ?? [];
  const s = await parseLocate(ctx, inputs, opts);
  const format = chooseFormat(ctx);
  const client = clientFor(ctx, s.dryRun);
  const warn = (l: string) => note(ctx, l);
  if (s.scopeNote !== undefined) warn(s.scopeNote);
  const evidence = new Evidence(ctx, { store: s.store && !s.dryRun, baseUrl: client.baseUrl, warn });
  const shared = { format, sandbox: () => client.servedBySandbox === true, evidence, ...(s.minConfidence !== undefined ? { minConfidence: s.minConfidence } : {}) };
  const out = s.single ? new SingleOutput(ctx, shared) : new ManyOutput(ctx, shared);
  const confirm = confirmer(ctx);
  let result;
  try {
    result = await runBatch(
      {
        client, env: ctx.env, now: ctx.now, sleep: ctx.sleep, signal: ctx.signal, stdin: ctx.io.stdin,
        // Relative names are the user's, from where geo was started (path.resolve reads it).
        cwd: resolve('.'),
        onEvent: (e) => {
          evidence.onEvent(e);
          out.onEvent(e);
        },
        exif: evidence.exif,
        ...(confirm ? { confirm } : {}),
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
