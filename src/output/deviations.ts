/**
 * One warning line per way a paid answer is off the contract, naming the field (DESIGN.md "Never
 * lose what was paid": the answer is shown and stored all the same). The server's text is
 * escaped here, so a line is safe for a terminal whoever writes it.
 */
import { sanitizeInline } from './sanitize.js';

export function deviationLines(deviations: readonly string[] | undefined, label?: string): string[] {
  return (deviations ?? []).map((d) => sanitizeInline(`warning: ${label ? `${label}: ` : ''}the answer is off the contract: ${d}`));
}
