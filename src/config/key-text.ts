/**
 * What a key may look like, checked where it enters (`geo keys add`, GEO_API_KEY, the config file,
 * the keyring): visible ASCII only. A line break or control character inside a key cannot go in
 * an HTTP header (the request failed as a "network error" after three retries, though nothing had
 * been sent), and a space or zero-width character inside one is a paste gone wrong. Whitespace
 * around the key (a trailing newline from a file) is dropped, as `keys add` always did.
 */

/** The key without surrounding whitespace, or why it cannot be a key (never quoting it). */
export function checkKeyText(raw: string): { key: string } | { problem: string } {
  const key = raw.replace(/^[\s\ufeff]+|[\s\ufeff]+$/gu, '');
  if (key === '') return { problem: 'is empty' };
  for (let i = 0; i < key.length; i++) {
    const c = key.codePointAt(i)!;
    if (c >= 0x21 && c <= 0x7e) continue;
    const what = c < 0x20 || (c >= 0x7f && c <= 0x9f) ? (c === 0x0a || c === 0x0d ? 'a line break' : 'a control character') : /\s/u.test(String.fromCodePoint(c)) ? 'a space' : 'an invisible or non-ASCII character';
    return { problem: `contains ${what} (U+${c.toString(16).toUpperCase().padStart(4, '0')}) at character ${i + 1}` };
  }
  return { key };
}
