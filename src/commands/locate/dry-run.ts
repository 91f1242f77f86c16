/**
 * `--dry-run`: the plan and the exact requests, key redacted and image elided, built by the batch
 * engine from the same code that sends them; nothing is sent. One image keeps the familiar
 * single-request preview; many print the plan, then one request each, written as each is made:
 * 100,000 previews are never held at once, in any format.
 */
import type { Writable } from 'node:stream';
import { DEPTH_LATENCY, type Depth } from '../../api/schemas.js';
import type { RequestPreview } from '../../batch/plan.js';
import type { BatchPlan } from '../../batch/types.js';
import { formatOutput, type ViewOpts } from '../../output/render.js';
import { sanitizeInline, sanitizeJsonText } from '../../output/sanitize.js';
import { planLine, similarLine } from '../../output/views/batch.js';
import { batchRequestView, dryRunView } from '../../output/views/locate-dry-run.js';
import { writeAll } from '../../output/write-all.js';
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

export interface DryRunOpts {
  single: boolean;
  format: string;
  view: ViewOpts;
  maxCredits?: number;
  noun?: string;
}

/** The previews as an array: for the few requests of a video's frames, printed inside one object. */
export async function collectPreviews(previews: AsyncIterable<RequestPreview> | undefined): Promise<RequestPreview[]> {
  const out: RequestPreview[] = [];
  if (previews) for await (const p of previews) out.push(p);
  return out;
}

/** Writes the dry run to `out` as it is made (the format's exact text, as one string would be). */
export async function writeDryRun(out: Writable, plan: BatchPlan, previews: AsyncIterable<RequestPreview> | undefined, opts: DryRunOpts): Promise<void> {
  const reqs = previews ?? (async function* () {})();
  if (opts.single) {
    const first = (await collectPreviews(reqs))[0];
    if (first) {
      const p = single(plan, first, opts.maxCredits);
      // The JSON preview is the request alone; a person is told when the image looks like one located before.
      const copies = similarLine(plan);
      out.write(await formatOutput({ data: p, human: (v) => `${dryRunView(p, v)}${copies ? `\n${copies}` : ''}` }, opts.format === 'ndjson' ? 'json' : opts.format, opts.view));
      return;
    }
  }
  await writeAll(out, opts.format === 'json' ? jsonChunks(plan, reqs) : opts.format === 'ndjson' ? ndjsonChunks(reqs) : humanChunks(plan, reqs, opts));
}

async function* ndjsonChunks(reqs: AsyncIterable<RequestPreview>): AsyncIterable<string> {
  for await (const r of reqs) yield sanitizeJsonText(JSON.stringify(r)) + '\n';
}

/** `{...plan, "requests": [...], "sent": false}` indented by 2, as JSON.stringify would write it whole. */
async function* jsonChunks(plan: BatchPlan, reqs: AsyncIterable<RequestPreview>): AsyncIterable<string> {
  const MARK = '\u0000requests\u0000';
  const [head, tail] = JSON.stringify({ ...plan, requests: MARK, sent: false }, null, 2).split(JSON.stringify(MARK)) as [string, string];
  yield sanitizeJsonText(head);
  let n = 0;
  for await (const r of reqs) yield (n++ === 0 ? '[\n' : ',\n') + sanitizeJsonText(JSON.stringify(r, null, 2)).replace(/^/gm, '    ');
  yield (n === 0 ? '[]' : '\n  ]') + sanitizeJsonText(tail) + '\n';
}

async function* humanChunks(plan: BatchPlan, reqs: AsyncIterable<RequestPreview>, opts: DryRunOpts): AsyncIterable<string> {
  const v = opts.view;
  yield [
    `plan: ${planLine(plan, opts.noun ? { noun: opts.noun } : {})}`,
    ...(plan.journal ? [v.style.dim(`a real run journals to ${sanitizeInline(plan.journal)} (this dry run wrote nothing)`)] : []),
    ...(plan.fromJournal > 0 ? [fromJournalNote()] : []),
    ...(plan.fromResults > 0 ? [`${plan.fromResults} answered by your results of earlier commands: not sent, not charged; --fresh to pay again`] : []),
    ...(similarLine(plan) !== undefined ? [similarLine(plan)!] : []),
    // Skipped inputs would get a record each (exit 7); the dry run names them the same way.
    ...plan.skipped.map((k) => v.style.yellow(`skipped ${sanitizeInline(k.input)}: ${sanitizeInline(k.reason)}`)),
  ].join('\n');
  let n = 0;
  for await (const r of reqs) {
    n++;
    yield `\n\n${batchRequestView(r, v)}`;
  }
  yield `\n\n${v.style.yellow(`dry run: nothing was sent (${n} request${n === 1 ? '' : 's'} previewed)`)}\n`;
}
