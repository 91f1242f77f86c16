/**
 * `geo cases note CASE --observation TEXT | --hypothesis TEXT`: what the analyst sees or supposes,
 * appended to the case's custody log as note_made, with the results, clues and exhibits it rests
 * on. Everything is checked first (the words, every result and clue id, every exhibit read): a bad
 * one is a usage error and nothing is kept or appended.
 */
import { UsageError } from '../../errors.js';
import { caseItems } from '../../evidence/clue-ids.js';
import type { AgentMark, InvestigationEvents } from '../../evidence/investigation-events.js';
import { render, resolveFormat } from '../../output/render.js';
import { sanitizeInline } from '../../output/sanitize.js';
import type { Handler } from '../types.js';
import { type ExhibitInput, keepExhibits, pairExhibits, readExhibit } from './exhibit.js';
import { type Appended, type InvestigationCtx, type OpenedCase, type Say, appendedLines, appendInvestigation, namedResults, openCase, words } from './investigation-append.js';

export type NoteData = InvestigationEvents['note_made']['note'];

export interface NoteOptions {
  case: string;
  kind: 'observation' | 'hypothesis';
  text: string;
  /** Results it points at: r2, an analysis id, a sha256 prefix. */
  results?: readonly string[];
  /** Clue ids (geo cases clues lists them): r2.clue3, r1.cand1. */
  clues?: readonly string[];
  exhibits?: readonly ExhibitInput[];
  /** Written by an agent through geo mcp, not by the analyst at the keyboard. */
  by?: AgentMark;
}

export type Noted = Appended & { note: NoteData };

/** Each clue id named, checked against the case's items; an unknown one is a usage error. */
export function namedClues(o: OpenedCase, ids: readonly string[] | undefined): string[] {
  if (!ids?.length) return [];
  const known = new Set(caseItems(o.ev.vouch.results).map((i) => i.id));
  const out: string[] = [];
  for (const raw of ids) {
    const id = raw.trim();
    if (!known.has(id)) throw new UsageError(`--clue ${JSON.stringify(raw)} names no clue of case ${o.row.id}`, `ids look like r1.clue2, r2.support1, r1.cand3: geo cases clues ${o.row.id} lists them`);
    if (!out.includes(id)) out.push(id);
  }
  return out;
}

export async function runNote(ctx: InvestigationCtx, opts: NoteOptions, say: Say = () => undefined): Promise<Noted> {
  const o = await openCase(ctx, opts.case);
  const text = words(`--${opts.kind}`, opts.text, opts.kind === 'observation' ? 'the shop sign is in Cyrillic' : 'taken from the north bank, looking south');
  const results = namedResults(o, opts.results);
  const clues = namedClues(o, opts.clues);
  const read = [];
  for (const x of opts.exhibits ?? []) read.push(await readExhibit(x));
  // Every input holds: only now is anything kept or appended.
  const exhibits = await keepExhibits(o.store, read);
  const note: NoteData = { kind: opts.kind, text, ...(results.length ? { results } : {}), ...(clues.length ? { clues } : {}), ...(exhibits.length ? { exhibits } : {}), ...(opts.by ? { by: opts.by } : {}) };
  const done = await appendInvestigation(ctx, o, () => ({ event: 'note_made', data: { note } }), say);
  return { ...done, note };
}

const list = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.map(String) : undefined);

export const note: Handler = async (ctx, args, opts) => {
  resolveFormat(ctx, ['table', 'json']);
  const given = [opts.observation, opts.hypothesis].filter((v) => v !== undefined);
  if (given.length !== 1) throw new UsageError(given.length ? 'give --observation or --hypothesis, not both: one note each' : 'a note needs --observation TEXT or --hypothesis TEXT', 'e.g. geo cases note CASE --observation "the shop sign is in Cyrillic"');
  const kind = opts.observation !== undefined ? 'observation' : 'hypothesis';
  const res = await runNote(ctx, {
    case: args[0] as string, kind, text: String(given[0]), results: list(opts.result), clues: list(opts.clue), exhibits: pairExhibits(list(opts.exhibit), list(opts.source)),
  }, (line) => ctx.io.stderr.write(`${sanitizeInline(line)}\n`));
  const [noted, ...signed] = appendedLines(res, `${kind} noted`);
  const human = () => [
    noted,
    ...(res.note.exhibits ?? []).map((x) => `  exhibit ${sanitizeInline(x.name)} kept, sha256 ${x.sha256} (${x.media_type}), from ${sanitizeInline(x.source)}`),
    ...signed,
  ].join('\n');
  await render(ctx, { data: res, human }, ['table', 'json']);
};
