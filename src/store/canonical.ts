/**
 * The request fields of a geolocate call as one stable string: canonical JSON (canonical-json.ts,
 * RFC 8785: sorted keys, undefined left out) with the image fields dropped (the sha256 says which
 * image it is). Two requests that mean the same thing give the same string whatever order their
 * fields were written in, so reuse (results.request) and claims (their fingerprint) never miss a
 * match over field order.
 */
import { canonicalJson } from '../evidence/canonical-json.js';

const IMAGE_FIELDS = ['image_b64', 'image_b64_chars', 'image_url'];

export function canonicalRequest(v: unknown): string {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return canonicalJson(v);
  const fields: Record<string, unknown> = { ...(v as Record<string, unknown>) };
  for (const k of IMAGE_FIELDS) delete fields[k];
  return canonicalJson(fields);
}
