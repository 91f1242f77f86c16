/**
 * Country outlines for the report's maps, so a report opened without network (tiles fail) still
 * shows where its points are. The polygons are those of `@rapideditor/country-coder`, which geo
 * already ships for offline reverse geocoding (places/geocode.ts); nothing is fetched.
 *
 * Size: the whole world at full detail is ~540 KB of JSON, too much for a file meant to be mailed.
 * So the world is simplified (Douglas-Peucker, WORLD_TOLERANCE_DEG) and only the countries that
 * contain a point keep their full detail. Coordinates are integers in 1/SCALE degree, each ring
 * stored as its first vertex then deltas: about 60 KB for the world (test/report measures it).
 *
 * country-coder's own caveat holds and the report says it: borders over water are generalised
 * (island countries are drawn as rough shapes around their islands), good for context, not
 * cartography.
 */
import { createRequire } from 'node:module';

interface CoderFeature {
  properties: { id: string; nameEn: string; isoStatus?: string };
  geometry: { type: 'Polygon'; coordinates: number[][][] } | { type: 'MultiPolygon'; coordinates: number[][][][] } | null;
}
interface CountryCoder {
  borders: { features: CoderFeature[] };
  featuresContaining(loc: [number, number]): CoderFeature[];
  feature(loc: [number, number]): CoderFeature | null;
}

/** What the report's script draws: rings (first vertex, then deltas, in 1/scale degree) and labels. */
export interface Outlines {
  scale: number;
  /** Each ring: [lng0, lat0, dLng1, dLat1, ...] as integers. */
  rings: number[][];
  /** The countries holding a point, named at the centre of their largest ring. */
  labels: Array<{ name: string; lat: number; lng: number }>;
}

export const SCALE = 100;
/** The latitude where the web map (Web Mercator) ends. */
const MERCATOR_LIMIT = 85.0511;
/** 0.1 degree (about 11 km): the world reads as itself at the zoom levels where it is all in view. */
export const WORLD_TOLERANCE_DEG = 0.1;

let coder: CountryCoder | undefined;
function countryCoder(): CountryCoder | undefined {
  try {
    coder ??= createRequire(import.meta.url)('@rapideditor/country-coder') as CountryCoder;
    return coder;
  } catch {
    return undefined; // no outlines is better than no report
  }
}

/** Douglas-Peucker on a ring of [lng, lat] (planar degrees, fine at this tolerance). */
export function simplify(ring: readonly number[][], tolerance: number): number[][] {
  if (ring.length <= 4 || tolerance <= 0) return ring.map((p) => [p[0]!, p[1]!]);
  const keep = new Uint8Array(ring.length);
  keep[0] = keep[ring.length - 1] = 1;
  const stack: Array<[number, number]> = [[0, ring.length - 1]];
  while (stack.length) {
    const [a, b] = stack.pop()!;
    const [ax, ay] = ring[a] as [number, number];
    const [bx, by] = ring[b] as [number, number];
    const dx = bx - ax;
    const dy = by - ay;
    const len2 = dx * dx + dy * dy;
    let far = -1;
    let farDist = tolerance;
    for (let i = a + 1; i < b; i++) {
      const [px, py] = ring[i] as [number, number];
      const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2));
      const d = Math.hypot(px - ax - t * dx, py - ay - t * dy);
      if (d > farDist) [far, farDist] = [i, d];
    }
    if (far >= 0) {
      keep[far] = 1;
      stack.push([a, far], [far, b]);
    }
  }
  return ring.filter((_, i) => keep[i]).map((p) => [p[0]!, p[1]!]);
}

/** A ring as integers: first vertex, then deltas; repeated vertices dropped; undefined when it collapses. */
function encode(ring: readonly number[][]): number[] | undefined {
  const out: number[] = [];
  let px = 0;
  let py = 0;
  for (const p of ring) {
    const x = Math.round(p[0]! * SCALE);
    const y = Math.round(p[1]! * SCALE);
    if (out.length && x === px && y === py) continue;
    out.push(x - px, y - py);
    [px, py] = [x, y];
  }
  return out.length >= 8 ? out : undefined; // a closed ring needs 3 distinct vertices + closing
}

/** The inverse of encode(), for tests: [lng, lat] pairs. */
export function decodeRing(d: readonly number[], scale = SCALE): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let x = 0;
  let y = 0;
  for (let i = 0; i + 1 < d.length; i += 2) {
    x += d[i]!;
    y += d[i + 1]!;
    out.push([x / scale, y / scale]);
  }
  return out;
}

/** Outer rings only: holes (lakes, enclaves) add bytes and little context. */
function outerRings(f: CoderFeature): number[][][] {
  const g = f.geometry;
  if (!g) return [];
  return g.type === 'Polygon' ? [g.coordinates[0]!] : g.coordinates.map((poly) => poly[0]!);
}

/** Area-weighted centroid of a ring (planar degrees); the ring's first vertex if it has no area. */
function centroid(ring: readonly number[][]): { lat: number; lng: number; area: number } {
  let a = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i + 1 < ring.length; i++) {
    const [x0, y0] = ring[i] as [number, number];
    const [x1, y1] = ring[i + 1] as [number, number];
    const k = x0 * y1 - x1 * y0;
    a += k;
    cx += (x0 + x1) * k;
    cy += (y0 + y1) * k;
  }
  if (a === 0) return { lng: ring[0]![0]!, lat: ring[0]![1]!, area: 0 };
  return { lng: cx / (3 * a), lat: cy / (3 * a), area: Math.abs(a / 2) };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * The simplified world plus, at full detail and labelled, the smallest country-coder features that
 * contain any of `points` (the piece with a geometry: Metropolitan France, not France with its
 * overseas departments). Undefined when the package cannot be loaded.
 */
export function countryOutlines(points: ReadonlyArray<{ lat: number; lng: number }>): Outlines | undefined {
  const cc = countryCoder();
  if (!cc) return undefined;
  const detailed = new Map<string, { feature: CoderFeature; name: string }>();
  for (const p of points) {
    if (!Number.isFinite(p.lat) || !Number.isFinite(p.lng)) continue;
    const f = cc.featuresContaining([p.lng, p.lat]).find((x) => x.geometry);
    if (!f || detailed.has(f.properties.id)) continue;
    // The drawn piece may be part of a country ("Metropolitan France"): it is labelled with the
    // country's name, unless it has an ISO code of its own (Puerto Rico, Hong Kong).
    const name = f.properties.isoStatus === 'official' ? f.properties.nameEn : (cc.feature([p.lng, p.lat])?.properties.nameEn ?? f.properties.nameEn);
    detailed.set(f.properties.id, { feature: f, name });
  }
  const rings: number[][] = [];
  for (const f of cc.borders.features) {
    if (detailed.has(f.properties.id)) continue;
    for (const ring of outerRings(f)) {
      // A ring closed along a pole (Antarctica's, down to -90) cannot be drawn on the web map,
      // which stops at 85.05 degrees: Leaflet filled it as a blank band across the bottom.
      if (ring.some((p) => Math.abs(p[1]!) > MERCATOR_LIMIT)) continue;
      const enc = encode(simplify(ring, WORLD_TOLERANCE_DEG));
      if (enc) rings.push(enc);
    }
  }
  const labels: Outlines['labels'] = [];
  for (const { feature, name } of detailed.values()) {
    let biggest: ReturnType<typeof centroid> | undefined;
    for (const ring of outerRings(feature)) {
      const enc = encode(ring);
      if (enc) rings.push(enc);
      const c = centroid(ring);
      if (!biggest || c.area > biggest.area) biggest = c;
    }
    if (biggest) labels.push({ name, lat: round2(biggest.lat), lng: round2(biggest.lng) });
  }
  return { scale: SCALE, rings, labels };
}
