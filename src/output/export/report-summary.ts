/**
 * The opening of a report of several results: one table row per result (the number the overview
 * map and the section heading use, input linked to its section, place, coordinates, confidence,
 * EXIF check) and an overview map of all estimates. Every server or file string goes through esc().
 */
import { esc } from './html.js';
import { type ExportItem, placeName } from './model.js';
import { fmt } from './report-sections.js';

/** The EXIF check in a word or two; the section has the full sentence. */
function verdictCell(item: ExportItem): string {
  const c = item.exif;
  if (!c) return '<td class="v">not checked</td>';
  const km = c.distanceKm === undefined ? '' : ` (${c.distanceKm < 1 ? `${Math.round(c.distanceKm * 1000)} m` : `${c.distanceKm.toFixed(1)} km`})`;
  return `<td class="v v-${esc(c.verdict)}">${esc(c.verdict)}${esc(km)}</td>`;
}

function row(item: ExportItem, index: number): string {
  return (
    `<tr class="summary-row"><td class="num"><a href="#result-${index}">${index + 1}</a></td>` +
    `<td class="input"><a href="#result-${index}">${esc(item.input || item.sha256 || `result ${index + 1}`)}</a></td>` +
    `<td>${esc(placeName(item.body) || item.body.location.address || '')}</td>` +
    `<td class="num">${fmt(item.lat)}, ${fmt(item.lng)}</td>` +
    `<td class="num">${(item.body.confidence * 100).toFixed(1)}%</td>${verdictCell(item)}</tr>`
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
<table class="summary"><thead><tr><th>#</th><th>input</th><th>place</th><th>lat, lng</th><th>confidence</th><th>EXIF check</th></tr></thead>
<tbody>${items.map(row).join('')}</tbody></table>
</section>`;
}
