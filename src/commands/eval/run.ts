/**
 * Glue for `geo eval` (videos and --together sets: work.ts): truth, then the answers (located on the batch engine, or read
 * with --from), then the figures in the format asked, and --report. Exit codes: 0; 2 for bad
 * input, no image with a truth, a plan above --max-credits or refused consent (nothing sent);
 * 3/4/5/6/130 when a batch stopped early (the figures of what was answered are still printed);
 * 7 when some images failed (they count in n, not in scored).
 */
import { resolve } from 'node:path';
import type { Depth } from '../../api/schemas.js';
import { Evidence } from '../../batch/evidence.js';
import { describeStop, stopExitCode } from '../../batch/outcome.js';
import type { BatchPlan } from '../../batch/types.js';
import type { BatchEvent, BatchSummary } from '../../batch/types.js';
import type { Handler } from '../types.js';
import type { Ctx } from '../../context.js';
import { PartialFailureError } from '../../errors.js';
import { writeOwnFile } from '../../files/own-file.js';
import { type EvalReport, type EvalRow, evaluate, withConsensus } from '../../eval/evaluate.js';
import { readTruthFile } from '../../eval/truth.js';
import { renderEvalReport } from '../../output/export/eval-report.js';
import { PLAIN } from '../../output/plain-style.js';
import { BASE_FORMATS, formatOutput, resolveFormat, viewOpts } from '../../output/render.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { planLine, summaryLines } from '../../output/views/batch.js';
import { locateDepths } from './batches.js';
import { rowsFromResults } from './from.js';
import { type EvalSettings, evalReads, parseEval } from './options.js';
import { type Scored, evalWork } from './work.js';
import { clientForPlan } from '../../batch/keyless.js';
import { type CaseCustody, openCaseCustody } from '../../batch/case-custody.js';
import { caseSigner } from '../../batch/case-sign.js';

import { stderrText } from '../../output/fit.js';

type Say = (line: string) => void;

function dryRunText(plans: readonly BatchPlan[], format: string): string {
  const total = plans.reduce((n, p) => n + p.credits, 0);
  if (format !== 'table') return JSON.stringify({ plans, credits: total, sent: false }, null, format === 'json' ? 2 : undefined) + '\n';
  return [
    ...plans.map((p) => `plan, depth ${p.depth}: ${planLine(p)}`),
    `all depths: up to ${total} credit${total === 1 ? '' : 's'}`,
    'dry run: nothing was sent',
  ].join('\n') + '\n';
}

/** The answers: read from --from, or located now. Undefined after a dry run (its plan is printed). */
async function answers(ctx: Ctx, s: EvalSettings, format: string, say: Say, custody: CaseCustody | undefined): Promise<Scored & { summaries: Array<{ depth: Depth; summary: BatchSummary }>; source?: string } | undefined> {
  const cwd = resolve('.');
  const truth = s.truth !== undefined ? await readTruthFile(s.truth, cwd) : undefined;
  if (s.from !== undefined) {
    const rows = await rowsFromResults(s.from, { cwd, ...(truth ? { truth } : {}), correctWithinKm: s.correctWithinKm, ...(s.depthGiven ? { depths: s.depths } : {}), say });
    return { rows, summaries: [], source: `answers read from ${s.from}, nothing sent` };
  }
  const work = await evalWork(ctx, s, cwd, truth, say);
  const client = clientForPlan(() => ctx.client(), () => ctx.resolved().baseUrl.value, s.dryRun);
  const evidence = new Evidence(ctx, { store: s.store && !s.dryRun });
  let reused = 0;
  const onEvent = (_depth: Depth, e: BatchEvent) => {
    custody?.onEvent(e);
    if (e.type === 'notice') say(e.message);
    if (e.type === 'finished' && (e.reused || e.fromJournal)) reused++;
  };
  const ran = await locateDepths(ctx, s, work.works, { evidence, say, onEvent, ...(custody ? { caseId: custody.kase.id } : {}) });
  if (ran.dryRun) {
    ctx.io.stdout.write(dryRunText(ran.plans, format));
    return undefined;
  }
  if (reused > 0) say(`${reused} answer${reused === 1 ? '' : 's'} from your earlier runs (journal or stored results): not sent, not charged`);
  const summaries = ran.runs.map((r) => ({ depth: r.depth, summary: r.result.summary }));
  return { ...work.score(ran.runs), summaries, ...(client.servedBySandbox ? { source: 'answers from the sandbox: simulated' } : {}) };
}

async function print(ctx: Ctx, format: string, report: EvalReport, rows: readonly EvalRow[], consensus?: readonly EvalRow[]): Promise<void> {
  if (format === 'ndjson') {
    const line = (r: EvalRow, consensus?: true) => ({ input: r.input, truth: r.truth, estimate: r.estimate, error_km: r.error_km, confidence: r.confidence, correct: r.correct, depth: r.depth, ...(consensus ? { consensus } : {}), ...(r.error ? { error: r.error } : {}) });
    ctx.io.stdout.write(await formatOutput({ data: report, records: () => [...rows.map((r) => line(r)), ...(consensus ?? []).map((r) => line(r, true))], human: () => '' }, 'ndjson', await viewOpts(ctx, false)));
    return;
  }
  const view = await viewOpts(ctx, format === 'table' && ctx.io.colorOut);
  ctx.io.stdout.write(await formatOutput({ data: report, human: async (v) => (await import('../../output/views/eval.js')).evalView(report, v) }, format, view));
}

export const evaluateImages: Handler = async (ctx, args, opts) => {
  // --claims: the claim-check rules calibrated on truth, a run of its own.
  if (opts.claims !== undefined) return (await import('./claims.js')).evaluateClaims(ctx, args, opts);
  // --copies: the perceptual hash calibrated on copies, hashed here; nothing is sent.
  if (opts.copies !== undefined) return (await import('./copies.js')).evaluateCopies(ctx, args, opts);
  const s = parseEval(ctx, (args[0] as string[] | undefined) ?? [], opts);
  const format = resolveFormat(ctx, BASE_FORMATS, 'table');
  const say: Say = (line) => {
    // Fitted to a terminal as locate's notes are (the plan lines broke mid-word at 60 columns).
    if (!ctx.globals.quiet) ctx.io.stderr.write(stderrText(ctx.io, sanitizeInline(line), '  ') + '\n');
  };
  // --case: found before anything is read or sent (an unknown case is exit 2, nothing charged).
  const signer = s.caseRef !== undefined ? await caseSigner(ctx, say) : undefined;
  const sign = async (id: string) => signer!.auto(id);
  const custody = s.caseRef !== undefined ? await openCaseCustody({ store: await ctx.storeApi(), version: ctx.version, actor: await signer!.actor(), now: ctx.now, cwd: resolve('.'), onCleanup: ctx.onCleanup, say, sign }, s.caseRef) : undefined;
  const got = await answers(ctx, s, format, say, custody);
  if (!got) return;
  const frames = evaluate(got.rows, s.correctWithinKm);
  const report = got.consensus ? withConsensus(frames, got.consensus, s.correctWithinKm, got.kind ?? 'video') : frames;
  await print(ctx, format, report, got.rows, got.consensus);
  if (s.report !== undefined) {
    const html = renderEvalReport(report, got.rows, { generatedAt: new Date(ctx.now()).toISOString(), cliVersion: ctx.version, ...(got.source ? { source: got.source } : {}), ...(got.consensus ? { consensusRows: got.consensus } : {}) });
    const read = () => [...evalReads(s.inputs, s), ...got.rows.map((r) => r.input)];
    await writeOwnFile(s.report, 'the report', html, { inputs: read, ...(s.fileMode ? { mode: s.fileMode } : {}) });
    custody?.fileWritten('report', 'html', s.report, html);
    say(`report: ${s.report}`);
  }
  for (const { depth, summary } of got.summaries) {
    const { stopped, ...counts } = summary;
    summaryLines({ ...counts, ...(stopped ? { stopped: describeStop(stopped) } : {}) }, PLAIN).forEach((l, i) => say(i === 0 ? `depth ${depth}: ${l}` : l));
  }
  const custodyFailed = await custody?.close(say);
  const stopped = got.summaries.find((x) => x.summary.stopped)?.summary.stopped;
  const failed = got.rows.filter((r) => r.error_km === null).length;
  if (stopped) throw new PartialFailureError(failed, got.rows.length, stopExitCode(stopped));
  if (failed > 0) throw new PartialFailureError(failed, got.rows.length);
  if (custodyFailed) throw custodyFailed;
};
