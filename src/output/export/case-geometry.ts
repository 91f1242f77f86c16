/**
 * A case's investigation as shapes on the earth: the conclusion's uncertainty circle, each place
 * ruled out (a circle, a point, or the area's polygons), the points the observations and hypotheses
 * point at (their results' estimates, their candidates), and the results themselves. One reading,
 * drawn three ways: the report's SVG map (case-map.ts), GeoJSON and KML (case-geo.ts). Plain data
 * in (the investigation as the log holds it, the results as it vouches for them); rings are [lng, lat].
 */
import { caseItems } from '../../evidence/clue-ids.js';
import type { VouchedResult } from '../../evidence/case-vouch.js';
import type { Authored, Investigation } from '../../evidence/investigation.js';
import type { Geometry } from '../../evidence/investigation-events.js';
import { resultColumns } from '../../evidence/record-types.js';
import { type LngLat, circleRing } from './geometry.js';

/** Who wrote an entry, in one line: "ana@desk (SHA256:…)", with the team store's role when it said one. */
export function authorText(a: Pick<Authored, 'user' | 'host' | 'key' | 'role'>): string {
  return `${a.role !== undefined ? `${a.role} (${a.user}@${a.host})` : `${a.user}@${a.host}`}${a.key ? `, key ${a.key}` : ''}`;
}

interface Drawn {
  entry: number;
  at: string;
  by: string;
}

export interface ConclusionShape extends Drawn {
  lat: number;
  lng: number;
  place?: string;
  within_m: number;
  confidence: string;
  because: string;
  /** The entries of the conclusions it superseded, newest first. */
  superseded: number[];
  ring: LngLat[];
}

export interface RuledOutShape extends Drawn {
  because: string;
  place?: string;
  /** The area file's name, when it came from one. */
  area?: string;
  within_km?: number;
  /** Each polygon as its rings (the first the outer one); a circle is one polygon of one ring. */
  polygons: LngLat[][][];
  /** A place ruled out with no radius: only its point. */
  point?: LngLat;
}

export interface NotePoint extends Drawn {
  kind: 'observation' | 'hypothesis';
  text: string;
  /** What it points at there: a result (`r2`) or a candidate (`r2.cand1`). */
  target: string;
  lat: number;
  lng: number;
}

export interface ResultPoint {
  ref: string;
  lat: number;
  lng: number;
  place: string;
  input: string;
}

export interface CaseGeometry {
  /** The case rests on a sandbox's answers: every shape says so. */
  simulated: boolean;
  conclusion?: ConclusionShape;
  ruled_out: RuledOutShape[];
  notes: NotePoint[];
  results: ResultPoint[];
}

const drawn = (a: Authored): Drawn => ({ entry: a.entry, at: a.at, by: authorText(a) });
const finite = (...ns: unknown[]) => ns.every((n) => typeof n === 'number' && Number.isFinite(n));

/** The polygons of a logged geometry (a Point with a radius is a circle), or its lone point. */
function shapeOf(g: Geometry | undefined, withinKm: number | undefined): Pick<RuledOutShape, 'polygons' | 'point'> {
  if (!g) return { polygons: [] };
  if (g.type === 'Point') {
    const [lng, lat] = g.coordinates;
    if (!finite(lat, lng)) return { polygons: [] };
    return withinKm !== undefined && withinKm > 0 ? { polygons: [[circleRing(lat, lng, withinKm)]] } : { polygons: [], point: [lng, lat] };
  }
  return { polygons: g.type === 'Polygon' ? [g.coordinates] : g.coordinates };
}

export function caseGeometry(inv: Investigation, results: readonly VouchedResult[], simulated: boolean): CaseGeometry {
  const points = new Map<string, { lat: number; lng: number }>();
  const shown: ResultPoint[] = [];
  results.forEach((r, i) => {
    const c = resultColumns(r.record.response.body, r.record.request);
    if (c.latitude === null || c.longitude === null) return;
    const ref = `r${i + 1}`;
    points.set(ref, { lat: c.latitude, lng: c.longitude });
    const place = [...new Set([c.neighborhood, c.city, c.country].filter((p): p is string => Boolean(p && p.trim())))].join(', ');
    shown.push({ ref, lat: c.latitude, lng: c.longitude, place, input: r.input.path ?? r.input.sha256 });
  });
  for (const item of caseItems(results)) if (item.candidate) points.set(item.id, item.candidate);
  const notes: NotePoint[] = inv.notes.flatMap((n) => {
    const targets = [...new Set([...(n.results ?? []).map((r) => r.ref), ...(n.clues ?? []).filter((id) => /\.cand\d+$/.test(id))])];
    return targets.flatMap((target) => {
      const p = points.get(target);
      return p ? [{ ...drawn(n), kind: n.kind, text: n.text, target, lat: p.lat, lng: p.lng }] : [];
    });
  });
  const c = inv.conclusion;
  const conclusion: ConclusionShape | undefined = c && finite(c.lat, c.lng, c.within_m)
    ? {
      ...drawn(c), lat: c.lat, lng: c.lng, ...(c.place ? { place: c.place } : {}), within_m: c.within_m, confidence: c.confidence, because: c.because,
      superseded: inv.superseded.map((s) => s.entry), ring: circleRing(c.lat, c.lng, Math.max(c.within_m, 1) / 1000),
    }
    : undefined;
  const ruledOut = inv.ruled_out.map((r) => ({
    ...drawn(r), because: r.because, ...(r.place ? { place: r.place } : {}), ...(r.area ? { area: r.area.name } : {}),
    ...(r.within_km !== undefined ? { within_km: r.within_km } : {}), ...shapeOf(r.geometry, r.within_km),
  }));
  return { simulated, ...(conclusion ? { conclusion } : {}), ruled_out: ruledOut, notes, results: shown };
}
