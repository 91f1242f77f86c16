/**
 * Glue for `geo claims check`: the claims settled locally (bad rows named on stderr,
 * nothing sent for them), the plan on stderr before anything is spent, then every verdict in the
 * format asked: a table fitted to the terminal (one claim: its verdict and evidence), JSON (one
 * object for one image, else an array), NDJSON, CSV, GeoJSON, KML or an HTML report, and
 * --report FILE beside any of them. Exit codes: 0; 2 bad input with nothing to check, a plan
 * refused; 3/4/5/6/130 when the batch stopped; 9 with --fail-on contradicts when a claim was
 * contradicted; 7 when some rows were not checked or their images not located.
 */
import type { ClaimRecord } from '../../claims/record.js';
import { consentDeps } from '../../batch/consent.js';
import { describeStop, stopExitCode } from '../../batch/outcome.js';
import type { BatchPlan } from '../../batch/types.js';
import type { Ctx } from '../../context.js';
import { ClaimContradictedError, PartialFailureError } from '../../errors.js';
import { writeOwnFile } from '../../files/own-file.js';
import { checkWritableFile } from '../../files/safe.js';
import { stderrText } from '../../output/fit.js';
import { PLAIN } from '../../output/plain-style.js';
import { BASE_FORMATS, formatOutput, resolveFormat, viewOpts } from '../../output/render.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { planLine, summaryLines } from '../../output/views/batch.js';
import type { Handler } from '../types.js';
import { type ClaimsOutcome, lineOf, parseClaims, prepareClaims, runClaims } from './run.js';

export const CLAIM_FORMATS = [...BASE_FORMATS, 'csv', 'geojson', 'kml', 'html'] as const;

function dryRunText(plans: readonly BatchPlan[], labels: readonly string[], format: string): string {
  const total = plans.reduce((n, p) => n + p.credits, 0);
  if (format === 'json' || format === 'ndjson') return JSON.stringify({ plans: plans.map((p, i) => ({ batch: labels[i], ...p })), credits: total, sent: false }, null, format === 'json' ? 2 : undefined) + '\n';
  const several = plans.length > 1;
  return [...plans.map((p, i) => `plan${several ? `, ${labels[i]}` : ''}: ${planLine(p)}`), ...(several ? [`all batches: up to ${total} credit${total === 1 ? '' : 's'}`] : []), 'dry run: nothing was sent'].join('\n') + '\n';
}

/** The records in the format asked (html is built by the caller: it needs the images). */
async function rendered(ctx: Ctx, format: string, records: ClaimRecord[], single: boolean): Promise<string> {
  const view = await viewOpts(ctx, format === 'table' && ctx.io.colorOut);
  const exports = await import('../../output/export/claims.js');
  if (format === 'csv') return exports.renderClaimsCSV(records);
  if (format === 'geojson') return exports.renderClaimsGeoJSON(records);
  if (format === 'kml') return exports.renderClaimsKML(records);
  const views = await import('../../output/views/claims.js');
  return formatOutput({ data: single ? records[0] : records, records: () => records, human: (v) => (single ? views.claimView(records[0]!, v) : views.claimsTable(records, v)) }, format, view);
}

async function reportHtml(ctx: Ctx, o: Extract<ClaimsOutcome, { dryRun: false }>): Promise<string> {
  const answered = o.entries.flatMap((e) => (e.checked?.record ? [e.checked.record] : []));
  const sources = new Map(answered.map((r, i) => [r, i]));
  const images = await o.evidence.sources(answered);
  const entries = o.entries.map((e) => {
    const at = e.checked?.record ? sources.get(e.checked.record) : undefined;
    return { record: e.record, ...(at !== undefined ? { source: images[at]! } : {}) };
  });
  const { buildClaimsReport } = await import('../../output/export/claims-report.js');
  const r = await buildClaimsReport(entries, { generatedAt: new Date(ctx.now()).toISOString(), cliVersion: ctx.version });
  if (!r.hasMap) ctx.io.stderr.write('warning: the leaflet package is not installed, so the report has no map\n');
  return r.html;
}

export const check: Handler = async (ctx, args, opts) => {
  const s = parseClaims(ctx, (args[0] as string[] | undefined) ?? [], opts);
  const say = (line: string) => {
    if (!ctx.globals.quiet) ctx.io.stderr.write(stderrText(ctx.io, sanitizeInline(line)) + '\n');
  };
  const prepared = await prepareClaims(s, say, ctx.frugalMemory ? { frugalMemory: ctx.frugalMemory } : {});
  // DESIGN.md: many results into a pipe are NDJSON; one result, or a dry run's plan, is text.
  const format = resolveFormat(ctx, CLAIM_FORMATS, prepared.single || s.dryRun ? 'table' : 'ndjson');
  for (const p of prepared.problems) say(lineOf(p));
  for (const k of prepared.skipped) say(`skipped ${k.path}: ${k.reason}; not sent`);
  // The report is none of the files read (the arguments, every image the claims name): refused
  // now, before anything is sent, and again as it is written (files/own-file.ts).
  const read = () => [...s.args, ...prepared.claims.map((c) => c.path)];
  if (s.report !== undefined && !s.dryRun) checkWritableFile(s.report, 'the report', { inputs: read });
  const n = prepared.claims.length;
  const outcome = await runClaims(ctx, prepared, {
    consent: consentDeps(ctx, `${n} claim${n === 1 ? '' : 's'}`), say,
    onEvent: (e) => e.type === 'notice' && say(e.message),
  });
  if (outcome.dryRun) {
    ctx.io.stdout.write(dryRunText(outcome.plans, outcome.labels, format));
    return;
  }
  const { records, custody } = outcome;
  const html = format === 'html' || s.report !== undefined ? await reportHtml(ctx, outcome) : undefined;
  const text = format === 'html' ? html! : await rendered(ctx, format, records, prepared.single && records.length === 1);
  ctx.io.stdout.write(text);
  if (custody && format !== 'table' && format !== 'json' && format !== 'ndjson') custody.fileWritten(format === 'html' ? 'report' : 'export', format, '-', text);
  if (s.report !== undefined && html !== undefined) {
    await writeOwnFile(s.report, 'the report', html, { inputs: read, ...(s.fileMode ? { mode: s.fileMode } : {}) });
    custody?.fileWritten('report', 'html', s.report, html);
    say(`report: ${s.report}`);
  }
  if (outcome.sandbox) say('sandbox: simulated results, sandbox credits, no real money; never evidence');
  const { verdictCounts } = await import('../../output/views/claims.js');
  say(verdictCounts(records));
  if (outcome.reused > 0) say(`${outcome.reused} answer${outcome.reused === 1 ? '' : 's'} from your earlier runs (stored results): not sent, not charged`);
  for (const summary of outcome.summaries) {
    const { stopped, ...counts } = summary;
    summaryLines({ ...counts, ...(stopped ? { stopped: describeStop(stopped) } : {}) }, PLAIN).slice(0, 1).forEach(say);
  }
  const custodyFailed = await custody?.close(say);
  const stopped = outcome.summaries.find((x) => x.stopped)?.stopped;
  const failed = records.filter((r) => r.verdict === null || r.rule === 'not_located').length;
  if (stopped) throw new PartialFailureError(failed, records.length, stopExitCode(stopped));
  const contradicted = records.filter((r) => r.verdict === 'contradicts').length;
  if (s.failOn === 'contradicts' && contradicted > 0) throw new ClaimContradictedError(contradicted, records.length - records.filter((r) => r.verdict === null).length);
  if (failed > 0) throw new PartialFailureError(failed, records.length);
  if (custodyFailed) throw custodyFailed;
};
