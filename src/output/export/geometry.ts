/** Geodesic shapes for the exports: plain math, [lng, lat] order as GeoJSON and KML want. */
import { destination } from '../../places/distance.js';

export type LngLat = [number, number];

/** destination() from places/distance as [lng, lat], rounded to 1e-7 degrees (about 1 cm). */
function destinationLngLat(lat: number, lng: number, distanceKm: number, bearingDeg: number): LngLat {
  const p = destination(lat, lng, distanceKm, bearingDeg);
  return [round(p.lng), round(p.lat)];
}

const round = (n: number) => Math.round(n * 1e7) / 1e7;

/**
 * A circle as a closed ring of `sides` vertices (+1 closing), counter-clockwise as RFC 7946 §3.1.6
 * asks for exterior rings (and KML for outer boundaries). Bearings run clockwise, so walking them
 * backwards (360 → 0) goes counter-clockwise on the map. Longitudes are not wrapped: a circle
 * across the antimeridian keeps values past ±180 instead of a ring that jumps across the world.
 */
export function circleRing(lat: number, lng: number, radiusKm: number, sides = 64): LngLat[] {
  const ring: LngLat[] = [];
  for (let i = 0; i < sides; i++) ring.push(destinationLngLat(lat, lng, radiusKm, 360 - (i * 360) / sides));
  ring.push([ring[0]![0], ring[0]![1]]);
  return ring;
}

/** Shoelace area in degrees² (planar): positive means counter-clockwise. */
export function signedArea(ring: readonly LngLat[]): number {
  let s = 0;
  for (let i = 0; i + 1 < ring.length; i++) s += ring[i]![0] * ring[i + 1]![1] - ring[i + 1]![0] * ring[i]![1];
  return s / 2;
}
