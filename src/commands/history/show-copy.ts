/**
 * `geo history show` of a copy of a photo located before (store/copy-links.ts). A reuse's row holds
 * no answer: it is shown as the earlier result's answer under the line that says whose it is,
 * never as the service's answer for its bytes (--json prints the copy's own record, which points
 * there). A paid result says what it is a copy of, and a result its copies.
 */
import type { Ctx } from '../../context.js';
import { reusedSimilarLine } from '../../evidence/copy-events.js';
import { isResultBody } from '../../evidence/records.js';
import { isSimulated } from '../../evidence/simulated.js';
import type { ProvenanceRecord } from '../../evidence/record-types.js';
import { formatOutput, viewOpts } from '../../output/render.js';
import { type CopyMark, copyOfText } from '../../output/views/history.js';
import { copiesAround } from './copies.js';

/** Copies named on one line at most, before "and N more". */
const NAMED = 3;

/** Shows a reuse's row; the line naming the earlier result goes to stderr too (for --json). */
export async function showReuse(ctx: Ctx, r: ProvenanceRecord & Required<Pick<ProvenanceRecord, 'reused_similar'>>, format: string, warn: (line: string) => void): Promise<void> {
  const store = await ctx.storeApi();
  const of = await store.result(r.reused_similar.result);
  const line = reusedSimilarLine(r.reused_similar, of?.record.input.path);
  const body = of?.record.response.body;
  const view = await viewOpts(ctx, format === 'table' && ctx.io.colorOut);
  const { locateView, simulatedLine } = await import('../../output/views/locate.js');
  const human = (v: typeof view) => (isResultBody(body)
    ? locateView(body, { input: r.input.path, evidence: null, reusedSimilar: line, ...(isSimulated(r) ? { simulated: true } : {}) }, v)
    : `${isSimulated(r) ? `${simulatedLine(v)}\n` : ''}${v.style.bold(line)}\nthat result's answer is no longer in the store`);
  ctx.io.stdout.write(await formatOutput({ data: r, records: () => [r], human }, format, view));
  if (format !== 'table') warn(line);
  warn(`stored ${r.stored_at}: a copy's reuse, nothing paid${of ? `; geo history show ${of.record.input.sha256.slice(0, 12)} shows that answer as received` : ''}`);
}

const named = (marks: readonly CopyMark[]) => marks.slice(0, NAMED).map((c) => `${c.input} (${c.distance} bits${c.reused ? ', reused' : ''})`).join(', ') + (marks.length > NAMED ? ` and ${marks.length - NAMED} more` : '');

/** The lines about a shown result's copy links: what it is a copy of, and its copies. */
export async function copyLines(ctx: Ctx, id: number): Promise<string[]> {
  const { of, copies } = await copiesAround(await ctx.storeApi(), id);
  return [
    ...(of ? [`a ${copyOfText(of)} located before (sha256 ${of.sha256.slice(0, 12)}…): paid for, and linked to it`] : []),
    ...(copies.length ? [`its copies: ${named(copies)}`] : []),
  ];
}
