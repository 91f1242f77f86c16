/**
 * An area a place ruled out covers, from a GeoJSON file (RFC 7946): a Polygon or a MultiPolygon,
 * bare or as the geometry of a Feature, or of the one Feature of a FeatureCollection. Anything else
 * (a point, a line, several features, rings that do not close, positions off the Earth) is a
 * problem naming why: an area that is not one would be drawn and reported as if it were.
 */
import type { Geometry } from './investigation-events.js';

type Position = [number, number];
type Area = Extract<Geometry, { type: 'Polygon' | 'MultiPolygon' }>;

export class AreaProblem extends Error {}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** [lng, lat] (an altitude after them is dropped: an area is drawn on the map). */
function position(v: unknown, where: string): Position {
  if (!Array.isArray(v) || v.length < 2 || typeof v[0] !== 'number' || typeof v[1] !== 'number' || !Number.isFinite(v[0]) || !Number.isFinite(v[1])) {
    throw new AreaProblem(`${where} is not a position [longitude, latitude]`);
  }
  const [lng, lat] = v as number[];
  if (Math.abs(lng!) > 180 || Math.abs(lat!) > 90) throw new AreaProblem(`${where} [${lng}, ${lat}] is off the Earth (longitude first, then latitude, in degrees)`);
  return [lng!, lat!];
}

function ring(v: unknown, where: string): Position[] {
  if (!Array.isArray(v) || v.length < 4) throw new AreaProblem(`${where} is not a linear ring (four positions or more, the last one the first)`);
  const ps = v.map((p, i) => position(p, `${where}, position ${i + 1},`));
  const [a, z] = [ps[0]!, ps.at(-1)!];
  if (a[0] !== z[0] || a[1] !== z[1]) throw new AreaProblem(`${where} does not close: its last position is not its first`);
  return ps;
}

function polygon(v: unknown, where: string): Position[][] {
  if (!Array.isArray(v) || v.length === 0) throw new AreaProblem(`${where} has no rings`);
  return v.map((r, i) => ring(r, `${where} ring ${i + 1}`));
}

/** The geometry a document carries, whatever wraps it (a Feature, a FeatureCollection of one). */
function geometryOf(doc: unknown): unknown {
  if (!isObj(doc)) return doc;
  if (doc.type === 'Feature') return doc.geometry;
  if (doc.type === 'FeatureCollection') {
    const fs = Array.isArray(doc.features) ? doc.features : [];
    if (fs.length !== 1) throw new AreaProblem(`a FeatureCollection of ${fs.length} features: one area is ruled out at a time`);
    return isObj(fs[0]) ? fs[0].geometry : undefined;
  }
  return doc;
}

/** The area in GeoJSON text; throws AreaProblem when it is not a polygon or multipolygon. */
export function readArea(text: string): Area {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new AreaProblem(`not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  const found = geometryOf(doc);
  const g = isObj(found) ? found : {};
  const type = g.type;
  if (type === 'Polygon') return { type, coordinates: polygon(g.coordinates, 'the polygon') };
  if (type === 'MultiPolygon') {
    const cs = g.coordinates;
    if (!Array.isArray(cs) || cs.length === 0) throw new AreaProblem('the multipolygon has no polygons');
    return { type, coordinates: cs.map((p, i) => polygon(p, `polygon ${i + 1}`)) };
  }
  throw new AreaProblem(`a GeoJSON ${typeof type === 'string' ? JSON.stringify(type) : 'document without a geometry type'}, not a Polygon or MultiPolygon`);
}
