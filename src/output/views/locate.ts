/**
 * The result of one locate, for people: place, coordinates, confidence, address and map links
 * first (what an analyst acts on), then the evidence, then the bookkeeping. Every server string
 * goes through sanitize (blocks) or sanitizeInline (one-line fields) before it is drawn. Only the
 * coordinates are guaranteed (a paid answer that deviates is still shown): every other field is
 * drawn as far as it is there and of its type.
 */
import type { GeolocateResponse } from '../../api/schemas.js';
import { DEPTH_NAME, type Depth } from '../../api/schemas.js';
import { type Corroboration, describeCorroboration } from '../../evidence/corroborate.js';
import { SIMULATED } from '../../evidence/simulated.js';
import { describeSun } from '../../evidence/sun-witness.js';
import { formatConfidence } from '../confidence.js';
import { renderKv, type KvInput } from '../kv.js';
import { width, wrapFor } from '../fit.js';
import { coord, mapLinks } from '../maps.js';
import type { ViewOpts } from '../render.js';
import { sanitize, sanitizeInline } from '../sanitize.js';
import { forensicSection } from './locate-forensic.js';

/** What the client knows about the exchange, beyond the body. */
export interface LocateMeta {
  input?: string;
  replayed?: boolean;
  elapsedMs?: number;
  attempts?: number;
  requestId?: string;
  idempotencyKey?: string;
  /** The image's own EXIF GPS against the estimate (local; never sent, never moves the confidence). */
  evidence?: Corroboration | null;
  /** Answered by an earlier run of this request, from the store (nothing sent now). */
  fromJournal?: boolean;
  /** Answered by a stored result of an earlier command. */
  fromResults?: boolean;
  /** Who paid for that result, when another role did on a team store. */
  paidBy?: string;
  /** The depth the request asked for: an answer at another depth says so. */
  askedDepth?: number;
  /** A geo sandbox answered (evidence/simulated.ts): the view opens with the mark, above the place. */
  simulated?: boolean;
  /**
   * The answer is an earlier result's, taken for a copy of its photo (--reuse-similar): the line that
   * says so (evidence/copy-events.ts reusedSimilarLine), first, above the place.
   */
  reusedSimilar?: string;
}

/** The mark of a sandbox's answer, first of all it shows (not after 50 lines). */
export function simulatedLine(view: ViewOpts): string {
  return view.style.yellow(view.style.bold(SIMULATED));
}

/** A bold title, wrapped to the terminal (a place name can be long). */
export function heading(title: string, view: ViewOpts): string {
  return wrapFor(view, title).map((l) => view.style.bold(l)).join('\n');
}

/** A text block, indented two spaces, newlines kept (sanitize keeps \n and \t), wrapped on a terminal. */
export function block(text: string, view: ViewOpts, indent = '  '): string {
  return wrapFor(view, sanitize(text), indent).join('\n');
}

/** `title (note)` on one line when it fits, the note on the next line otherwise. */
function titled(title: string, note: string, view: ViewOpts): string {
  const oneLine = !view.tty || width(`${title} ${note}`) <= view.columns;
  return heading(title, view) + (oneLine ? ' ' : '\n  ') + view.style.dim(note);
}

export function placeLine(loc: GeolocateResponse['location']): string {
  const parts = [loc.neighborhood, loc.city, loc.country].map((p) => sanitizeInline(p).trim()).filter((p) => p !== '');
  return parts.length ? [...new Set(parts)].join(', ') : '(no place name)';
}

/** Clue extras (image coordinates, contours: shape not shown) as a short "k=v" list. */
function clueExtras(clue: Record<string, unknown>): string {
  const extras = Object.entries(clue).filter(([k, v]) => k !== 'label' && k !== 'detail' && v !== undefined && v !== null);
  if (!extras.length) return '';
  const text = extras.map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`).join(', ');
  return ` (${sanitizeInline(text.length > 80 ? text.slice(0, 79) + '…' : text)})`;
}

function summary(res: GeolocateResponse, view: ViewOpts): string[] {
  const loc = res.location;
  const links = mapLinks(loc.latitude, loc.longitude);
  const rows: KvInput[] = [
    ['coordinates', `${coord(loc.latitude)}, ${coord(loc.longitude)}`],
    ['confidence', typeof res.confidence === 'number' ? { drawn: formatConfidence(res.confidence, view) } : `${shownValue(res.confidence)} (not a number)`],
    ['address', loc.address || '(none given)'],
    ...links.map((l, i): KvInput => [i === 0 ? 'maps' : '', l.url]),
  ];
  if (res.scope_consistent === false) rows.push(['scope', 'overridden: the image contradicts the given scope; this is the unscoped estimate']);
  return [heading(placeLine(loc), view), renderKv(rows, view, '  ')];
}

/** Beside the estimate, kept apart from it: the API's confidence above is shown as received. */
function evidenceSection(c: Corroboration, view: ViewOpts): string[] {
  const s = view.style;
  const verdict = c.verdict === 'agrees' ? s.green(c.verdict) : c.verdict === 'contradicts' ? s.red(s.bold(c.verdict)) : c.verdict;
  return [
    '',
    titled('EXIF check', '(local: never sent, does not change the confidence)', view),
    renderKv([['verdict', { drawn: verdict }], ['detail', describeCorroboration(c)], ...(c.sun ? [['sun', describeSun(c.sun)] as KvInput] : [])], view, '  '),
  ];
}

/** A field of the wrong type, as JSON text (drawn sanitized by the caller). */
const shownValue = (v: unknown): string => (v === undefined ? 'missing' : (JSON.stringify(v) ?? String(v)));

function clues(res: GeolocateResponse, view: ViewOpts): string[] {
  const out: string[] = [];
  if (res.thinking !== undefined) out.push('', heading('Thinking', view), block(typeof res.thinking === 'string' ? res.thinking || '(empty)' : shownValue(res.thinking), view));
  if (Array.isArray(res.visual_clues)) {
    out.push('', heading(`Visual clues (${res.visual_clues.length})`, view));
    if (!res.visual_clues.length) out.push('  (none)');
    for (const c of res.visual_clues) {
      if (typeof c !== 'object' || c === null) {
        out.push(`  - ${sanitizeInline(shownValue(c))}`);
        continue;
      }
      const detail = c.detail ? `: ${sanitizeInline(c.detail)}` : '';
      out.push(...wrapFor(view, `${sanitizeInline(c.label)}${detail}${clueExtras(c)}`, '    ', '  - '));
    }
  }
  return out;
}

function footer(res: GeolocateResponse, meta: LocateMeta, view: ViewOpts): string[] {
  const depth = res.depth as Depth;
  const asked = meta.askedDepth !== undefined && meta.askedDepth !== res.depth ? `, asked ${meta.askedDepth}` : '';
  const facts = [`depth ${sanitizeInline(depth)}${DEPTH_NAME[depth] ? ` (${DEPTH_NAME[depth]}${asked})` : asked ? ` (${asked.slice(2)})` : ''}`];
  if (res.effort !== undefined) facts.push(`effort ${sanitizeInline(res.effort)}`);
  if (res.batch_id !== undefined) facts.push(`batch ${sanitizeInline(res.batch_id)}`);
  facts.push(`model ${sanitizeInline(res.model)}`);
  if (typeof res.timing_ms === 'number') facts.push(`server ${(res.timing_ms / 1000).toFixed(1)} s`);
  if (meta.elapsedMs !== undefined) facts.push(`total ${(meta.elapsedMs / 1000).toFixed(1)} s`);
  if (meta.attempts !== undefined && meta.attempts > 1) facts.push(`${meta.attempts} attempts`);
  const ids = [`analysis ${res.analysis_id === null ? '(not saved: history is off)' : sanitizeInline(res.analysis_id)}`];
  if (meta.requestId) ids.push(`request ${sanitizeInline(meta.requestId)}`);
  const dim = (parts: string[]) => wrapFor(view, parts.join(' · ')).map((l) => view.style.dim(l));
  const lines = ['', ...dim(facts), ...dim(ids)];
  if (meta.fromJournal) lines.push(view.style.yellow('from the store (an earlier run of this request): nothing sent, not charged'));
  if (meta.fromResults) lines.push(view.style.yellow(meta.paidBy !== undefined ? `from the team's results, paid for by ${sanitizeInline(meta.paidBy)} in an earlier command: nothing sent, not charged` : 'from your results of an earlier command: nothing sent, not charged'));
  if (meta.replayed) lines.push(view.style.yellow('replayed: the stored response for this Idempotency-Key, no credits charged'));
  return lines;
}

export function locateView(res: GeolocateResponse, meta: LocateMeta, view: ViewOpts): string {
  return [
    ...(meta.simulated ? [simulatedLine(view)] : []),
    ...(meta.reusedSimilar !== undefined ? wrapFor(view, sanitizeInline(meta.reusedSimilar)).map((l) => view.style.yellow(view.style.bold(l))) : []),
    ...summary(res, view),
    ...(meta.evidence ? evidenceSection(meta.evidence, view) : []),
    '',
    heading('Reasoning', view),
    block(typeof res.reasoning === 'string' ? res.reasoning || '(empty)' : shownValue(res.reasoning), view),
    ...clues(res, view),
    ...(typeof res.forensic === 'object' && res.forensic !== null ? forensicSection(res, view) : []),
    ...footer(res, meta, view),
  ].join('\n');
}
