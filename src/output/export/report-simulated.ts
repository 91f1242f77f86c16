/**
 * How a report says an answer is a sandbox's (evidence/simulated.ts): a banner that opens
 * the page, above any map, counting them; and a mark that opens each such result's section, above
 * its place name. Plain markup styled by the report's own CSS (report-template.ts), so the CSP's
 * hashes are unchanged; the only text is ours and the counts.
 */
import { SIMULATED, simulatedCount } from '../../evidence/simulated.js';
import { esc } from './html.js';

const WHY = 'A geo sandbox answered, not the geolocation service: it makes answers up to test geo with, without analysing the pixels. Do not publish or file them as evidence.';

/** The banner, when `n` of the report's `total` answers are simulated; '' when none is. */
export function simulatedBanner(n: number, total: number): string {
  if (n === 0) return '';
  const head = total === 1 ? `${SIMULATED.charAt(0).toUpperCase()}${SIMULATED.slice(1)}` : `${simulatedCount(n)}${n < total ? ` (${n} of ${total} results, each marked below)` : ''}`;
  return `<div class="simulated-banner" id="simulated" role="alert"><strong>${esc(head)}</strong><p>${esc(WHY)}</p></div>`;
}

/** The mark at the top of one simulated result's section (and a short one for its summary row). */
export function simulatedMark(): string {
  return `<p class="simulated" role="note"><strong>${esc(SIMULATED)}</strong></p>`;
}

export function simulatedTag(): string {
  return `<span class="simulated-tag">${esc(SIMULATED)}</span>`;
}
