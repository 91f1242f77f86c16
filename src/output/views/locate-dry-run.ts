/**
 * The `--dry-run` preview and the `--async` acceptance, for people. The preview is the request as
 * an HTTP message (the secret already replaced by the caller, the image elided), then the cost.
 */
import { flatten, renderKv } from '../kv.js';
import type { ViewOpts } from '../render.js';
import { sanitize, sanitizeInline } from '../sanitize.js';

export interface PreviewData {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  cost: { depth: number; credits: number; usually: string; max_credits?: number };
}

export function dryRunView(p: PreviewData, view: ViewOpts): string {
  const credits = `${p.cost.credits} credit${p.cost.credits === 1 ? '' : 's'}`;
  const cap = p.cost.max_credits !== undefined ? ` (within --max-credits ${p.cost.max_credits})` : '';
  return [
    view.style.bold(`${p.method} ${sanitizeInline(p.url)}`),
    ...Object.entries(p.headers).map(([k, v]) => `${sanitizeInline(k)}: ${sanitizeInline(v)}`),
    '',
    sanitize(JSON.stringify(p.body, null, 2)),
    '',
    `cost: depth ${p.cost.depth} · ${credits}${cap} · usually ${p.cost.usually}; charged only on success`,
    view.style.yellow('dry run: nothing was sent'),
  ].join('\n');
}

/** The 202 body's shape is "not shown" in the spec, so every field it carries is listed. */
export function acceptedView(body: Record<string, unknown>, view: ViewOpts): string {
  const rows = flatten(body).filter(([k]) => k !== 'success');
  return [
    view.style.bold('Accepted for asynchronous analysis (202)'),
    rows.length ? renderKv(rows, view, '  ') : '  (no details in the answer)',
    view.style.dim('The service runs it after this request; find the result later with `geo analyses`.'),
  ].join('\n');
}
