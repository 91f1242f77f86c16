/**
 * Confidence as a number, a bar and a word. Top-level confidence is 0-1; candidate confidence is
 * 0-100 (api-spec.md "Note the scales"), so callers pass the scale they hold.
 */
import type { ViewOpts } from './render.js';

export type ConfidenceWord = 'high' | 'medium' | 'low' | 'very low';

export function confidenceWord(c: number): ConfidenceWord {
  if (c >= 0.8) return 'high';
  if (c >= 0.5) return 'medium';
  if (c >= 0.25) return 'low';
  return 'very low';
}

/** Unicode blocks on a terminal; ASCII when piped, so logs and diffs stay plain. */
export function confidenceBar(c: number, tty: boolean, cells = 10): string {
  const clamped = Math.min(1, Math.max(0, Number.isFinite(c) ? c : 0));
  const full = Math.round(clamped * cells);
  return tty ? '█'.repeat(full) + '░'.repeat(cells - full) : `[${'#'.repeat(full)}${'.'.repeat(cells - full)}]`;
}

/** "0.87 █████████░ high" on a terminal, "0.87 [#########.] high" piped; coloured by band. */
export function formatConfidence(c: number, view: ViewOpts): string {
  const word = confidenceWord(c);
  const paint = word === 'high' ? view.style.green : word === 'medium' ? view.style.yellow : view.style.red;
  return `${c.toFixed(2)} ${paint(confidenceBar(c, view.tty))} ${paint(word)}`;
}

/**
 * The same number and word without the bar, where a bar cannot be drawn as text (the HTML report,
 * its map labels): "0.24 very low", as the terminal writes it (the report said 24.0%).
 */
export function confidenceText(c: number): string {
  return `${c.toFixed(2)} ${confidenceWord(c)}`;
}

/** Candidate confidence (0-100) as a percentage. */
export function percent(c100: number): string {
  return `${Math.round(c100)}%`;
}
