/**
 * The questions of `geo cases work`, one kind of entry each: a clue judged, a note, a place or an
 * area ruled out, a conclusion. Every answer goes to the run function its flags call (runJudge,
 * runNote, runRuleOut, runConclude), so the entry written from a prompt is the one the flags
 * write, checked by the same rules. A field those rules refuse (a place the index cannot settle,
 * a radius of no metres) is said and asked again; a refusal of the whole entry is said, and the
 * walk goes on without it.
 */
import { UsageError } from '../../errors.js';
import type { Choice, Prompter } from '../../output/prompter.js';
import { sanitizeInline } from '../../output/sanitize.js';
import { type WorkItem, itemLine } from '../../output/views/case-work.js';
import { type Verdict, runJudge } from './clues.js';
import { CONFIDENCES, type Confidence, runConclude } from './conclude.js';
import { type Appended, type InvestigationCtx, placeAt, positiveWithin } from './investigation-append.js';
import { runNote } from './note.js';
import { appendedLines } from './investigation-append.js';
import { runRuleOut } from './rule-out.js';

/** An entry written in this walk: what the summary and --json name. */
export interface Written {
  entry: number;
  event: string;
  hash: string;
  at: string;
}

export interface Walk {
  ctx: InvestigationCtx;
  ask: Prompter;
  /** The case's own id (what every run function is given). */
  caseId: string;
  /** A line on stderr, where the questions are. */
  err: (text: string) => void;
  /** A refusal said as the CLI says it (one line, fitted to stderr's terminal), the walk going on. */
  problem: (err: UsageError) => void;
  written: Written[];
}

/** Runs one entry's run function; its refusal is said, not thrown (the walk goes on). */
async function write(w: Walk, event: string, what: (a: Appended) => string, run: () => Promise<Appended>): Promise<boolean> {
  try {
    const a = await run();
    w.written.push({ entry: a.entry, event, hash: a.hash, at: a.at });
    w.err(appendedLines(a, what(a)).map((l) => `  ${l}`).join('\n'));
    return true;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    w.err('  not written:');
    w.problem(err);
    return false;
  }
}

/** The lines the run functions say along the way (an automatic signature that could not be made). */
const sayTo = (w: Walk) => (line: string) => w.err(`  ${sanitizeInline(line)}`);

/** Words asked until there are some (spaces alone are none, as the flags' own check says). */
async function askWords(w: Walk, message: string): Promise<string> {
  for (;;) {
    const text = (await w.ask.input(message, { required: true })).trim();
    if (text) return text;
    w.err('  an answer of words is needed');
  }
}

/** A field asked until `check` (the flags' own) takes it; its refusal is said each time. */
async function askChecked<T>(w: Walk, message: string, check: (text: string) => T, def?: string): Promise<{ text: string; value: T }> {
  for (;;) {
    const text = (await w.ask.input(message, def !== undefined ? { default: def } : { required: true })).trim();
    try {
      return { text, value: check(text) };
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      w.problem(err);
    }
  }
}

type Judge = Verdict | 'skip' | 'rest';

/** Accept, reject or skip each item not judged yet; "skip the rest" leaves the result's other items as they are. */
export async function judgeItems(w: Walk, ref: string, items: readonly WorkItem[]): Promise<void> {
  for (const item of items) {
    w.err(`\n  ${itemLine(item)}`);
    const choices: Array<Choice<Judge>> = [
      { value: 'accepted', name: 'Accept', description: 'it holds: say why' },
      { value: 'rejected', name: 'Reject', description: 'it does not hold: say why' },
      { value: 'skip', name: 'Skip', description: 'judge it later (geo cases clues)' },
      { value: 'rest', name: `Skip the rest of ${ref}`, description: 'on to its notes' },
    ];
    const verdict = await w.ask.select(`${item.id}: accept, reject or skip?`, choices);
    if (verdict === 'rest') return;
    if (verdict === 'skip') continue;
    const because = await askWords(w, `Why ${verdict === 'accepted' ? 'accept' : 'reject'} ${item.id}?`);
    await write(w, 'clue_judged', () => `${item.id} ${verdict}`, () => runJudge(w.ctx, { case: w.caseId, clue: item.id, verdict, because }, sayTo(w)));
  }
}

type Kind = 'observation' | 'hypothesis';

/** A note, on a result (`ref`) or on the case as a whole. */
export async function note(w: Walk, kind: Kind, ref?: string): Promise<void> {
  const text = await askWords(w, `${kind === 'observation' ? 'Observation (what is seen)' : 'Hypothesis (what is supposed)'}${ref ? ` on ${ref}` : ''}:`);
  await write(w, 'note_made', () => `${kind} noted`, () => runNote(w.ctx, { case: w.caseId, kind, text, ...(ref ? { results: [ref] } : {}) }, sayTo(w)));
}

/** Notes on one result until "go on". */
export async function notesOn(w: Walk, ref: string): Promise<void> {
  for (;;) {
    const next = await w.ask.select<'next' | Kind>(`A note on ${ref}?`, [
      { value: 'next', name: 'No, go on' },
      { value: 'observation', name: 'An observation', description: `what is seen in ${ref}` },
      { value: 'hypothesis', name: 'A hypothesis', description: `what ${ref} suggests` },
    ]);
    if (next === 'next') return;
    await note(w, next, ref);
  }
}

/** A place (name or LAT,LNG, with a radius) or an area file ruled out. */
export async function ruleOut(w: Walk, by: 'place' | 'area'): Promise<void> {
  if (by === 'area') {
    const area = await askWords(w, 'The area ruled out: a GeoJSON file (Polygon or MultiPolygon):');
    const because = await askWords(w, 'Why is it ruled out?');
    await write(w, 'place_ruled_out', () => 'ruled out', () => runRuleOut(w.ctx, { case: w.caseId, area, because }, sayTo(w)));
    return;
  }
  const at = await askChecked(w, 'The place ruled out: a name ("Lyon, FR") or LAT,LNG:', (t) => placeAt('--at', t));
  const within = await askChecked(w, 'Within how many km? (Enter: a point 1 km, a place its extent)', (t) => (t ? positiveWithin(t, 'km') : undefined), '');
  const because = await askWords(w, 'Why is it ruled out?');
  await write(w, 'place_ruled_out', () => 'ruled out', () => runRuleOut(w.ctx, { case: w.caseId, at: at.text, ...(within.text ? { withinKm: within.text } : {}), because }, sayTo(w)));
}

/** The conclusion: where, within how many metres, how sure, why, on which results. */
export async function conclude(w: Walk, refs: readonly string[]): Promise<void> {
  const at = await askChecked(w, 'Where: a place or LAT,LNG:', (t) => placeAt('--at', t));
  const within = await askChecked(w, 'Within how many metres (the radius of its uncertainty)?', (t) => positiveWithin(t || ' ', 'metres'));
  const confidence = await w.ask.select<Confidence>('How sure?', CONFIDENCES.map((c) => ({ value: c, name: c })), 'probable');
  const because = await askWords(w, 'Because (the grounds):');
  const on = await w.ask.input('Resting on which results? (Enter for these; - for none)', { default: refs.join(' ') || '-' });
  const results = on.trim() === '-' ? [] : on.split(/[\s,]+/).filter(Boolean);
  await write(w, 'conclusion_made', () => 'concluded', () => runConclude(w.ctx, { case: w.caseId, at: at.text, withinM: within.text, confidence, because, results }, sayTo(w)));
}

type Next = 'done' | Kind | 'place' | 'area' | 'conclude';

/** The case as a whole, once its results were stepped through: notes, places ruled out, the conclusion. */
export async function caseMenu(w: Walk, refs: readonly string[]): Promise<void> {
  for (;;) {
    const next = await w.ask.select<Next>('What next?', [
      { value: 'done', name: 'Done', description: 'every entry is written already' },
      { value: 'observation', name: 'An observation on the case' },
      { value: 'hypothesis', name: 'A hypothesis on the case' },
      { value: 'place', name: 'Rule out a place', description: 'a name or LAT,LNG, with a radius' },
      { value: 'area', name: 'Rule out an area', description: 'a GeoJSON polygon file' },
      { value: 'conclude', name: 'Conclude', description: 'where, how sure and why; a later one supersedes it' },
    ]);
    if (next === 'done') return;
    if (next === 'observation' || next === 'hypothesis') await note(w, next);
    else if (next === 'conclude') await conclude(w, refs);
    else await ruleOut(w, next);
  }
}
