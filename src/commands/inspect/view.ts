/**
 * The human view of `geo inspect`: one key/value block per file. Every string that came from the
 * file (EXIF text can hold anything, escape sequences included) is sanitized by renderKv.
 */
import { cameraName } from '../../image/exif.js';
import { peopleTime, takenTime } from '../../output/time.js';
import { type Drawn, type KvInput, renderKv } from '../../output/kv.js';
import { coord, osmLink } from '../../output/maps.js';
import type { ViewOpts } from '../../output/render.js';
import { sanitizeInline } from '../../output/sanitize.js';
import type { InspectOk, InspectRecord, SeenBefore } from './run.js';
import { type SentImage, describeRemoval } from '../../image/without-metadata.js';
import { describeSun } from '../../evidence/sun-witness.js';
import { credentialRows } from './credentials-view.js';

const fmt = (n: number) => n.toLocaleString('en-US');

function drawn(s: string): Drawn {
  return { drawn: s };
}

function gpsRows(r: InspectOk, view: ViewOpts): KvInput[] {
  const g = r.exif.gps;
  if (!g) return [['GPS', r.exif.errors.some((e) => /GPS/i.test(e)) ? 'unreadable (broken GPS block)' : 'none']];
  if (g.suspect === 'zero') return [['GPS', drawn(view.style.yellow('0, 0 (suspect: written by devices without a fix, not a location)'))]];
  const extra = [g.altitude !== undefined ? `altitude ${g.altitude} m` : '', g.direction !== undefined ? `facing ${Math.round(g.direction)}°` : ''].filter(Boolean);
  const rows: KvInput[] = [['GPS', `${coord(g.lat)}, ${coord(g.lng)}${extra.length ? `  (${extra.join(', ')})` : ''}`]];
  if (r.place) {
    const p = r.place;
    const dist = p.place && p.distanceKm !== undefined && !p.atSea ? ` (${p.distanceKm < 1 ? '<1' : Math.round(p.distanceKm)} km away)` : '';
    rows.push(['place', `${p.text || 'unknown'}${dist}`]);
  }
  rows.push(['map', osmLink(g.lat, g.lng)]);
  return rows;
}

/** What geo locate would send of this file: metadata removed first, or nothing to remove. */
function uploadText(u: SentImage): string {
  if (u.metadata !== 'removed') return 'sent as it is: no metadata to remove';
  return `without ${describeRemoval(u.removed ?? [], u.orientation)} (${fmt(u.size)} bytes; --keep-metadata sends the file as it is)`;
}

export function recordRows(r: InspectOk, view: ViewOpts): KvInput[] {
  const e = r.exif;
  const rows: KvInput[] = [
    ['sha256', r.sha256],
    ['type', `${r.type.toUpperCase()} (${r.mime})${r.width ? `, ${r.width}x${r.height}` : ''}`],
    ['size', `${fmt(r.size)} bytes`],
    ...gpsRows(r, view),
    ['taken', e.dateTimeOriginal ? takenTime(e.dateTimeOriginal, e.offsetTime) : 'not recorded'],
  ];
  if (r.sun) rows.push(['sun', describeSun(r.sun)]);
  const camera = cameraName(e);
  if (camera) rows.push(['camera', camera]);
  if (e.lens) rows.push(['lens', e.lens]);
  if (e.software) rows.push(['software', e.software]);
  rows.push(['API', !r.api.accepted ? drawn(view.style.yellow(`not as is: ${sanitizeInline(r.api.reason ?? '')}`)) : r.api.warning ? drawn(view.style.yellow(r.api.warning)) : 'accepted as is']);
  if (r.upload) rows.push(['upload', uploadText(r.upload)]);
  rows.push(...credentialRows(r.c2pa, r.metadata, view));
  // The perceptual hash by which copies are found; "seen before" only when a copy was (--json: [] when none).
  if (r.perceptual) rows.push(['PDQ', `${r.perceptual.pdq} (perceptual hash, quality ${r.perceptual.quality} of 100)`]);
  if (r.seen_before?.length) rows.push(...seenRows(r.seen_before));
  for (const err of e.errors) rows.push(['EXIF warning', err]);
  return rows;
}

/** "seen before": each stored result of a near-duplicate on a line, nearest first. */
function seenRows(seen: readonly SeenBefore[]): KvInput[] {
  return seen.map((s, i): KvInput => {
    const place = [s.city, s.country].filter(Boolean).join(', ') || 'no place';
    return [i === 0 ? 'seen before' : '', `${s.distance} bit${s.distance === 1 ? '' : 's'} away: ${s.input} located ${peopleTime(s.stored_at)} at ${place}${s.analysis_id ? ` (${s.analysis_id})` : ''}${s.sandbox ? ' (sandbox)' : ''}`];
  });
}

export function inspectView(records: InspectRecord[], view: ViewOpts): string {
  const blocks = records.map((r) => {
    const title = view.style.bold(sanitizeInline(r.input));
    if (!r.ok) return `${title}\n${renderKv([['error', drawn(view.style.red(sanitizeInline(r.error.message)))]], view, '  ')}`;
    return `${title}\n${renderKv(recordRows(r, view), view, '  ')}`;
  });
  return blocks.join('\n\n');
}
