/**
 * The report's own CSS and browser script, kept as strings so the report stays one file. The
 * script reads the data block (never HTML), draws every layer as a Leaflet vector (circleMarker,
 * circle, polyline: no marker icon images, so they draw offline) and builds tooltips with
 * textContent so a hostile label stays text.
 */

export const REPORT_CSS = `
:root { color-scheme: light; --fg: #1d232a; --muted: #5c6670; --line: #d8dde3; --est: #d62424; --cand: #247ad6; --exif: #2fa82f; --scope: #888; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: #f6f7f9; }
header.page { padding: 16px 24px; background: #1d232a; color: #fff; }
header.page h1 { margin: 0; font-size: 20px; }
header.page p { margin: 4px 0 0; color: #c9d1d9; font-size: 12px; }
main { max-width: 1100px; margin: 0 auto; padding: 16px 24px 40px; }
section.result { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 16px 20px; margin: 16px 0; }
section.result h2 { margin: 0 0 12px; font-size: 18px; }
h3 { font-size: 14px; margin: 18px 0 6px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.top { display: grid; grid-template-columns: 260px 1fr; gap: 16px; align-items: start; }
.top img { width: 100%; height: auto; border-radius: 4px; border: 1px solid var(--line); image-rendering: auto; }
.noimg { padding: 24px 8px; text-align: center; color: var(--muted); border: 1px dashed var(--line); border-radius: 4px; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.conf { font-weight: 600; }
.map { height: 420px; margin-top: 14px; border: 1px solid var(--line); border-radius: 4px; background: #e8edf2; }
.map-missing { padding: 12px; color: var(--muted); }
.legend { display: flex; gap: 16px; font-size: 12px; color: var(--muted); margin-top: 6px; }
.legend span::before { content: ""; display: inline-block; width: 10px; height: 10px; border-radius: 50%; margin-right: 5px; vertical-align: -1px; }
.legend .l-est::before { background: var(--est); } .legend .l-cand::before { background: var(--cand); }
.legend .l-exif::before { border: 2px solid var(--exif); width: 8px; height: 8px; } .legend .l-scope::before { border: 2px solid var(--scope); width: 8px; height: 8px; }
.verdict { padding: 8px 12px; border-radius: 4px; border-left: 4px solid var(--scope); background: #f1f3f5; margin: 0; }
.verdict-agrees { border-color: var(--exif); } .verdict-contradicts { border-color: var(--est); background: #fdf0f0; }
.note { color: var(--muted); font-size: 12px; margin: 4px 0 0; }
.reasoning, pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; }
pre { font-size: 12px; background: #f1f3f5; padding: 8px; border-radius: 4px; }
.evidence { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; }
.evidence ul { margin: 0; padding-left: 18px; }
.supports h4 { color: var(--exif); margin: 0 0 4px; } .contradictions h4 { color: var(--est); margin: 0 0 4px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.empty { color: var(--muted); font-style: italic; }
.leaflet-tooltip { max-width: 320px; white-space: normal; }
@media print { .map { break-inside: avoid; } body { background: #fff; } }
@media (max-width: 700px) { .top, .evidence { grid-template-columns: 1fr; } }
`;

export const REPORT_SCRIPT = `
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('geo-data').textContent);
  if (typeof L === 'undefined') return;
  var NEAR_M = 1000 * 1000;
  var COLORS = { estimate: '#d62424', candidate: '#247ad6', exif: '#2fa82f', scope: '#888888' };
  function tip(layer, text) {
    var span = document.createElement('span');
    span.textContent = text;
    layer.bindTooltip(span);
    return layer;
  }
  function dot(map, p, role, radius, text) {
    var opts = { radius: radius, color: '#ffffff', weight: 2, fillColor: COLORS[role], fillOpacity: 0.95, className: 'geo-' + role };
    // The EXIF point is a ring, so it stays visible when it sits under an estimate it agrees with.
    if (role === 'exif') opts = { radius: radius, color: COLORS.exif, weight: 3, fillOpacity: 0, className: 'geo-exif' };
    return tip(L.circleMarker([p.lat, p.lng], opts), text).addTo(map);
  }
  data.items.forEach(function (it, i) {
    var el = document.getElementById('map-' + i);
    if (!el) return;
    var map = L.map(el, { scrollWheelZoom: false, worldCopyJump: true });
    map.attributionControl.setPrefix('Leaflet');
    // Tiles need the network; everything drawn below is vector and works offline.
    L.tileLayer('https://tile.openstreetmap.org/{z}/{x}/{y}.png', {
      maxZoom: 19, crossOrigin: false, attribution: '&copy; OpenStreetMap contributors'
    }).addTo(map);
    // A view first: a circle can only measure its bounds on a map that has a zoom.
    map.setView([it.estimate.lat, it.estimate.lng], 10);
    var bounds = L.latLngBounds([[it.estimate.lat, it.estimate.lng]]);
    if (it.scope) {
      var c = L.circle([it.scope.lat, it.scope.lng], { radius: it.scope.radiusKm * 1000, color: COLORS.scope, weight: 2, dashArray: '6 4', fillOpacity: 0.06, className: 'geo-scope' });
      tip(c, 'scope: ' + it.scope.name + ' (' + it.scope.radiusKm + ' km)').addTo(map);
      bounds.extend(c.getBounds());
    }
    // The view frames the local picture; a far-off alternative (another continent) is still drawn
    // and listed in the table, but would shrink the estimate, EXIF point and scope to one pixel.
    it.candidates.forEach(function (c) {
      dot(map, c, 'candidate', 6, '#' + c.rank + ' ' + c.label + (c.confidencePct === null ? '' : ' (' + c.confidencePct + '%)'));
      if (map.distance([it.estimate.lat, it.estimate.lng], [c.lat, c.lng]) < NEAR_M) bounds.extend([c.lat, c.lng]);
    });
    if (it.exif) {
      L.polyline([[it.estimate.lat, it.estimate.lng], [it.exif.lat, it.exif.lng]], { color: COLORS.exif, weight: 2, dashArray: '4 4', className: 'geo-link' }).addTo(map);
      dot(map, it.exif, 'exif', 13, 'EXIF GPS: ' + it.exif.verdict + (it.exif.distanceKm === null ? '' : ', ' + it.exif.distanceKm + ' km'));
      bounds.extend([it.exif.lat, it.exif.lng]);
    }
    dot(map, it.estimate, 'estimate', 9, it.estimate.label);
    map.fitBounds(bounds.pad(0.15), { maxZoom: 14 });
    el.setAttribute('data-drawn', 'true');
  });
})();
`;

