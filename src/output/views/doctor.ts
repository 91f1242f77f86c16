/**
 * `geo doctor` for people: one line per check, its word first (ok, warn, FAIL: words, not only
 * colours or symbols, for screen readers and logs), then the hint on its own line. Details quote
 * paths and server text, so every line is sanitized; on a terminal they wrap to its width.
 */
import { wrapFor } from '../fit.js';
import type { ViewOpts } from '../render.js';
import { sanitizeInline } from '../sanitize.js';

export interface DoctorLine {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  hint?: string;
}

export function doctorView(results: readonly DoctorLine[], view: ViewOpts): string {
  const width = Math.max(...results.map((r) => r.name.length));
  const word = { ok: view.style.green('ok  '), warn: view.style.yellow('warn'), fail: view.style.red('FAIL') };
  const lines = results.flatMap((r) => {
    const lead = `${word[r.status]}  ${r.name.padEnd(width)}  `;
    const indent = ' '.repeat(6 + width + 2);
    const out = wrapFor(view, sanitizeInline(r.detail), indent, lead);
    if (r.hint) out.push(...wrapFor(view, `hint: ${sanitizeInline(r.hint)}`, `${indent}  `, indent));
    return out;
  });
  const failed = results.filter((r) => r.status === 'fail').length;
  const warned = results.filter((r) => r.status === 'warn').length;
  lines.push('', failed ? `${failed} failed, ${warned} warning${warned === 1 ? '' : 's'}: see the hints above` : warned ? `all needed parts work; ${warned} warning${warned === 1 ? '' : 's'}` : 'everything works');
  return lines.join('\n');
}
