/**
 * Where a photo geo fetched from the web came from, under its input (`geo history show`, `geo
 * cases show`): the URL as given, each redirect, the final URL, when, what the host said of the
 * bytes and their sha256 as received. The host's words are sanitized by renderKv.
 */
import type { FetchedFrom } from '../../evidence/record-types.js';
import { type KvInput, renderKv } from '../kv.js';
import type { ViewOpts } from '../render.js';

/** The fetch as key/value rows (one per redirect), for a view to render. */
export function fetchedRows(f: FetchedFrom): KvInput[] {
  const rows: KvInput[] = [['fetched from', f.url]];
  for (const r of f.redirects ?? []) rows.push(['redirect', `${r.status} → ${r.location}`]);
  const length = f.content_length !== undefined ? `, ${f.content_length} bytes declared` : '';
  rows.push(
    ['final URL', f.final_url],
    ['retrieved', `${f.retrieved_at} (HTTP ${f.status}${f.content_type !== undefined ? `, ${f.content_type}` : ''}${length})`],
  );
  if (f.etag !== undefined) rows.push(['ETag', f.etag]);
  if (f.last_modified !== undefined) rows.push(['Last-Modified', f.last_modified]);
  rows.push(['sha256', `${f.sha256} (${f.size} bytes as received)`]);
  return rows;
}

export function fetchedView(f: FetchedFrom, view: ViewOpts, indent = '  '): string {
  return renderKv(fetchedRows(f), view, indent);
}
