/**
 * `geo export --format json|ndjson` (issue 13: stored results readable offline, by scripts).
 * - json: one array of the provenance records themselves, every field kept (when, request,
 *   response body and raw text, headers, EXIF check): the archive form, and `geo export FILE.json`
 *   reads it back.
 * - ndjson: one line per result in exactly the form `geo locate` prints for a batch,
 *   {"input","sha256","ok","result","exif"}, so the two outputs can be mixed and re-exported.
 * Server strings are escaped as in every JSON output (sanitizeJsonText: same values when parsed).
 */
import type { ProvenanceRecord } from '../../local/store-types.js';
import { sanitizeJsonText } from '../sanitize.js';

export function renderRecordsJson(records: readonly ProvenanceRecord[]): string {
  return sanitizeJsonText(JSON.stringify(records, null, 2)) + '\n';
}

export function renderRecordsNdjson(records: readonly ProvenanceRecord[]): string {
  return records
    .map((r) => sanitizeJsonText(JSON.stringify({ input: r.input.path, sha256: r.input.sha256, ok: true, result: r.response.body, exif: r.exif ?? null })) + '\n')
    .join('');
}
