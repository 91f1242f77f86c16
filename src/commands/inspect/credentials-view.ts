/**
 * `geo inspect`'s short block on what the file says about itself: its C2PA content
 * credentials in one sentence ("signed by X with Y at T, valid|invalid (reason)"), the claim (the
 * active manifest's title, format and assertions) and signer in a line each, and how many metadata
 * tags --json holds. Keys stay within six characters, the width of the rows above them. Every
 * string here comes from the file (a manifest can say anything, escape sequences included): each
 * is escaped by sanitizeInline before it is styled, and renderKv escapes the plain ones.
 */
import { type C2paRecord, MAX_METADATA_JSON_BYTES, type MetadataRecord } from '../../image/embedded.js';
import { credentialsText } from '../../image/c2pa-summary.js';
import type { Drawn, KvInput } from '../../output/kv.js';
import type { ViewOpts } from '../../output/render.js';
import { sanitizeInline } from '../../output/sanitize.js';

const fmt = (n: number) => n.toLocaleString('en-US');

function drawn(text: string, paint: (s: string) => string): Drawn {
  return { drawn: paint(sanitizeInline(text)) };
}

export function credentialRows(c2pa: C2paRecord, metadata: MetadataRecord, view: ViewOpts): KvInput[] {
  const rows: KvInput[] = [];
  if (!c2pa.present) rows.push(['C2PA', 'none (no content credentials in the file)']);
  else {
    const s = view.style;
    const paint = c2pa.validation.state === 'invalid' ? s.red : c2pa.validation.state === 'unchecked' ? s.yellow : s.green;
    rows.push(['C2PA', drawn(`Content credentials: ${credentialsText(c2pa)}`, paint)]);
    const title = c2pa.title ? `"${c2pa.title}"` : 'untitled';
    const assertions = c2pa.assertions?.length ? `; assertions ${c2pa.assertions.join(', ')}` : '';
    rows.push(['claim', `${title}${c2pa.format ? `, ${c2pa.format}` : ''}${assertions}; in ${c2pa.container}${c2pa.bytes !== undefined ? ` (${fmt(c2pa.bytes)} bytes)` : ''}`]);
    if (c2pa.signer) rows.push(['signer', `${c2pa.signer.subject || c2pa.signer.name}${c2pa.signer.issuer ? `; issued by ${c2pa.signer.issuer}` : ''}${c2pa.signer.alg ? ` (${c2pa.signer.alg})` : ''}`]);
  }
  const n = Object.keys(metadata.tags).length;
  const cut = metadata.truncated ? `, ${fmt(metadata.truncated.omitted)} more left out past ${fmt(MAX_METADATA_JSON_BYTES / 1024)} KB` : '';
  rows.push(['tags', n ? `${fmt(n)} metadata tags in the file${cut} (--json shows them as "metadata", keyed as exiftool -j -n prints them)` : 'no metadata in the file']);
  return rows;
}
