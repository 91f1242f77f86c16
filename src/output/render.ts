/**
 * Format dispatch (DESIGN.md "Output"): every command hands render() plain data plus, where the
 * API body matters, the body exactly as received. `table` is the human view (tables and colour
 * on a TTY, plain stable text when piped), `json` the body as received, `ndjson` one line per
 * record. The file formats (csv, geojson, kml, html) render provenance records instead, in
 * output/export/ (locate and export choose between the two).
 */
import { Chalk } from 'chalk';
import { UsageError } from '../errors.js';
import type { IO } from './io.js';
import { sanitizeJsonText } from './sanitize.js';

/** The slice of Ctx rendering needs (output/ never imports context: it takes plain data). */
export interface RenderCtx {
  io: IO;
  globals: { json?: boolean; format?: string };
  config: { getDefault(key: 'format'): string | undefined };
}

export interface Style {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  green(s: string): string;
  cyan(s: string): string;
}

/** Chalk with its level forced from our own decision, never from global detection. */
export function makeStyle(color: boolean): Style {
  const c = new Chalk({ level: color ? 1 : 0 });
  return { bold: (s) => c.bold(s), dim: (s) => c.dim(s), red: (s) => c.red(s), yellow: (s) => c.yellow(s), green: (s) => c.green(s), cyan: (s) => c.cyan(s) };
}

/** How the human view may draw: the terminal decides boxes, colour and unicode bars. */
export interface ViewOpts {
  style: Style;
  tty: boolean;
  columns: number;
}

export function viewOpts(ctx: Pick<RenderCtx, 'io'>): ViewOpts {
  return { style: makeStyle(ctx.io.colorOut), tty: ctx.io.stdoutIsTTY, columns: ctx.io.columns };
}

export interface Renderable {
  /** The API body exactly as received: what `--json` prints. */
  raw?: string;
  /** Parsed data: JSON fallback when there is no raw body, and the ndjson records. */
  data: unknown;
  /** The human view. Every server string in it went through sanitize/sanitizeInline. */
  human(view: ViewOpts): string;
  /** One record per ndjson line; defaults to [data]. */
  records?(): unknown[];
}

export type Formatter = (out: Renderable, view: ViewOpts) => string;

const withNewline = (s: string) => (s.endsWith('\n') ? s : s + '\n');

const registry = new Map<string, Formatter>([
  ['table', (out, view) => withNewline(out.human(view))],
  ['json', (out) => withNewline(out.raw !== undefined ? sanitizeJsonText(out.raw) : sanitizeJsonText(JSON.stringify(out.data, null, 2)))],
  ['ndjson', (out) => (out.records?.() ?? [out.data]).map((r) => sanitizeJsonText(JSON.stringify(r)) + '\n').join('')],
]);

export const BASE_FORMATS = ['table', 'json', 'ndjson'] as const;

/**
 * Flag (--json / --format) beats the configured default, which beats `table`. A configured default
 * this command cannot produce falls back to `table` (it may be meant for export); a flag it cannot
 * produce is a usage error.
 */
export function resolveFormat(ctx: Pick<RenderCtx, 'globals' | 'config'>, supported: readonly string[] = BASE_FORMATS): string {
  const flag = ctx.globals.json ? 'json' : ctx.globals.format;
  if (flag !== undefined) {
    if (!supported.includes(flag) || !registry.has(flag)) {
      throw new UsageError(`--format ${flag} is not available here`, `use one of: ${supported.join(', ')}`);
    }
    return flag;
  }
  let configured: string | undefined;
  try {
    configured = ctx.config.getDefault('format');
  } catch {
    configured = undefined; // an unreadable config must not stop a read-only command
  }
  return configured && supported.includes(configured) && registry.has(configured) ? configured : 'table';
}

/** Formats the data; stdout only, so pipes get data and nothing else. */
export function formatOutput(out: Renderable, format: string, view: ViewOpts): string {
  const fn = registry.get(format);
  if (!fn) throw new UsageError(`unknown format "${format}"`, `use one of: ${[...registry.keys()].join(', ')}`);
  return fn(out, view);
}

export function render(ctx: RenderCtx, out: Renderable, supported?: readonly string[]): void {
  ctx.io.stdout.write(formatOutput(out, resolveFormat(ctx, supported), viewOpts(ctx)));
}
