/**
 * An agent's part in an investigation: `case_summary` reads a local case (its results with every
 * clue's id, and the investigation as `geo cases show` gives it), and `case_note` adds an
 * observation or a hypothesis through `geo cases note`'s own runNote, marked as written by the
 * agent and naming the MCP client. An agent never concludes, rules out, judges a clue or
 * reviews: there is no tool for it, and case_note refuses any argument that would.
 */
import { listClues, runNote, runShow } from '../commands/cases/run.js';
import { RefusedError } from './guards.js';
import { CASE_NOTE, CASE_SUMMARY, parseArgs } from './inputs.js';
import type { ToolCtx, ToolResult } from './tool.js';

/** Arguments that would make a note something else: the analyst's alone. */
const ANALYSTS_ONLY = ['conclusion', 'conclude', 'confidence', 'at', 'within', 'within_m', 'within_km', 'area', 'rule_out', 'ruled_out', 'because', 'verdict', 'judgement', 'accept', 'reject', 'review', 'approve', 'request_changes', 'supersedes', 'by', 'exhibits'];
const KINDS = ['observation', 'hypothesis'];
const NOT_FOR_AGENTS = 'an agent may note (an observation or a hypothesis), never conclude, rule out, judge a clue or review';
const ANALYST_HINT = 'the analyst does that: geo cases conclude, rule-out, clues accept|reject, review (or geo cases work on a terminal)';

/** Refuses, before anything is read, a call that asks for more than a note. */
function noteOnly(raw: unknown): void {
  const args = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const extra = Object.keys(args).filter((k) => ANALYSTS_ONLY.includes(k));
  if (extra.length) throw new RefusedError('not_for_agents', `${NOT_FOR_AGENTS}: case_note takes no ${extra.join(', ')}`, ANALYST_HINT);
  if (typeof args.kind === 'string' && !KINDS.includes(args.kind)) throw new RefusedError('not_for_agents', `${NOT_FOR_AGENTS}: a note's kind is observation or hypothesis, not ${JSON.stringify(args.kind)}`, ANALYST_HINT);
}

export async function caseNote(t: ToolCtx, raw: unknown): Promise<ToolResult> {
  noteOnly(raw);
  const a = parseArgs(CASE_NOTE(), raw);
  const by = { agent: true as const, client: t.client() };
  const res = await runNote(t.ctx, { case: a.case, kind: a.kind, text: a.text, ...(a.results ? { results: a.results } : {}), ...(a.clues ? { clues: a.clues } : {}), by }, t.log);
  return { text: `${a.kind} noted: entry ${res.entry} of case ${res.case.id} (${res.case.name}), marked as written by an agent (${by.client})`, data: res as unknown as Record<string, unknown> };
}

export async function caseSummary(t: ToolCtx, raw: unknown): Promise<ToolResult> {
  const a = parseArgs(CASE_SUMMARY(), raw);
  const show = await runShow(t.ctx, a.case);
  const { items } = await listClues(t.ctx, show.case.id);
  const results = show.results.map((r, i) => {
    const ref = `r${i + 1}`;
    // Each item by its id, with the analyst's latest judgement; `result` (r1, r2…) is what notes point at.
    const clues = items.filter((x) => x.result.ref === ref).map(({ result: _r, input: _i, sandbox: _s, ...item }) => item);
    return { result: ref, ...r, clues };
  });
  const summary = { case: show.case, simulated: show.simulated, custody: show.custody, results, investigation: show.investigation, problems: show.problems };
  return { text: JSON.stringify(summary), data: summary };
}
