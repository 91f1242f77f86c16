/**
 * Tables: cli-table3 boxes on a terminal, fitted to its width (fit.ts: optional columns dropped
 * first and listed below the table, then the widest cells cut with an ellipsis, paths from the
 * left so the file name stays); plain columns separated by two spaces when piped, never cut, so
 * `awk`/`cut` users get stable text with no box characters and no ANSI. Every cell is run through
 * sanitizeInline here, because cells are mostly server strings.
 */
import Table from 'cli-table3';
import { cut, fitColumns, width } from './fit.js';
import type { ViewOpts } from './render.js';
import { sanitizeInline } from './sanitize.js';

export { width } from './fit.js';

export type Cell = string | number | boolean | null | undefined;
export type Align = 'left' | 'right';

export interface TableSpec {
  head: string[];
  rows: Cell[][];
  align?: Align[];
  /** Columns dropped first on a narrow terminal (in this order) and listed below the table instead. */
  optional?: number[];
  /** Columns cut last (links: half a URL is worse than a narrower neighbour). */
  keep?: number[];
  /** Columns cut from the left (paths: the file name is what tells two rows apart). */
  cutLeft?: number[];
  /** Narrowest each column is cut to on a terminal (default 6, or its natural width). */
  floor?: Array<number | undefined>;
  /** Columns the caller indents the table by. */
  indent?: number;
}

/** cli-table3 with padding 1: "│ a │ b │" is 1 + (width + 3) per column. */
const BORDER = { fixed: 1, perColumn: 3 };

function cellText(c: Cell): string {
  if (c === null || c === undefined) return '';
  return sanitizeInline(c);
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

/**
 * The dropped columns of each row, under the table: "label  head: value · head: value" when it
 * fits, else the label, then each value on its own line (a long link alone on its line: see wrap()).
 */
function below(head: string[], rows: string[][], dropped: number[], available: number, labelFromLeft: boolean): string[] {
  if (!dropped.length) return [];
  return rows.flatMap((r) => {
    const values = dropped.filter((i) => r[i] !== '').map((i) => [head[i]!.toLowerCase(), r[i]!] as const);
    if (!values.length) return [];
    const one = `${r[0]}  ${values.map(([h, v]) => `${h}: ${v}`).join(' · ')}`;
    if (width(one) <= available) return [one];
    return [cut(r[0] ?? '', available, labelFromLeft), ...values.map(([h, v]) => (width(`  ${h}: ${v}`) <= available ? `  ${h}: ${v}` : v))];
  });
}

export function renderTable(spec: TableSpec, view: ViewOpts): string {
  const head = spec.head.map((h) => sanitizeInline(h));
  const rows = spec.rows.map((r) => spec.head.map((_, i) => cellText(r[i])));
  if (!view.tty) return plainTable(head, rows, spec.align);
  const available = view.columns - (spec.indent ?? 0);
  const natural = head.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i]!))));
  const fit = fitColumns({ natural, available, ...BORDER, ...(spec.optional ? { optional: spec.optional } : {}), ...(spec.keep ? { keep: spec.keep } : {}), ...(spec.floor ? { floor: spec.floor } : {}) });
  const fitted = (s: string, i: number) => cut(s, fit.widths.get(i)!, spec.cutLeft?.includes(i));
  const t = new Table({
    head: fit.shown.map((i) => view.style.bold(fitted(head[i]!, i))),
    style: { head: [], border: [], 'padding-left': 1, 'padding-right': 1, compact: true },
    colAligns: fit.shown.map((i) => spec.align?.[i] ?? 'left'),
  });
  for (const r of rows) t.push(fit.shown.map((i) => fitted(r[i]!, i)));
  return [t.toString(), ...below(head, rows, fit.dropped, available, Boolean(spec.cutLeft?.includes(0)))].join('\n');
}

/** Shorthand for the common case: a head and rows, left-aligned. */
export function table(head: string[], rows: Cell[][], view: ViewOpts): string {
  return renderTable({ head, rows }, view);
}
