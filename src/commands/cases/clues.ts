/**
 * `geo cases clues CASE`: every item the case's results say (visual clues, the forensic object's
 * supports and contradictions, its candidates), each by its stable id (evidence/clue-ids.ts), with
 * the analyst's latest judgement of it; `geo cases clues CASE accept|reject ID --because TEXT`
 * appends clue_judged. A later judgement of the same clue replaces the earlier in the view; both
 * stay in the log.
 */
import { UsageError } from '../../errors.js';
import { type CaseItem, caseItems } from '../../evidence/clue-ids.js';
import type { InvestigationEvents } from '../../evidence/investigation-events.js';
import { investigationOf } from '../../evidence/investigation.js';
import { isSimulated } from '../../evidence/simulated.js';
import { render, resolveFormat } from '../../output/render.js';
import { sanitizeInline } from '../../output/sanitize.js';
import type { Handler } from '../types.js';
import { type Appended, type InvestigationCtx, type Say, appendedLines, appendInvestigation, openCase, words } from './investigation-append.js';

export type JudgementData = InvestigationEvents['clue_judged']['judgement'];
export type Verdict = JudgementData['verdict'];

/** An item, whether its result is a sandbox's (simulated), and its latest judgement. */
export type ClueRow = CaseItem & {
  input: string | null;
  sandbox: boolean;
  judgement?: { verdict: Verdict; because: string; entry: number; at: string; user: string; role?: string };
};

export interface ClueList {
  case: { id: string; name: string };
  items: ClueRow[];
  /** How many of the case's results a sandbox answered: their items are simulated too. */
  simulated: number;
}

export async function listClues(ctx: Pick<InvestigationCtx, 'storeApi'>, ref: string): Promise<ClueList> {
  const o = await openCase(ctx, ref);
  const results = o.ev.vouch.results;
  const judged = new Map(investigationOf(o.ev.entries).judgements.map((j) => [j.clue, j]));
  const items = caseItems(results).map((item): ClueRow => {
    const r = results[Number(item.result.ref.slice(1)) - 1]!;
    const j = judged.get(item.id);
    return {
      ...item, input: r.input.path, sandbox: r.answer.sandbox,
      ...(j ? { judgement: { verdict: j.verdict, because: j.because, entry: j.entry, at: j.at, user: j.user, ...(j.role !== undefined ? { role: j.role } : {}) } } : {}),
    };
  });
  return { case: { id: o.row.id, name: o.ev.vouch.case.name || o.row.name }, items, simulated: results.filter((r) => isSimulated(r.answer)).length };
}

export interface JudgeOptions {
  case: string;
  /** The item's id, as listClues gives it: r2.clue3, r1.cand1. */
  clue: string;
  verdict: Verdict;
  because: string;
}

export type Judged = Appended & { judgement: JudgementData };

export async function runJudge(ctx: InvestigationCtx, opts: JudgeOptions, say: Say = () => undefined): Promise<Judged> {
  const o = await openCase(ctx, opts.case);
  const item = caseItems(o.ev.vouch.results).find((i) => i.id === opts.clue.trim());
  if (!item) throw new UsageError(`${JSON.stringify(opts.clue)} names no clue of case ${o.row.id}`, `ids look like r1.clue2, r2.support1, r1.cand3: geo cases clues ${o.row.id} lists them`);
  if (opts.verdict !== 'accepted' && opts.verdict !== 'rejected') throw new UsageError(`a clue is accepted or rejected, not ${JSON.stringify(opts.verdict)}`, 'geo cases clues CASE accept|reject ID --because TEXT');
  const because = words('--because', opts.because, opts.verdict === 'accepted' ? 'the same tram stop is on Street View' : 'that sign is on both banks');
  const judgement: JudgementData = { clue: item.id, result: item.result, label: item.label, verdict: opts.verdict, because };
  const done = await appendInvestigation(ctx, o, () => ({ event: 'clue_judged', data: { judgement } }), say);
  return { ...done, judgement };
}

const VERBS: Record<string, Verdict> = { accept: 'accepted', reject: 'rejected' };

function listView(l: ClueList): string {
  if (l.items.length === 0) return `No clues in case ${sanitizeInline(l.case.id)} (${sanitizeInline(l.case.name)}): its results carry none (visual clues come at depth 2 and 3, candidates at 3)`;
  const lines: string[] = [];
  let ref = '';
  for (const i of l.items) {
    if (i.result.ref !== ref) {
      ref = i.result.ref;
      lines.push(`${lines.length ? '\n' : ''}${ref}  ${sanitizeInline(i.input ?? i.result.answer_sha256.slice(0, 12))}${i.sandbox ? '  simulated answer (sandbox): not evidence' : ''}`);
    }
    const c = i.candidate;
    const what = [sanitizeInline(i.label) || '(no label)', i.detail ? sanitizeInline(i.detail) : '', c ? `${c.lat}, ${c.lng}${c.confidence !== null ? `, confidence ${c.confidence}` : ''}` : '', i.box ? 'boxed' : ''].filter(Boolean).join(' · ');
    const j = i.judgement;
    lines.push(`  ${i.id.padEnd(14)} ${what}`);
    if (j) lines.push(`  ${''.padEnd(14)} ${j.verdict} (entry ${j.entry}, ${sanitizeInline(j.role ?? j.user)}): ${sanitizeInline(j.because)}`);
  }
  const judged = l.items.filter((i) => i.judgement).length;
  lines.push('', `${l.items.length} items, ${judged} judged: geo cases clues ${sanitizeInline(l.case.id)} accept|reject ID --because TEXT`);
  return lines.join('\n');
}

export const clues: Handler = async (ctx, args, opts) => {
  resolveFormat(ctx, ['table', 'json']);
  const [ref, verb, id] = args as [string, string | undefined, string | undefined];
  if (verb === undefined) {
    if (opts.because !== undefined) throw new UsageError('--because goes with accept or reject', `geo cases clues ${ref} accept|reject ID --because TEXT`);
    const l = await listClues(ctx, ref);
    await render(ctx, { data: l, human: () => listView(l) }, ['table', 'json']);
    return;
  }
  const verdict = VERBS[verb];
  if (!verdict) throw new UsageError(`geo cases clues takes accept or reject after the case, not ${JSON.stringify(verb)}`, `geo cases clues ${ref} lists the clues; geo cases clues ${ref} accept|reject ID --because TEXT judges one`);
  if (id === undefined) throw new UsageError(`${verb} which clue? Name it by its id`, `geo cases clues ${ref} lists them (r1.clue2, r2.cand1, …)`);
  const res = await runJudge(ctx, { case: ref, clue: id, verdict, because: opts.because as string }, (line) => ctx.io.stderr.write(`${sanitizeInline(line)}\n`));
  const human = () => [...appendedLines(res, `${res.judgement.clue} ${verdict}`), `  ${sanitizeInline(res.judgement.label)}`].join('\n');
  await render(ctx, { data: res, human }, ['table', 'json']);
};
