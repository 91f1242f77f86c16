/**
 * The `--dry-run` preview and the `--async` acceptance, for people. The preview is the request as
 * an HTTP message (the secret already replaced by the caller, the image elided), then the cost.
 */
import { type SentImage, describeRemoval } from '../../image/without-metadata.js';
import { flatten, renderKv } from '../kv.js';
import type { ViewOpts } from '../render.js';
import { sanitize, sanitizeInline } from '../sanitize.js';

export interface PreviewData {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  cost: { depth: number; credits: number; usually: string; max_credits?: number };
  image?: SentImage;
}

/** What metadata leaves the machine with the image, one line; nothing for URLs. */
export function metadataLine(sent: SentImage | undefined): string[] {
  if (!sent) return [];
  if (sent.metadata === 'kept') return ['metadata: sent as it is (--keep-metadata); the service sees any GPS, camera and owner data in the file'];
  if (sent.metadata === 'none') return ['metadata: none in the file; sent as it is'];
  return [`metadata removed before upload: ${describeRemoval(sent.removed ?? [], sent.orientation)} (sends ${sent.size.toLocaleString('en-US')} bytes, sha256 ${sent.sha256.slice(0, 12)}…; --keep-metadata sends the file as it is)`];
}

/** A request as an HTTP message: request line, headers, blank line, JSON body. */
export function httpMessage(req: Pick<PreviewData, 'method' | 'url' | 'headers' | 'body'>, view: ViewOpts): string {
  return [
    view.style.bold(`${req.method} ${sanitizeInline(req.url)}`),
    ...Object.entries(req.headers).map(([k, v]) => `${sanitizeInline(k)}: ${sanitizeInline(v)}`),
    '',
    sanitize(JSON.stringify(req.body, null, 2)),
  ].join('\n');
}

/** One request of a batch preview: which inputs it carries, then the message. */
export function batchRequestView(req: Pick<PreviewData, 'method' | 'url' | 'headers' | 'body' | 'image'> & { inputs: string[]; sha256?: string | null }, view: ViewOpts): string {
  const names = req.inputs.map((i) => sanitizeInline(i)).join(', ');
  const metadata = metadataLine(req.image).map((l) => view.style.dim(`# ${l}`));
  return [view.style.dim(`# ${names}${req.sha256 ? ` · sha256 ${req.sha256.slice(0, 12)}…` : ''}`), ...metadata, httpMessage(req, view)].join('\n');
}

export function dryRunView(p: PreviewData, view: ViewOpts): string {
  const credits = `${p.cost.credits} credit${p.cost.credits === 1 ? '' : 's'}`;
  const cap = p.cost.max_credits !== undefined ? ` (within --max-credits ${p.cost.max_credits})` : '';
  return [
    httpMessage(p, view),
    '',
    `cost: depth ${p.cost.depth} · ${credits}${cap} · usually ${p.cost.usually}; charged only on success`,
    ...metadataLine(p.image),
    view.style.yellow('dry run: nothing was sent'),
  ].join('\n');
}

/** Every field of a body whose shape geo cannot rely on, under a title (flattened, sanitized). */
export function fieldsView(title: string, body: unknown, view: ViewOpts, footer?: string): string {
  const rows = flatten(body).filter(([k]) => k !== 'success');
  return [
    view.style.bold(title),
    rows.length ? renderKv(rows, view, '  ') : '  (no details in the answer)',
    ...(footer ? [view.style.dim(footer)] : []),
  ].join('\n');
}

/** The 202 body's shape is "not shown" in the spec, so every field it carries is listed. */
export function acceptedView(body: unknown, view: ViewOpts): string {
  return fieldsView('Accepted for asynchronous analysis (202)', body, view, 'The service runs it after this request; find the result later with `geo analyses`.');
}
