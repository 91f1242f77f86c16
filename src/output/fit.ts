/**
 * Fitting text to the terminal's width: which table columns stay and how wide each is,
 * cutting a cell with an ellipsis (from the left for paths, so the file name stays), and word
 * wrapping for prose. Pure functions over display widths; piped output never comes here.
 */
import { type IO, stderrColumns } from './io.js';

/** Display width: code points, which is right for the Latin/Cyrillic/Greek text servers send. */
export function width(s: string): number {
  return [...s].length;
}

/** `s` in at most `max` columns: the end cut with `…`, or the start when `fromLeft` (paths). */
export function cut(s: string, max: number, fromLeft = false): string {
  const cps = [...s];
  if (cps.length <= max) return s;
  if (max <= 1) return '…'.slice(0, Math.max(0, max));
  return fromLeft ? '…' + cps.slice(cps.length - (max - 1)).join('') : cps.slice(0, max - 1).join('') + '…';
}

/**
 * A path in at most `max` columns, cut at its start and never inside a name: `…/` and the last
 * folders that fit whole, else `…` and the file name, and only a file name longer than the
 * column itself is cut (from the left, as cut() does).
 */
export function cutPath(s: string, max: number): string {
  if (width(s) <= max) return s;
  const seps = [...s.matchAll(/[/\\]/g)].map((m) => m.index);
  for (const at of seps) {
    const tail = s.slice(at);
    if (width(tail) + 1 <= max) return '…' + tail;
  }
  const name = s.slice((seps.at(-1) ?? -1) + 1);
  return width(name) + 1 <= max ? '…' + name : cut(s, max, true);
}

export interface FitInput {
  /** Natural width of each column (its widest cell or header). */
  natural: number[];
  /** Columns to drop, in this order, while the others would be cut below a readable width (16). */
  optional?: number[];
  /** Columns cut only when cutting every other column to its floor was not enough (links). */
  keep?: number[];
  /** Narrowest a column is cut to, per column (Infinity: never cut); default min(natural, 6). */
  floor?: Array<number | undefined>;
  /**
   * Narrower still, only when every column at its floor does not fit (a path's file name is its
   * floor, but on 60 columns an id that must stay whole comes first: the path, cut from the left,
   * is then shown whole below the table as the row's label).
   */
  min?: Array<number | undefined>;
  /** Columns available for the whole table, borders included. */
  available: number;
  /** Columns a table adds per column (padding and border) and once (the first border). */
  perColumn: number;
  fixed: number;
}

export interface Fit {
  /** The columns shown, in order. */
  shown: number[];
  /** Optional columns left out (their values are shown below the table). */
  dropped: number[];
  /** Width of each shown column, by column index. */
  widths: Map<number, number>;
}

/** Below this a cut column stops being readable, so optional columns make room first. */
const READABLE = 16;

/**
 * Drops optional columns first (while the rest would not fit at a readable width), then narrows
 * the widest column a column at a time, down to its floor; `keep` columns last.
 */
export function fitColumns(f: FitInput): Fit {
  const total = (cols: number[], w: (i: number) => number) => f.fixed + cols.reduce((s, i) => s + w(i) + f.perColumn, 0);
  const floor = (i: number) => Math.min(f.natural[i]!, f.floor?.[i] ?? 6);
  const readable = (i: number) => (f.keep?.includes(i) ? f.natural[i]! : Math.max(floor(i), Math.min(f.natural[i]!, READABLE)));
  let shown = f.natural.map((_, i) => i);
  const dropped: number[] = [];
  for (const i of f.optional ?? []) {
    if (total(shown, readable) <= f.available) break;
    shown = shown.filter((c) => c !== i);
    dropped.push(i);
  }
  const widths = new Map(shown.map((i) => [i, f.natural[i]!]));
  let excess = total(shown, (c) => widths.get(c)!) - f.available;
  const least = (i: number) => Math.min(floor(i), f.min?.[i] ?? floor(i));
  for (const [pool, limit] of [[shown.filter((i) => !f.keep?.includes(i)), floor], [shown, floor], [shown, least]] as const) {
    while (excess > 0) {
      const widest = pool.filter((i) => widths.get(i)! > limit(i)).sort((a, b) => widths.get(b)! - widths.get(a)!)[0];
      if (widest === undefined) break;
      widths.set(widest, widths.get(widest)! - 1);
      excess--;
    }
  }
  return { shown, dropped, widths };
}

/**
 * Text for stderr, wrapped to stderr's own terminal when it is one (nothing wider than
 * the screen; a batch's stdout may be a file): notes, summaries, confirmations.
 */
export function stderrText(io: Pick<IO, 'stderrIsTTY' | 'columns' | 'errColumns'>, text: string, indent = '', first = indent): string {
  return wrapFor({ tty: io.stderrIsTTY, columns: stderrColumns(io) }, text, indent, first).join('\n');
}

/** Lines of `text` as a view draws them: wrapped to the terminal, one line as it is when piped (stable text). */
export function wrapFor(view: { tty: boolean; columns: number }, text: string, indent = '', first = indent): string[] {
  return view.tty ? wrap(text, view.columns, indent, first) : text.split('\n').map((l, i) => ((i ? indent : first) + l).trimEnd());
}

/**
 * The words of a line; a command quoted in backticks is one word, so a hint's command stays on
 * one line that can be copied whole.
 */
function words(para: string): string[] {
  return para.match(/(?:`[^`]*`|[^ `]+)+/g) ?? [];
}

/**
 * Word wrap to `max` columns, every line prefixed with `indent` (the first with `first` when
 * given, for hanging bullets and keys). A word that fits the screen but not after the indent (a
 * key, a path, a link) starts a line at the left edge instead, whole; a word longer than a line
 * (a long URL) is kept whole on a line of its own, after the key: the terminal's own soft wrap
 * keeps it one clickable link, whereas a hard break (or a cut) would not.
 */
export function wrap(text: string, max: number, indent = '', first = indent): string[] {
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = out.length === 0 ? first : indent;
    let empty = true;
    for (const word of words(para)) {
      if (!empty && width(line) + 1 + width(word) > max) {
        out.push(line);
        line = indent;
        empty = true;
      }
      if (empty && line.trim() !== '' && width(line) + width(word) > max) {
        out.push(line.trimEnd());
        line = indent;
      }
      if (empty && line.trim() === '' && width(line) + width(word) > max && width(word) <= max) line = '';
      line += (empty ? '' : ' ') + word;
      empty = false;
    }
    out.push(line.trimEnd());
  }
  return out;
}
