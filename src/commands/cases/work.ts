/**
 * `geo cases work CASE`: the case worked through on a terminal. It shows the case as `geo cases
 * show` does, then each result in turn (its place, the local witnesses, every item to judge),
 * asks accept, reject or skip for each item not judged yet, takes notes, and offers places ruled
 * out and the conclusion (work-steps.ts). Each answer is written at once, by the run function its
 * flags call, so the entries are those the flags write. Ctrl-C or Esc stops: what was written
 * stays, and the error line says which entries. Without a terminal it asks nothing: exit 2, the
 * flags named.
 */
import type { Ctx } from '../../context.js';
import { CancelledError, UsageError } from '../../errors.js';
import type { C2paRecord } from '../../image/embedded.js';
import { describeError } from '../../output/errors.js';
import { wrapFor } from '../../output/fit.js';
import { noPromptReason, stderrColumns } from '../../output/io.js';
import { createPrompter } from '../../output/prompt.js';
import type { Prompter } from '../../output/prompter.js';
import { loadStyle, render, resolveFormat } from '../../output/render.js';
import { sanitizeInline } from '../../output/sanitize.js';
import type { Handler } from '../types.js';
import { listClues } from './clues.js';
import { type OpenedCase, openCase } from './investigation-append.js';
import { runShow } from './show.js';
import { type Walk, type Written, caseMenu, judgeItems, notesOn } from './work-steps.js';

/** The one line said without a terminal: the flags that write the same entries. */
export const FLAGS_HINT = 'the flags write the same entries: geo cases clues CASE accept|reject ID --because TEXT, geo cases note CASE --observation TEXT, geo cases rule-out CASE --at PLACE --because TEXT, geo cases conclude CASE --at PLACE --within METRES --confidence WORD --because TEXT';

function refuseWithoutTerminal(ctx: Ctx): void {
  const why = noPromptReason(ctx.io, ctx.env, ctx.globals.input === false) ?? (ctx.io.stdoutIsTTY ? undefined : 'stdout is not a terminal');
  if (why !== undefined) throw new UsageError(`geo cases work asks its questions on a terminal, and asks none here (${why})`, FLAGS_HINT);
}

/**
 * The prompter of the walk: the command's own, and Esc as well as Ctrl-C ends a question (with
 * CancelledError). Esc is heard only while a question is open (readline's keypress events on
 * stdin), so nothing reads the terminal between questions.
 */
function escapable(ctx: Ctx): Prompter {
  const esc = new AbortController();
  const ask = createPrompter(ctx.io, AbortSignal.any([ctx.signal, esc.signal]), ctx.accessible);
  const onKey = (_s: unknown, key?: { name?: string }) => {
    if (key?.name === 'escape') esc.abort(new CancelledError('Esc'));
  };
  const open = async <T>(q: () => Promise<T>): Promise<T> => {
    ctx.io.stdin.on('keypress', onKey);
    try {
      return await q();
    } finally {
      ctx.io.stdin.off('keypress', onKey);
    }
  };
  return {
    input: (m, o) => open(() => ask.input(m, o)),
    password: (m) => open(() => ask.password(m)),
    confirm: (m, d) => open(() => ask.confirm(m, d)),
    select: (m, c, d) => open(() => ask.select(m, c, d)),
  };
}

/**
 * The credentials the original carried: as its input_hashed entry logged them, or (a result
 * linked from the store, logged without them) as the store kept them, said so.
 */
async function c2paOf(o: OpenedCase, sha256: string): Promise<{ c2pa: C2paRecord; logged: boolean } | undefined> {
  const hashed = o.ev.entries.findLast(({ e }) => e.event === 'input_hashed' && (e.data.input as { sha256?: string } | undefined)?.sha256 === sha256 && e.data.c2pa !== undefined);
  if (hashed) return { c2pa: hashed.e.data.c2pa as C2paRecord, logged: true };
  const kept = await o.store.embedded(sha256);
  return kept ? { c2pa: kept.c2pa, logged: false } : undefined;
}

/** "2 entries written to case lc_… (entries 6, 7)", or that none was; `stay`: and that they are kept. */
function writtenText(w: readonly Written[], id: string, stay = false): string {
  if (!w.length) return `nothing written to case ${sanitizeInline(id)}`;
  const one = w.length === 1;
  return `${w.length} ${one ? 'entry' : 'entries'} written to case ${sanitizeInline(id)} (${one ? 'entry' : 'entries'} ${w.map((x) => x.entry).join(', ')})${stay ? ` ${one ? 'stays' : 'stay'} in its log` : ''}`;
}

async function walk(ctx: Ctx, ref: string, w: Walk): Promise<string> {
  const view = { style: await loadStyle(ctx.io.colorErr), tty: ctx.io.stderrIsTTY, columns: stderrColumns(ctx.io) };
  const shown = await runShow(ctx, ref);
  w.caseId = shown.case.id;
  const { caseShowView } = await import('../../output/views/case-show.js');
  const { workResultView } = await import('../../output/views/case-work.js');
  w.err(caseShowView(shown, view));
  const o = await openCase(ctx, w.caseId);
  const items = (await listClues(ctx, w.caseId)).items;
  const results = o.ev.vouch.results;
  w.err(['', ...wrapFor(view, 'Each answer is written at once as its own entry, as the flags write it; Ctrl-C or Esc stops, keeping what was written.')].join('\n'));
  for (const [i, r] of results.entries()) {
    const n = i + 1;
    const mine = items.filter((x) => x.result.ref === `r${n}`);
    w.err(workResultView({ n, of: results.length, shown: shown.results[i]!, exif: r.record.exif ?? null, c2pa: await c2paOf(o, r.input.sha256), items: mine }, view));
    await judgeItems(w, `r${n}`, mine.filter((x) => !x.judgement));
    await notesOn(w, `r${n}`);
  }
  await caseMenu(w, results.map((_, i) => `r${i + 1}`));
  return shown.case.name;
}

export const work: Handler = async (ctx, args) => {
  resolveFormat(ctx, ['table', 'json']);
  refuseWithoutTerminal(ctx);
  const ref = args[0] as string;
  const err = (text: string) => ctx.io.stderr.write(`${text}\n`);
  const problem = (e: UsageError) => err(describeError(e, { color: ctx.io.colorErr, ...(ctx.io.stderrIsTTY ? { columns: stderrColumns(ctx.io) } : {}) }));
  const w: Walk = { ctx, ask: escapable(ctx), caseId: ref, err, problem, written: [] };
  let name: string;
  try {
    name = await walk(ctx, ref, w);
  } catch (err) {
    // What was written is in the log already: said, and kept.
    const id = sanitizeInline(w.caseId);
    if (err instanceof CancelledError) throw new CancelledError(`stopped: ${writtenText(w.written, w.caseId, true)}`, `geo cases show ${id} shows the case; geo cases work ${id} goes on with what is not judged yet`);
    throw err;
  }
  const data = { case: { id: w.caseId, name }, written: w.written };
  const human = () => `${writtenText(w.written, w.caseId)}${w.written.length ? `: geo cases show ${sanitizeInline(w.caseId)} shows them` : ''}`;
  await render(ctx, { data, human }, ['table', 'json']);
};
