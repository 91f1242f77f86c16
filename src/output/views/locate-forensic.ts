/**
 * The depth-3 part of the result view: the forensic verdict, the evidence for and against, the
 * rejected candidates with their distance from the leading estimate, and the calibration policy
 * (fields not shown in the spec, so flattened as they come).
 */
import type { GeolocateResponse } from '../../api/schemas.js';
import { haversineKm } from '../../places/distance.js';
import { percent } from '../confidence.js';
import { flatten, renderKv } from '../kv.js';
import { coord, osmLink } from '../maps.js';
import type { ViewOpts } from '../render.js';
import { wrapFor } from '../fit.js';
import { sanitizeInline } from '../sanitize.js';
import { renderTable } from '../table.js';

function km(d: number): string {
  return d < 10 ? `${d.toFixed(2)} km` : `${Math.round(d)} km`;
}

/** A list the server may have left out or sent as something else (a deviating answer is shown too). */
const list = <T>(v: readonly T[] | undefined): readonly T[] => (Array.isArray(v) ? v : []);

function bullets(items: readonly string[], mark: string, view: ViewOpts): string[] {
  return items.length ? items.flatMap((s) => wrapFor(view, sanitizeInline(s), '    ', `  ${mark} `)) : ['  (none)'];
}

function candidates(res: GeolocateResponse, view: ViewOpts): string[] {
  const all = res.forensic?.candidates;
  if (!Array.isArray(all)) return [];
  const head = view.style.bold(`Candidates (${all.length})`);
  if (!all.length) return ['', head, '  (none)'];
  const { latitude, longitude } = res.location;
  const rows = all.map((c) => [
    c.label,
    `${coord(c.lat)}, ${coord(c.lng)}`,
    percent(c.confidence),
    km(haversineKm(latitude, longitude, c.lat, c.lng)),
    osmLink(c.lat, c.lng),
  ]);
  // Narrow terminals drop the map link, then the distance (both are in the JSON): coordinates never shrink.
  const table = renderTable({ head: ['label', 'coordinates', 'confidence', 'distance', 'map'], rows, align: ['left', 'left', 'right', 'right', 'left'], optional: [4, 3], keep: [4], floor: [undefined, Infinity, Infinity, Infinity], indent: 2 }, view);
  return ['', head, table.split('\n').map((l) => '  ' + l).join('\n')];
}

export function forensicSection(res: GeolocateResponse, view: ViewOpts): string[] {
  const f = res.forensic;
  if (!f) return [];
  const out = [
    '',
    view.style.bold('Forensic'),
    renderKv([['precision tier', f.precision_tier], ['verification status', f.verification_status]], view, '  '),
    '',
    view.style.bold(`Supports (${list(f.supports).length})`),
    ...bullets(list(f.supports), '+', view),
    '',
    view.style.bold(`Contradictions (${list(f.contradictions).length})`),
    ...bullets(list(f.contradictions), '-', view),
    ...candidates(res, view),
  ];
  if (res.calibration !== undefined) {
    const rows = flatten(res.calibration);
    out.push('', view.style.bold('Calibration'), rows.length ? renderKv(rows, view, '  ') : '  (empty)');
  }
  return out;
}
