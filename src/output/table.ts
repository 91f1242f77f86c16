/**
 * Tables: cli-table3 boxes on a terminal; plain columns separated by two spaces when piped, so
 * `awk`/`cut` users get stable text with no box characters and no ANSI. Every cell is run through
 * sanitizeInline here, because cells are mostly server strings.
 */
import Table from 'cli-table3';
import type { ViewOpts } from './render.js';
import { sanitizeInline } from './sanitize.js';

export type Cell = string | number | boolean | null | undefined;
export type Align = 'left' | 'right';

export interface TableSpec {
  head: string[];
  rows: Cell[][];
  align?: Align[];
  /** Longest cell on a terminal before it is cut with an ellipsis (piped output is never cut). */
  maxCell?: number;
  /** Columns never cut (links: half a URL is worse than a wide table). */
  keep?: number[];
}

/** Display width: code points, which is right for the Latin/Cyrillic/Greek text servers send. */
export function width(s: string): number {
  return [...s].length;
}

function cellText(c: Cell): string {
  if (c === null || c === undefined) return '';
  return sanitizeInline(c);
}

function cut(s: string, max: number): string {
  const cps = [...s];
  return cps.length <= max ? s : cps.slice(0, max - 1).join('') + '…';
}

function pad(s: string, w: number, align: Align): string {
  const fill = ' '.repeat(Math.max(0, w - width(s)));
  return align === 'right' ? fill + s : s + fill;
}

/** Plain aligned text: header line, then rows; trailing spaces trimmed. */
export function plainTable(head: string[], rows: string[][], align: Align[] = []): string {
  const all = [head, ...rows];
  const widths = head.map((_, i) => Math.max(...all.map((r) => width(r[i] ?? ''))));
  return all
    .map((r) => r.map((c, i) => pad(c, widths[i]!, align[i] ?? 'left')).join('  ').trimEnd())
    .join('\n');
}

export function renderTable(spec: TableSpec, view: ViewOpts): string {
  const head = spec.head.map((h) => sanitizeInline(h));
  const rows = spec.rows.map((r) => spec.head.map((_, i) => cellText(r[i])));
  if (!view.tty) return plainTable(head, rows, spec.align);
  const max = spec.maxCell ?? Math.max(16, Math.floor(view.columns / 2));
  const t = new Table({
    head: head.map((h) => view.style.bold(h)),
    style: { head: [], border: [], 'padding-left': 1, 'padding-right': 1, compact: true },
    colAligns: spec.head.map((_, i) => spec.align?.[i] ?? 'left'),
  });
  for (const r of rows) t.push(r.map((c, i) => (spec.keep?.includes(i) ? c : cut(c, max))));
  return t.toString();
}

/** Shorthand for the common case: a head and rows, left-aligned. */
export function table(head: string[], rows: Cell[][], view: ViewOpts): string {
  return renderTable({ head, rows }, view);
}
