/**
 * The report's browser script, kept as a string so the report stays one file (its hash pins it in
 * the CSP). It reads the data blocks (JSON, never HTML), draws every result layer as a Leaflet
 * vector (circleMarker, circle, polyline: no marker icon images, so they draw offline) and builds
 * tooltips and labels with textContent so a hostile label stays text. A claim check's report (claims-report.ts)
 * adds each claim's tolerance circle and a line from it to the estimate.
 *
 * Every map: the tile layers of tiles.ts in a layer switcher (the first shown), a scale bar, and the
 * country outlines in a pane *under* the tiles: hidden by them online, the only background offline
 * (Leaflet keeps a tile invisible until it has loaded).
 */

export const REPORT_SCRIPT = `
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('geo-data').textContent);
  var outlineBlock = document.getElementById('geo-outlines');
  var outlines = outlineBlock ? JSON.parse(outlineBlock.textContent) : null;
  if (typeof L === 'undefined') return;
  var NEAR_M = 1000 * 1000;
  var COLORS = { estimate: '#d62424', candidate: '#247ad6', exif: '#2fa82f', scope: '#888888', consensus: '#d62424', cluster: '#d6a024', frame: '#247ad6', shadow: '#6b4fa0' };
  var CLAIM = { agrees: '#2fa82f', contradicts: '#d62424', unverifiable: '#d6a024' };
  var SHADOW_PX = 70;
  function text(s) {
    var span = document.createElement('span');
    span.textContent = s;
    return span;
  }
  function tip(layer, s) {
    layer.bindTooltip(text(s));
    return layer;
  }
  function dot(map, p, role, radius, s) {
    var opts = { radius: radius, color: '#ffffff', weight: 2, fillColor: COLORS[role], fillOpacity: 0.95, className: 'geo-' + role };
    // The EXIF point is a ring, so it stays visible when it sits under an estimate it agrees with.
    if (role === 'exif') opts = { radius: radius, color: COLORS.exif, weight: 3, fillOpacity: 0, className: 'geo-exif' };
    return tip(L.circleMarker([p.lat, p.lng], opts), s).addTo(map);
  }
  // Rings arrive as integers: the first vertex, then deltas, in 1/scale degree ([lng, lat] order).
  var polygons = !outlines ? [] : outlines.rings.map(function (d) {
    var ring = [], x = 0, y = 0;
    for (var k = 0; k + 1 < d.length; k += 2) {
      x += d[k]; y += d[k + 1];
      ring.push([y / outlines.scale, x / outlines.scale]);
    }
    return [ring];
  });
  function drawOutlines(map) {
    if (!outlines) return;
    map.createPane('geo-outlines').style.zIndex = 150;
    L.polygon(polygons, {
      pane: 'geo-outlines', renderer: L.svg({ pane: 'geo-outlines' }), interactive: false,
      color: '#8d99a6', weight: 1, fillColor: '#f4f2ec', fillOpacity: 1, className: 'geo-outline',
      attribution: 'outlines: country-coder (approximate)'
    }).addTo(map);
    outlines.labels.forEach(function (c) {
      L.marker([c.lat, c.lng], {
        pane: 'geo-outlines', interactive: false, keyboard: false,
        icon: L.divIcon({ className: 'geo-country', html: text(c.name), iconSize: null })
      }).addTo(map);
    });
  }
  function baseMap(el) {
    var map = L.map(el, { scrollWheelZoom: false, worldCopyJump: true });
    map.attributionControl.setPrefix('Leaflet');
    var layers = {};
    data.tiles.forEach(function (t, k) {
      layers[t.name] = L.tileLayer(t.url, { maxZoom: t.maxZoom, crossOrigin: false, attribution: t.attribution });
      if (k === 0) layers[t.name].addTo(map);
    });
    // Expanded: the collapsed toggle's icon is an image file the report does not carry.
    L.control.layers(layers, null, { collapsed: false }).addTo(map);
    L.control.scale({ maxWidth: 160 }).addTo(map);
    drawOutlines(map);
    return map;
  }
  function overview(el) {
    var map = baseMap(el);
    var bounds = L.latLngBounds([]);
    // Results at the same place (the same photo twice, one scene) share a point labelled "3, 5".
    var places = {};
    var order = [];
    data.items.forEach(function (it, i) {
      var key = it.estimate.lat.toFixed(5) + ',' + it.estimate.lng.toFixed(5);
      if (!places[key]) { places[key] = { p: it.estimate, numbers: [] }; order.push(key); }
      places[key].numbers.push(i + 1);
    });
    order.forEach(function (key) {
      var pl = places[key];
      var m = L.circleMarker([pl.p.lat, pl.p.lng], { radius: 8, color: '#ffffff', weight: 2, fillColor: COLORS.estimate, fillOpacity: 0.95, className: 'geo-overview' });
      m.bindTooltip(text(pl.numbers.join(', ')), { permanent: true, direction: 'right', offset: [6, 0], className: 'geo-num' });
      m.on('click', function () { location.hash = '#result-' + (pl.numbers[0] - 1); });
      m.addTo(map);
      bounds.extend([pl.p.lat, pl.p.lng]);
    });
    map.fitBounds(bounds.pad(0.2), { maxZoom: 12 });
    el.setAttribute('data-drawn', 'true');
  }
  // A video's or a photo set's consensus (scene-report.ts): every cluster with its spread circle,
  // the consensus drawn last and largest, and one numbered point per frame.
  function scene(el, sc) {
    var map = baseMap(el);
    var first = sc.clusters[0];
    map.setView([first.lat, first.lng], 10);
    var bounds = L.latLngBounds([]);
    sc.clusters.slice().reverse().forEach(function (c) {
      var role = c.rank === 1 ? 'consensus' : 'cluster';
      var radius = Math.max(c.spreadKm, 0.05) * 1000;
      var circle = L.circle([c.lat, c.lng], { radius: radius, color: COLORS[role], weight: 2, fillOpacity: 0.08, className: 'geo-spread' });
      tip(circle, c.label + ': spread ' + c.spreadKm + ' km').addTo(map);
      bounds.extend(L.latLng(c.lat, c.lng).toBounds(2 * radius));
    });
    sc.frames.forEach(function (f) {
      var m = L.circleMarker([f.lat, f.lng], { radius: 5, color: '#ffffff', weight: 1, fillColor: COLORS.frame, fillOpacity: 0.9, className: 'geo-frame' });
      tip(m, '#' + f.index + ' ' + f.label).addTo(map);
      bounds.extend([f.lat, f.lng]);
    });
    sc.clusters.slice().reverse().forEach(function (c) {
      dot(map, c, c.rank === 1 ? 'consensus' : 'cluster', c.rank === 1 ? 10 : 8, c.label);
    });
    // No animation: the page is complete as soon as it loads (a screenshot or a print sees it).
    map.fitBounds(bounds.pad(0.15), { maxZoom: 14, animate: false });
    el.setAttribute('data-drawn', 'true');
  }
  var sc = document.getElementById('map-scene');
  if (sc && data.scene && data.scene.clusters.length) scene(sc, data.scene);
  // The shadow direction: a fixed 70 px from the estimate, redrawn at each zoom (a direction, not
  // a length on the ground). Web Mercator is conformal, so a bearing is the same angle on screen.
  function shadow(map, p, sh) {
    var line = tip(L.polyline([[p.lat, p.lng], [p.lat, p.lng]], { color: COLORS.shadow, weight: 4, className: 'geo-shadow' }), sh.label).addTo(map);
    function place() {
      var a = map.latLngToLayerPoint([p.lat, p.lng]);
      var r = sh.directionDeg * Math.PI / 180;
      var b = map.layerPointToLatLng(L.point(a.x + SHADOW_PX * Math.sin(r), a.y - SHADOW_PX * Math.cos(r)));
      line.setLatLngs([[p.lat, p.lng], b]);
    }
    place();
    map.on('zoomend', place);
  }
  var ov = document.getElementById('map-overview');
  if (ov) overview(ov);
  data.items.forEach(function (it, i) {
    var el = document.getElementById('map-' + i);
    if (!el) return;
    var map = baseMap(el);
    // A view first: a circle can only measure its bounds on a map that has a zoom.
    map.setView([it.estimate.lat, it.estimate.lng], 10);
    var bounds = L.latLngBounds([[it.estimate.lat, it.estimate.lng]]);
    // A claim check: the claim's tolerance circle, coloured by verdict, and a line to the estimate.
    if (it.claim) {
      var cl = L.circle([it.claim.lat, it.claim.lng], { radius: it.claim.radiusKm * 1000, color: CLAIM[it.claim.verdict] || COLORS.scope, weight: 3, fillOpacity: 0.1, className: 'geo-claim' });
      tip(cl, it.claim.label).addTo(map);
      L.polyline([[it.claim.lat, it.claim.lng], [it.estimate.lat, it.estimate.lng]], { color: '#555555', weight: 2, dashArray: '2 6', className: 'geo-claim-link' }).addTo(map);
      bounds.extend(cl.getBounds());
    }
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
    map.fitBounds(bounds.pad(0.15), { maxZoom: 14 });
    if (it.shadow) shadow(map, it.estimate, it.shadow);
    dot(map, it.estimate, 'estimate', 9, it.estimate.label);
    el.setAttribute('data-drawn', 'true');
  });
})();
`;
