/**
 * The opening of a report of several results: one table row per result (the number the overview
 * map and the section heading use, input linked to its section, place, coordinates, depth,
 * confidence written as the terminal writes it, the depth-3 calibration's advice, EXIF check);
 * below 560 px each row becomes a block of labelled lines, so nothing is lost at 420 px and an overview map of all estimates. Every server or file string goes through esc().
 */
import { isSimulated } from '../../evidence/simulated.js';
import { esc } from './html.js';
import { simulatedTag } from './report-simulated.js';
import { confidenceText } from '../confidence.js';
import { type ExportItem, placeName } from './model.js';
import { fmt, verdictOf } from './report-sections.js';

/** The EXIF check in a word or two; the section has the full sentence. */
function verdictCell(item: ExportItem): string {
  const c = item.exif;
  if (!c) return '<td class="v">not checked</td>';
  const km = c.distanceKm === undefined ? '' : ` (${c.distanceKm < 1 ? `${Math.round(c.distanceKm * 1000)} m` : `${c.distanceKm.toFixed(1)} km`})`;
  return `<td class="v v-${esc(c.verdict)}" data-label="EXIF check">${esc(c.verdict)}${esc(km)}</td>`;
}

/** The depth-3 calibration's advice in a word; depths 1 and 2 carry none. */
function adviceCell(item: ExportItem): string {
  const advice = verdictOf(item);
  const text = advice ?? (item.body.calibration !== undefined ? 'see section' : `none (depth ${item.body.depth})`);
  return `<td class="advice advice-${advice ?? 'none'}" data-label="service verdict">${esc(text)}</td>`;
}

function row(item: ExportItem, index: number): string {
  return (
    `<tr class="summary-row"><td class="num"><a href="#result-${index}">${index + 1}</a></td>` +
    `<td class="input" data-label="input"><a href="#result-${index}">${esc(item.input || item.sha256 || `result ${index + 1}`)}</a>${isSimulated(item.record) ? simulatedTag() : ''}</td>` +
    `<td data-label="place">${esc(placeName(item.body) || item.body.location.address || '')}</td>` +
    `<td class="num" data-label="lat, lng">${fmt(item.lat)}, ${fmt(item.lng)}</td>` +
    `<td class="num" data-label="depth">${esc(item.body.depth)}</td>` +
    `<td class="num" data-label="confidence">${esc(confidenceText(item.body.confidence))}</td>${adviceCell(item)}${verdictCell(item)}</tr>`
  );
}

export function summarySection(items: readonly ExportItem[], hasMap: boolean): string {
  const map = hasMap
    ? `<div class="map overview" id="map-overview" role="img" aria-label="overview map of every estimate, numbered as in the table"></div>
<p class="note">Numbered as in the table; click a point for its section. Without network the map shows country outlines instead of tiles.</p>`
    : '';
  return `<section class="summary" id="summary">
<h2>${items.length} results</h2>
${map}
<table class="summary"><thead><tr><th>#</th><th>input</th><th>place</th><th>lat, lng</th><th>depth</th><th>confidence</th><th>service verdict</th><th>EXIF check</th></tr></thead>
<tbody>${items.map(row).join('')}</tbody></table>
</section>`;
}
