/**
 * Open objects (usage data, calibration: "fields not shown" in the spec) as key/value rows:
 * nested keys joined with dots (`meter.status`), so nothing the server sends is hidden and no
 * field name is assumed.
 */
import type { ViewOpts } from './render.js';
import { sanitizeInline } from './sanitize.js';
import { width, wrapFor } from './fit.js';

export type KvRow = [key: string, value: string];

function scalar(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return '';
  if (typeof v === 'string') return v;
  return String(v);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Depth-first flattening; arrays of scalars become one comma-separated value, other arrays are indexed. */
export function flatten(value: unknown, prefix = ''): KvRow[] {
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return prefix ? [[prefix, '{}']] : [];
    return entries.flatMap(([k, v]) => flatten(v, prefix ? `${prefix}.${k}` : k));
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return [[prefix, '[]']];
    if (value.every((v) => !isPlainObject(v) && !Array.isArray(v))) return [[prefix, value.map(scalar).join(', ')]];
    return value.flatMap((v, i) => flatten(v, `${prefix}.${i}`));
  }
  return [[prefix, scalar(value)]];
}

/** A value the CLI drew itself (a coloured confidence bar): not sanitized again. */
export interface Drawn {
  drawn: string;
}
export type KvInput = [key: string, value: string | Drawn];

/**
 * Aligned "key  value" lines; keys dimmed on a colour terminal. Server text is sanitized. On a
 * terminal a long value wraps under itself; drawn values (bars) are the CLI's own and short.
 */
export function renderKv(rows: KvInput[], view: ViewOpts, indent = ''): string {
  const safe = rows.map(([k, v]) => [sanitizeInline(k), typeof v === 'string' ? sanitizeInline(v) : v.drawn, typeof v === 'string'] as const);
  const w = Math.max(0, ...safe.map(([k]) => width(k)));
  const under = ' '.repeat(width(indent) + w + 2);
  return safe
    .flatMap(([k, v, wraps]) => {
      const lead = `${indent}${k}${' '.repeat(w - width(k) + 2)}`;
      const lines = wraps ? wrapFor(view, v, under, lead) : [`${lead}${v}`.trimEnd()];
      // The key is dimmed after wrapping, so widths are measured on plain text.
      return lines.map((l, i) => (i === 0 ? `${indent}${view.style.dim(k)}${l.slice(indent.length + k.length)}` : l));
    })
    .join('\n');
}
