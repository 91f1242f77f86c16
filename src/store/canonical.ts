/**
 * The request fields of a geolocate call as one stable string: JSON with sorted keys, undefined
 * left out, and the image fields dropped (the sha256 says which image it is). Two requests that
 * mean the same thing give the same string whatever order their fields were written in, so reuse
 * (results.request) and claims (their fingerprint) never miss a match over field order.
 */
const IMAGE_FIELDS = new Set(['image_b64', 'image_b64_chars', 'image_url']);

export function canonicalRequest(v: unknown, top = true): string {
  if (Array.isArray(v)) return `[${v.map((x) => canonicalRequest(x, false)).join(',')}]`;
  if (typeof v !== 'object' || v === null) return JSON.stringify(v) ?? 'null';
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o).filter((k) => !(top && IMAGE_FIELDS.has(k)) && o[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalRequest(o[k], false)}`).join(',')}}`;
}
