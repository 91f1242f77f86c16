/**
 * Format dispatch (DESIGN.md "Output"): every command hands render() plain data plus, where the
 * API body matters, the body exactly as received. `table` is the human view (tables and colour
 * on a TTY, plain stable text when piped), `json` the body as received, `ndjson` one line per
 * record. The file formats (csv, geojson, kml, kmz, html) render provenance records instead, in
 * output/export/ (locate and export choose between the two).
 */
import { UsageError } from '../errors.js';
import type { IO } from './io.js';
import { deviationLines } from './deviations.js';
import { sanitizeJsonText } from './sanitize.js';
import { PLAIN, type Style } from './plain-style.js';

/** The slice of Ctx rendering needs (output/ never imports context: it takes plain data). */
export interface RenderCtx {
  io: IO;
  globals: { json?: boolean; format?: string; quiet?: boolean };
  config: { getDefault(key: 'format'): string | undefined };
}

/**
 * The style for this decision. Chalk (output/style.ts) is imported only when colour is on, so
 * piped and --json runs never load it (~12 ms of `geo credits --json` on Node 20 with the table
 * views start-up budget, bench/startup.mjs).
 */
export async function loadStyle(color: boolean): Promise<Style> {
  return color ? (await import('./style.js')).makeStyle(true) : PLAIN;
}

/** How the human view may draw: the terminal decides boxes, colour and unicode bars. */
export interface ViewOpts {
  style: Style;
  tty: boolean;
  columns: number;
}

/** `color` defaults to the terminal's decision; false gives PLAIN without loading chalk. */
export async function viewOpts(ctx: Pick<RenderCtx, 'io'>, color = ctx.io.colorOut): Promise<ViewOpts> {
  return { style: await loadStyle(color), tty: ctx.io.stdoutIsTTY, columns: ctx.io.columns };
}

export interface Renderable {
  /** The API body exactly as received: what `--json` prints. */
  raw?: string;
  /** Parsed data: JSON fallback when there is no raw body, and the ndjson records. */
  data: unknown;
  /**
   * The human view. Every server string in it went through sanitize/sanitizeInline. It may load
   * its view module first (async): --json and piped runs then never load tables or chalk.
   */
  human(view: ViewOpts): string | Promise<string>;
  /** One record per ndjson line; defaults to [data]. */
  records?(): unknown[];
  /** How the answer is off the contract: one warning line each on stderr, after the data. */
  deviations?: readonly string[];
}

export type Formatter = (out: Renderable, view: ViewOpts) => string | Promise<string>;

const withNewline = (s: string) => (s.endsWith('\n') ? s : s + '\n');

const registry = new Map<string, Formatter>([
  ['table', async (out, view) => withNewline(await out.human(view))],
  ['json', (out) => withNewline(out.raw !== undefined ? sanitizeJsonText(out.raw) : sanitizeJsonText(JSON.stringify(out.data, null, 2)))],
  ['ndjson', (out) => (out.records?.() ?? [out.data]).map((r) => sanitizeJsonText(JSON.stringify(r)) + '\n').join('')],
]);

export const BASE_FORMATS = ['table', 'json', 'ndjson'] as const;

/**
 * The one choice of format for every command: a flag (--json / --format) beats the configured
 * default (`geo config set format`), which beats the default. Only the default depends on the
 * terminal: `piped` (what a command prints into a pipe when nobody chose, e.g. NDJSON for many
 * locate results), else `table`. An explicit choice is never overridden by TTY detection.
 * A configured default this command cannot produce falls back to the default (it may be meant for
 * export); a flag it cannot produce is a usage error.
 */
export function resolveFormat(ctx: Pick<RenderCtx, 'globals' | 'config'> & { io?: Pick<IO, 'stdoutIsTTY'> }, supported: readonly string[] = BASE_FORMATS, piped = 'table'): string {
  const flag = ctx.globals.json ? 'json' : ctx.globals.format;
  if (flag !== undefined) {
    // `supported` may hold formats the command renders itself (locate's geojson, kml, csv, html).
    if (!supported.includes(flag)) {
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
  if (configured && supported.includes(configured) && registry.has(configured)) return configured;
  return ctx.io && !ctx.io.stdoutIsTTY ? piped : 'table';
}

/** Formats the data; stdout only, so pipes get data and nothing else. */
export async function formatOutput(out: Renderable, format: string, view: ViewOpts): Promise<string> {
  const fn = registry.get(format);
  if (!fn) throw new UsageError(`unknown format "${format}"`, `use one of: ${[...registry.keys()].join(', ')}`);
  return fn(out, view);
}

export async function render(ctx: RenderCtx, out: Renderable, supported?: readonly string[]): Promise<void> {
  const format = resolveFormat(ctx, supported);
  // Only the human view draws: the data formats need no style (and so no chalk).
  const view = await viewOpts(ctx, format === 'table' && ctx.io.colorOut);
  ctx.io.stdout.write(await formatOutput(out, format, view));
  if (!ctx.globals.quiet) for (const l of deviationLines(out.deviations)) ctx.io.stderr.write(l + '\n');
}
