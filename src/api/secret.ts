/**
 * A server may echo the key back: in an error message or hint, a header, a success body. Whatever
 * it sends, the key must not reach a terminal, a log or a file, so every answer is scrubbed here,
 * in the one layer that holds the key, before anything else reads it (errors, --json, --debug).
 * The same matcher (mask.ts) masks every other output (output/sanitize.ts redact(), geo mcp's results).
 */
import { createHmac } from 'node:crypto';
import { SECRET_MASK, maskSecrets, secretPattern } from './mask.js';
import type { RawAnswer } from './transport.js';

export { SECRET_MASK } from './mask.js';

export function scrubAnswer(ans: RawAnswer, secret: string): RawAnswer {
  if (secret.length < 4) return ans;
  const mask = (s: string) => maskSecrets(s, [secret]);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(ans.headers)) headers[k] = mask(v);
  let raw = mask(ans.raw);
  // The bytes too (the key is ASCII, so its bytes are its text): raw means raw, except for the key.
  let bytes = ans.bytes.includes(secret) ? Buffer.from(ans.bytes.toString('latin1').split(secret).join(SECRET_MASK), 'latin1') : ans.bytes;
  // JSON may spell the key with \u escapes, which a text search misses: look at the decoded text.
  if (raw.includes('\\')) {
    try {
      const decoded = JSON.stringify(JSON.parse(raw));
      const re = secretPattern(secret);
      if (re?.test(decoded)) {
        raw = mask(decoded);
        bytes = Buffer.from(raw, 'utf8');
      }
    } catch {
      // not JSON: the text scrub above is all there is to do
    }
  }
  return { ...ans, headers, raw, bytes };
}

/**
 * Which account paid for a result, without keeping the key: journals and provenance records carry
 * this so one key's answers are never re-emitted for another (issue 11). HMAC-SHA256 under a fixed
 * domain string, over the service origin and the key: one-way, so a file that leaks tells nothing
 * about the key, and the same key gets a different fingerprint on another service (a sandbox key
 * named like a production one never matches it). 20 hex digits (80 bits): collisions between the
 * handful of keys one user holds are out of reach, and the line stays short.
 */
export function accountFingerprint(baseUrl: string, key: string): string {
  let origin = baseUrl;
  try {
    origin = new URL(baseUrl).origin;
  } catch {
    // An unparsable base URL fails in the client with its own hint; the raw text still scopes it.
  }
  return createHmac('sha256', 'geo account fingerprint v1').update(`${origin}\n${key}`).digest('hex').slice(0, 20);
}
