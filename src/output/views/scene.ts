/**
 * A video or a photo set, for people: the consensus first (where, how many frames
 * agree, how far they spread, when in the clip), then every other place the frames point to (kept,
 * not averaged away), then one row per frame. Plain data in (media/scene.ts's object), text out.
 */
import type { ClusterJson, FrameJson, SceneJson } from '../../media/scene.js';
import { asResultBody } from '../../evidence/record-types.js';
import { clock } from '../../media/clock.js';
import { coord, mapLinks } from '../maps.js';
import type { ViewOpts } from '../render.js';
import { sanitizeInline } from '../sanitize.js';
import { renderTable } from '../table.js';
import { heading } from './locate.js';

/** Seconds of the clip as a clock: 4.25 -> "0:04.250". */
export const clockS = (s: number): string => clock(Math.round(s * 1000));

export function rangesText(c: ClusterJson): string {
  return c.time_ranges.map((r) => `${clockS(r.from_s)}-${clockS(r.to_s)}`).join(', ');
}

const unit = (s: SceneJson) => (s.kind === 'video' ? 'frame' : 'photo');
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** "2 of 4 frames agree · spread 5.00 km · support 2.00" (+ the time ranges). */
export function clusterFacts(c: ClusterJson, s: SceneJson): string {
  const ranges = s.kind === 'video' && c.time_ranges.length ? ` · ${rangesText(c)}` : '';
  return `${c.agree} of ${plural(c.of, unit(s))} agree · spread ${c.spread_km.toFixed(2)} km · support ${c.support.toFixed(2)}${ranges}`;
}

function placeOf(f: FrameJson): string {
  const b = f.ok ? asResultBody(f.result) : undefined;
  if (!b) return f.error?.code === 'not_sent' ? 'not sent' : `failed: ${f.error?.code ?? 'error'}`;
  const parts = [b.location.neighborhood, b.location.city, b.location.country].filter((p) => typeof p === 'string' && p.trim() !== '');
  return [...new Set(parts)].join(', ');
}

function framesTable(s: SceneJson, view: ViewOpts): string {
  const video = s.kind === 'video';
  const rows = s.frames.map((f) => {
    const b = f.ok ? asResultBody(f.result) : undefined;
    return [
      String(f.index), ...(video ? [clockS(f.t_s ?? 0), f.why ?? ''] : [f.input]), placeOf(f),
      b ? `${coord(b.location.latitude)}, ${coord(b.location.longitude)}` : '', b ? b.confidence.toFixed(2) : '', f.cluster === null ? '' : `#${f.cluster}`,
    ];
  });
  const head = ['#', ...(video ? ['time', 'why'] : ['photo']), 'place', 'coordinates', 'confidence', 'cluster'];
  const n = head.length;
  return renderTable({ head, rows, align: head.map((h) => (h === 'confidence' || h === '#' ? 'right' : 'left')), optional: [n - 3], ...(video ? {} : { cutLeft: [1] }) }, view);
}

export function sceneView(s: SceneJson, view: ViewOpts): string {
  const out: string[] = [];
  const what = s.kind === 'video' ? `${sanitizeInline(s.input)}${s.duration_s !== undefined ? ` (${clockS(s.duration_s)})` : ''}` : `${plural(s.frames.length, 'photo')} located together (${s.input})`;
  const c = s.consensus;
  if (!c) out.push(view.style.red(`no consensus for ${what}: no ${unit(s)} was answered with a location`));
  else {
    out.push(heading(`consensus for ${what}: ${sanitizeInline(c.place || 'no place name')}`, view));
    out.push(`  ${coord(c.lat)}, ${coord(c.lng)}`);
    out.push(`  ${clusterFacts(c, s)}`);
    for (const l of mapLinks(c.lat, c.lng)) out.push(`  ${l.name}: ${l.url}`);
    if (s.tied) out.push(view.style.yellow(`  a tie: #2 has as many ${unit(s)}s and as much support; it ranks second only by time`));
  }
  const others = s.clusters.slice(1);
  if (others.length) {
    out.push('', view.style.bold(`other places the ${unit(s)}s point to (${others.length}, kept apart, not averaged in)`));
    for (const k of others) out.push(`  #${k.rank} ${sanitizeInline(k.place || 'no place name')}: ${coord(k.lat)}, ${coord(k.lng)}`, `     ${clusterFacts(k, s)}`);
  }
  out.push('', view.style.bold(`${unit(s)}s`), framesTable(s, view));
  const dropped = s.dropped.map((d) => `${clockS(d.t_s)} ${d.why === 'duplicate' ? `near-duplicate${d.of !== undefined ? ` of #${d.of}` : ''}` : 'over --max-frames'}`);
  if (dropped.length) out.push(view.style.dim(`not sent: ${dropped.join(' · ')}`));
  if (s.failed) out.push(view.style.yellow(`${plural(s.failed, unit(s))} without an answer: the consensus is of the other ${s.answered}`));
  return out.join('\n');
}
