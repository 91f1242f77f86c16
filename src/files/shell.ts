/** Commands geo prints for a person to paste: each word as the shell must see it. */

/** A word the shell takes as it is, or single-quoted (a path with spaces, quotes, `$`). */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
