/**
 * A claims file: CSV whose header names the columns `image` and `at` (`within`
 * and `captured_at` optional, in any order), or NDJSON with the same fields, one object a line.
 * Parsing only: each data row comes back with its row and line number, or with why it cannot be
 * read (one line naming the row; the other rows are still checked). A file that is no claims file
 * at all (no header naming an image column) is one UsageError.
 */
import { UsageError } from '../errors.js';
import { splitCsvLine } from '../files/csv-line.js';

export interface RawClaim {
  /** 1 = the first data row. */
  row: number;
  /** The line in the file (1 = the first line), for messages. */
  line: number;
  image?: string;
  at?: string;
  within?: string;
  capturedAt?: string;
  /** Why this row cannot be read; the fields above are then whatever could be. */
  problem?: string;
}

/** Header names each column may go by (lower case). */
const COLUMNS = {
  image: ['image', 'file', 'path', 'photo'],
  at: ['at', 'place', 'claim', 'location'],
  within: ['within', 'within_km', 'tolerance', 'tolerance_km'],
  capturedAt: ['captured_at', 'capturedat', 'taken', 'date'],
} as const;
type Column = keyof typeof COLUMNS;

const HINT = 'a header names the columns: image,at (within, captured_at optional), e.g. image,at\\nphoto.jpg,"Kharkiv, UA"';

function columnsOf(header: string[], file: string): Partial<Record<Column, number>> {
  const names = header.map((h) => h.trim().toLowerCase());
  const cols: Partial<Record<Column, number>> = {};
  for (const k of Object.keys(COLUMNS) as Column[]) {
    const i = names.findIndex((n) => (COLUMNS[k] as readonly string[]).includes(n));
    if (i >= 0) cols[k] = i;
  }
  if (cols.image === undefined) throw new UsageError(`${file} line 1: no image column (the header names: ${names.filter(Boolean).join(', ') || 'nothing'})`, HINT);
  return cols;
}

function parseCsv(lines: string[], file: string): RawClaim[] {
  const first = lines.findIndex((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
  if (first < 0) return [];
  const header = splitCsvLine(lines[first]!);
  if (!header) throw new UsageError(`${file} line ${first + 1}: an unclosed or misplaced double quote in the header`, HINT);
  const cols = columnsOf(header, file);
  const out: RawClaim[] = [];
  for (let i = first + 1; i < lines.length; i++) {
    const text = lines[i]!;
    if (text.trim() === '' || text.trimStart().startsWith('#')) continue;
    const row = out.length + 1;
    const fields = splitCsvLine(text);
    if (!fields) {
      out.push({ row, line: i + 1, problem: 'an unclosed or misplaced double quote (quote a field whole: "Kharkiv, UA")' });
      continue;
    }
    const cell = (k: Column) => (cols[k] === undefined ? undefined : (fields[cols[k]!] ?? '').trim() || undefined);
    out.push({ row, line: i + 1, ...defined({ image: cell('image'), at: cell('at'), within: cell('within'), capturedAt: cell('capturedAt') }) });
  }
  return out;
}

function defined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function field(o: Record<string, unknown>, k: Column): string | undefined {
  for (const name of COLUMNS[k]) {
    const v = o[name];
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  }
  return undefined;
}

function parseNdjson(lines: string[]): RawClaim[] {
  const out: RawClaim[] = [];
  lines.forEach((text, i) => {
    if (text.trim() === '') return;
    const row = out.length + 1;
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      out.push({ row, line: i + 1, problem: 'not JSON (one object a line: {"image": …, "at": …})' });
      return;
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      out.push({ row, line: i + 1, problem: 'not a JSON object (one object a line: {"image": …, "at": …})' });
      return;
    }
    const o = v as Record<string, unknown>;
    out.push({ row, line: i + 1, ...defined({ image: field(o, 'image'), at: field(o, 'at'), within: field(o, 'within'), capturedAt: field(o, 'capturedAt') }) });
  });
  return out;
}

/** The rows of a claims file's text: NDJSON when its first character is `{`, else CSV. */
export function parseClaimsText(text: string, file: string): RawClaim[] {
  const body = text.replace(/^\uFEFF/, '');
  const lines = body.split(/\r?\n/);
  return body.trimStart().startsWith('{') ? parseNdjson(lines) : parseCsv(lines, file);
}
