/**
 * Canonical JSON: object keys sorted (by UTF-16 code units, as Array.prototype.sort does), no
 * whitespace, undefined members left out, strings and numbers as JSON.stringify writes them. For
 * the values geo hashes (strings, integers, booleans, null, plain objects and arrays) this is
 * RFC 8785 (JCS), so the same bytes come out of any language's JCS implementation, and of
 * Python's json.dumps(v, sort_keys=True, separators=(',', ':'), ensure_ascii=False) for ASCII keys.
 *
 * The one serialisation behind every "same content" decision: the sandbox's idempotency payloads,
 * result reuse and claims (store/canonical.ts) and the custody log's entry hashes (evidence/custody.ts).
 */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map((x) => (x === undefined ? 'null' : canonicalJson(x))).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}
