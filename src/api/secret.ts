/**
 * A server may echo the key back: in an error message or hint, a header, a success body. Whatever
 * it sends, the key must not reach a terminal, a log or a file, so every answer is scrubbed here,
 * in the one layer that holds the key, before anything else reads it (errors, --json, --debug).
 */
import type { RawAnswer } from './transport.js';

export const SECRET_MASK = '[REDACTED]';

export function scrubAnswer(ans: RawAnswer, secret: string): RawAnswer {
  if (secret.length < 4) return ans;
  const mask = (s: string) => (s.includes(secret) ? s.split(secret).join(SECRET_MASK) : s);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(ans.headers)) headers[k] = mask(v);
  let raw = mask(ans.raw);
  // JSON may spell the key with \u escapes, which a text search misses: look at the decoded text.
  if (raw.includes('\\')) {
    try {
      const decoded = JSON.stringify(JSON.parse(raw));
      if (decoded.includes(secret)) raw = mask(decoded);
    } catch {
      // not JSON: the text scrub above is all there is to do
    }
  }
  return { ...ans, headers, raw };
}
