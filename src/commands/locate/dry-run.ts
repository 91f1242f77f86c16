/**
 * `--dry-run`: the plan and the exact requests, key redacted and image elided, built by the batch
 * engine from the same code that sends them; nothing is sent. One image keeps the familiar
 * single-request preview; many print the plan, then one request each.
 */
import { DEPTH_LATENCY, type Depth } from '../../api/schemas.js';
import type { BatchPlan, RequestPreview } from '../../batch/plan.js';
import { formatOutput, type ViewOpts } from '../../output/render.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { planLine } from '../../output/views/batch.js';
import { batchRequestView, dryRunView } from '../../output/views/locate-dry-run.js';
import { fromJournalNote } from './notes.js';

function single(plan: BatchPlan, req: RequestPreview, maxCredits: number | undefined) {
  return {
    method: req.method, url: req.url, headers: req.headers, body: req.body,
    cost: { depth: plan.depth, credits: plan.costPerImage, usually: DEPTH_LATENCY[plan.depth as Depth], ...(maxCredits !== undefined ? { max_credits: maxCredits } : {}) },
    ...(plan.available !== undefined ? { available: plan.available } : {}),
    // What of the image would leave the machine (`sent: false`: nothing was sent).
    ...(req.image ? { image: req.image } : {}),
    sent: false as const,
  };
}

export function dryRunText(plan: BatchPlan, opts: { single: boolean; format: string; view: ViewOpts; maxCredits?: number; noun?: string }): Promise<string> {
  const reqs = plan.requests ?? [];
  const { format, view } = opts;
  if (opts.single && reqs.length === 1) {
    const p = single(plan, reqs[0]!, opts.maxCredits);
    return formatOutput({ data: p, human: (v) => dryRunView(p, v) }, format === 'ndjson' ? 'json' : format, view);
  }
  const data = { ...plan, sent: false };
  return formatOutput(
    {
      data,
      records: () => reqs,
      human: (v) =>
        [
          `plan: ${planLine(plan, opts.noun ? { noun: opts.noun } : {})}`,
          ...(plan.journal ? [v.style.dim(`a real run journals to ${sanitizeInline(plan.journal)} (this dry run wrote nothing)`)] : []),
          ...(plan.fromJournal > 0 ? [fromJournalNote()] : []),
          ...(plan.fromResults > 0 ? [`${plan.fromResults} answered by your results of earlier commands: not sent, not charged; --fresh to pay again`] : []),
          // Skipped inputs would get a record each (exit 7); the dry run names them the same way.
          ...plan.skipped.map((k) => v.style.yellow(`skipped ${sanitizeInline(k.input)}: ${sanitizeInline(k.reason)}`)),
          ...reqs.flatMap((r) => ['', batchRequestView(r, v)]),
          '',
          v.style.yellow(`dry run: nothing was sent (${reqs.length} request${reqs.length === 1 ? '' : 's'} previewed)`),
        ].join('\n'),
    },
    format,
    view,
  );
}
