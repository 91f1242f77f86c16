/**
 * A claims file: CSV whose header names the columns `image` and `at` (`within`
 * and `captured_at` optional, in any order), or NDJSON with the same fields, one object a line.
 * Parsing only: each data row comes back with its row and line number, or with why it cannot be
 * read (one line naming the row; the other rows are still checked). A file that is no claims file
 * at all (no header naming an image column) is one UsageError.
 */
import { createReadStream } from 'node:fs';
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

/** One NDJSON line: its row, or why it cannot be read. */
function ndjsonRow(text: string, row: number, line: number): RawClaim {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { row, line, problem: 'not JSON (one object a line: {"image": …, "at": …})' };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { row, line, problem: 'not a JSON object (one object a line: {"image": …, "at": …})' };
  const o = v as Record<string, unknown>;
  return { row, line, ...defined({ image: field(o, 'image'), at: field(o, 'at'), within: field(o, 'within'), capturedAt: field(o, 'capturedAt') }) };
}

/**
 * Reads a claims file a line at a time, so a file of a million rows is never held whole: NDJSON
 * when its first line with anything on it starts with `{`, else CSV (its first line that is not
 * blank or a # comment is the header). `push` takes each line in order and gives its row, if it is one.
 */
export class ClaimsReader {
  private kind: 'csv' | 'ndjson' | undefined;
  /** The CSV header's columns, once it is read. */
  private cols: Partial<Record<Column, number>> | undefined;
  private lineNo = 0;
  private rows = 0;

  constructor(private readonly file: string) {}

  push(raw: string): RawClaim | undefined {
    const line = ++this.lineNo;
    const text = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (text.trim() === '') return undefined;
    this.kind ??= text.trimStart().startsWith('{') ? 'ndjson' : 'csv';
    if (this.kind === 'ndjson') return ndjsonRow(text, ++this.rows, line);
    if (text.trimStart().startsWith('#')) return undefined;
    if (this.cols === undefined) {
      const header = splitCsvLine(text);
      if (!header) throw new UsageError(`${this.file} line ${line}: an unclosed or misplaced double quote in the header`, HINT);
      this.cols = columnsOf(header, this.file);
      return undefined;
    }
    const cols = this.cols;
    const row = ++this.rows;
    const fields = splitCsvLine(text);
    if (!fields) return { row, line, problem: 'an unclosed or misplaced double quote (quote a field whole: "Kharkiv, UA")' };
    const cell = (k: Column) => (cols[k] === undefined ? undefined : (fields[cols[k]!] ?? '').trim() || undefined);
    return { row, line, ...defined({ image: cell('image'), at: cell('at'), within: cell('within'), capturedAt: cell('capturedAt') }) };
  }
}

/** The rows of a claims file's text (tests and small inputs; files are read a line at a time: readClaimRows). */
export function parseClaimsText(text: string, file: string): RawClaim[] {
  const reader = new ClaimsReader(file);
  return text.split(/\r?\n/).flatMap((l) => reader.push(l) ?? []);
}

/** A file's lines as `text.split(/\r?\n/)` gives them, read in chunks: never the whole file at once. */
async function* linesOf(path: string): AsyncGenerator<string> {
  let rest = '';
  for await (const chunk of createReadStream(path, { encoding: 'utf8' }) as AsyncIterable<string>) {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop()!;
    for (const p of parts) yield p.endsWith('\r') ? p.slice(0, -1) : p;
  }
  yield rest;
}

/** The rows of a claims file, read as a stream; `file` is its name as given (messages). */
export async function* readClaimRows(path: string, file: string): AsyncGenerator<RawClaim> {
  const reader = new ClaimsReader(file);
  for await (const l of linesOf(path)) {
    const r = reader.push(l);
    if (r) yield r;
  }
}
