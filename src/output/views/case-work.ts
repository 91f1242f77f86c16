/**
 * What `geo cases work` shows of a result before it asks about it: its place as `geo cases show`
 * gives it, the local witnesses as `geo history show` gives them (the EXIF check and the sun,
 * never sent and never moving the confidence; the C2PA credentials the original carried), and
 * every item to judge with its stable id and the judgement it already has. Every string is the
 * service's, a file's or an analyst's: sanitized before it is drawn (renderKv, sanitizeInline).
 */
import { type Corroboration, describeCorroboration } from '../../evidence/corroborate.js';
import type { CaseItem } from '../../evidence/clue-ids.js';
import { SIMULATED } from '../../evidence/simulated.js';
import { describeSun } from '../../evidence/sun-witness.js';
import type { C2paRecord } from '../../image/embedded.js';
import { wrapFor } from '../fit.js';
import { type KvInput, renderKv } from '../kv.js';
import type { ViewOpts } from '../render.js';
import { sanitizeInline } from '../sanitize.js';
import type { CaseShowResult } from './case-show.js';
import { c2paLine } from './credentials.js';

/** An item of the result, with its latest judgement when it has one (commands/cases/clues.ts ClueRow). */
export type WorkItem = CaseItem & { judgement?: { verdict: 'accepted' | 'rejected'; because: string; entry: number } };

export interface WorkResult {
  /** Its place in the case (r<n>) and how many results the case has. */
  n: number;
  of: number;
  shown: CaseShowResult;
  /** The EXIF check kept with the answer (null or absent: none was made). */
  exif?: Corroboration | null;
  /** The original's C2PA credentials, and whether the case's log holds them (else the store kept them); absent when neither does. */
  c2pa?: { c2pa: C2paRecord; logged: boolean } | undefined;
  items: WorkItem[];
}

const KINDS: Record<CaseItem['kind'], string> = { clue: 'visual clue', support: 'supports', contra: 'contradicts', cand: 'candidate' };

/** One item as a line: its id, what it says, a candidate's place, whether it has a box. */
export function itemLine(i: WorkItem): string {
  const c = i.candidate;
  const what = [
    `${KINDS[i.kind]}: ${sanitizeInline(i.label) || '(no label)'}`, i.detail ? sanitizeInline(i.detail) : '',
    c ? `${c.lat}, ${c.lng}${c.confidence !== null ? `, confidence ${c.confidence}` : ''}` : '', i.box ? 'boxed' : '',
  ].filter(Boolean).join(' · ');
  return `${i.id}  ${what}`;
}

/** A judgement as the result's list shows it. */
export const judgedLine = (j: NonNullable<WorkItem['judgement']>) => `${j.verdict} (entry ${j.entry}): ${sanitizeInline(j.because)}`;

export function workResultView(w: WorkResult, view: ViewOpts): string {
  const st = view.style;
  const r = w.shown;
  const at = r.latitude !== null && r.longitude !== null ? `${r.latitude.toFixed(6)}, ${r.longitude.toFixed(6)}` : 'no coordinates';
  const facts = [r.confidence !== null ? `confidence ${r.confidence.toFixed(2)}` : '', r.depth !== null ? `depth ${r.depth}` : '', r.analysis_id ? sanitizeInline(r.analysis_id) : ''].filter(Boolean);
  const lines = ['', ...wrapFor(view, `r${w.n} of ${w.of}  ${sanitizeInline(r.input)}  (${sanitizeInline(r.ref)})`).map((l) => st.bold(l))];
  if (r.sandbox) lines.push(`  ${st.yellow(SIMULATED)}`);
  lines.push(...wrapFor(view, [sanitizeInline(r.place) || 'a place', at, ...facts].join(' · '), '  ', '  '));
  const rows: KvInput[] = [];
  if (w.exif) {
    rows.push(['EXIF', `${w.exif.verdict}: ${describeCorroboration(w.exif)} (local: never sent, does not change the confidence)`]);
    if (w.exif.sun) rows.push(['sun', describeSun(w.exif.sun)]);
  } else rows.push(['EXIF', 'no check kept with this answer']);
  rows.push(['C2PA', w.c2pa ? `${c2paLine(w.c2pa.c2pa)}${w.c2pa.logged ? '' : ' (as the store kept it: the result was linked, not located into the case)'}` : 'not kept for this photo']);
  lines.push(renderKv(rows, view, '  '));
  const judged = w.items.filter((i) => i.judgement).length;
  lines.push(`  ${w.items.length ? `${w.items.length} items to judge, ${judged} judged already:` : 'no clues or candidates in this answer (visual clues come at depth 2 and 3, candidates at 3)'}`);
  for (const i of w.items) {
    lines.push(...wrapFor(view, itemLine(i), '      ', '    '));
    if (i.judgement) lines.push(...wrapFor(view, judgedLine(i.judgement), '      ', '      ').map((l) => st.dim(l)));
  }
  return lines.join('\n');
}
