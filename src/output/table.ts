/**
 * Tables: cli-table3 boxes on a terminal, fitted to its width (fit.ts: optional columns dropped
 * first and listed below the table, then the widest cells cut with an ellipsis, paths from the
 * left so the file name stays); plain columns separated by two spaces when piped, never cut, so
 * `awk`/`cut` users get stable text with no box characters and no ANSI. Every cell is run through
 * sanitizeInline here, because cells are mostly server strings.
 */
import Table from 'cli-table3';
import { cut, cutPath, fitColumns, width } from './fit.js';
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
  /** Paths, cut from the left at a folder, never inside a name (fit.ts cutPath): the file name is what tells two rows apart. */
  cutLeft?: number[];
  /** Narrowest each column is cut to on a terminal (default 6, or its natural width). */
  floor?: Array<number | undefined>;
  /** Narrower than its floor only when all floors do not fit (fit.ts FitInput.min). */
  min?: Array<number | undefined>;
  /** Columns the caller indents the table by. */
  indent?: number;
  /** The column that names a row in the lines under the table (default the first). */
  label?: number;
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
 * The dropped columns of each row, under the table, in the table's order: "label  head: value ·
 * head: value" when it fits, else the label, then the values packed onto as few indented lines as
 * fit (a value too long for a line, a link, alone on its line: see wrap()).
 */
function below(head: string[], rows: string[][], dropped: number[], available: number, label: number, labelFromLeft: boolean): string[] {
  if (!dropped.length) return [];
  const order = [...dropped].sort((a, b) => a - b);
  return rows.flatMap((r) => {
    const pairs = order.filter((i) => r[i] !== '').map((i) => [`${head[i]!.toLowerCase()}: ${r[i]!}`, r[i]!] as const);
    if (!pairs.length) return [];
    const values = pairs.map(([v]) => v);
    const name = r[label] ?? '';
    const one = `${name}  ${values.join(' · ')}`;
    if (width(one) <= available) return [one];
    const lines = [labelFromLeft ? cutPath(name, available) : cut(name, available)];
    let line = '';
    for (const [v, bare] of pairs) {
      if (line && width(`${line} · ${v}`) <= available) line += ` · ${v}`;
      else {
        if (line) lines.push(line);
        line = width(`  ${v}`) <= available ? `  ${v}` : bare;
      }
    }
    return [...lines, line];
  });
}

export function renderTable(spec: TableSpec, view: ViewOpts): string {
  const head = spec.head.map((h) => sanitizeInline(h));
  const rows = spec.rows.map((r) => spec.head.map((_, i) => cellText(r[i])));
  if (!view.tty) return plainTable(head, rows, spec.align);
  const available = view.columns - (spec.indent ?? 0);
  const natural = head.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i]!))));
  const fit = fitColumns({ natural, available, ...BORDER, ...(spec.optional ? { optional: spec.optional } : {}), ...(spec.keep ? { keep: spec.keep } : {}), ...(spec.floor ? { floor: spec.floor } : {}), ...(spec.min ? { min: spec.min } : {}) });
  const fitted = (s: string, i: number) => (spec.cutLeft?.includes(i) ? cutPath(s, fit.widths.get(i)!) : cut(s, fit.widths.get(i)!));
  const t = new Table({
    head: fit.shown.map((i) => view.style.bold(fitted(head[i]!, i))),
    style: { head: [], border: [], 'padding-left': 1, 'padding-right': 1, compact: true },
    colAligns: fit.shown.map((i) => spec.align?.[i] ?? 'left'),
  });
  for (const r of rows) t.push(fit.shown.map((i) => fitted(r[i]!, i)));
  const label = spec.label ?? 0;
  return [t.toString(), ...below(head, rows, fit.dropped, available, label, Boolean(spec.cutLeft?.includes(label)))].join('\n');
}

/** Shorthand for the common case: a head and rows, left-aligned. */
export function table(head: string[], rows: Cell[][], view: ViewOpts): string {
  return renderTable({ head, rows }, view);
}
