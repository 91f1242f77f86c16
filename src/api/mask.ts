/**
 * Every spelling of a key a reader would still recognise, for masking: api/secret.ts scrubs answers
 * with it, output/sanitize.ts redact() every other output. No imports: sanitize.ts loads it on
 * every command.
 */

export const SECRET_MASK = '[REDACTED]';

/**
 * What may sit between two characters of an echoed key and still leave it readable to a person
 * or pasteable: whitespace, line breaks, zero-width and bidi marks, the soft hyphen, and the same
 * written as JSON escapes (a JSON text carries a line break as the two characters `\n`).
 */
const FILLER = String.raw`(?:[\s\u00ad\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|\\[nrt]|\\u(?:00[aA][dD]|180[eE]|200[0-9a-fA-F]|202[0-9a-fA-F]|206[0-9a-fA-F]|[fF][eE][fF][fF]))*`;

const cache = new Map<string, RegExp>();

/**
 * Every spelling of `secret` a reader would still recognise: any case, with fillers between its
 * characters. Secrets shorter than 4 characters match nothing (a mask of "abc" would eat text).
 */
export function secretPattern(secret: string): RegExp | undefined {
  if (secret.length < 4) return undefined;
  let re = cache.get(secret);
  if (!re) {
    const chars = [...secret].map((c) => c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
    re = new RegExp(chars.join(FILLER), 'giu');
    cache.set(secret, re);
  }
  re.lastIndex = 0;
  return re;
}

/** `text` with every spelling of each secret (secretPattern) replaced by the mask. */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    const re = secretPattern(s);
    if (re) out = out.replace(re, SECRET_MASK);
  }
  return out;
}
