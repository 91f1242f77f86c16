/**
 * The weighted geometric median on the sphere: the point that minimises the weighted sum
 * of great-circle distances to the answers. Not a mean of latitudes and longitudes, which puts
 * frames at 179.9° and -179.9° on the Greenwich meridian; not the 3-D mean either, which one far
 * outlier drags as hard as it likes. The median is the robust centre: a point holding half the
 * weight is the median whatever the rest says.
 *
 * Method: Weiszfeld's iteration on the sphere (each step computed in the tangent plane at the
 * current estimate, through the logarithm and exponential maps of the sphere, so no projection
 * seam exists), with the Vardi-Zhang rule when the estimate sits on an answer: stay there when the
 * pull of the others is no more than that answer's own weight, else step off it.
 */
type Vec = readonly [number, number, number];
const rad = Math.PI / 180;

export interface WeightedPoint {
  lat: number;
  lng: number;
  weight: number;
}

export function toVec(lat: number, lng: number): Vec {
  const p = lat * rad;
  const l = lng * rad;
  return [Math.cos(p) * Math.cos(l), Math.cos(p) * Math.sin(l), Math.sin(p)];
}

/** Longitude in (-180, 180] (the antimeridian is 180, as the answers usually write it), latitude in [-90, 90]. */
export function toLatLng(v: Vec): { lat: number; lng: number } {
  const n = Math.hypot(v[0], v[1], v[2]);
  const lat = Math.asin(Math.max(-1, Math.min(1, v[2] / n))) / rad;
  const lng = Math.atan2(v[1], v[0]) / rad;
  return { lat, lng: lng <= -180 ? lng + 360 : lng };
}

const dot = (a: Vec, b: Vec) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec, b: Vec): Vec => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: Vec) => Math.hypot(a[0], a[1], a[2]);
const scale = (a: Vec, k: number): Vec => [a[0] * k, a[1] * k, a[2] * k];
const add = (a: Vec, b: Vec): Vec => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];

/** The tangent vector at x pointing to p, as long as the angle between them (the log map). */
function logMap(x: Vec, p: Vec): { v: Vec; angle: number } {
  const angle = Math.atan2(norm(cross(x, p)), dot(x, p));
  const along = add(p, scale(x, -dot(x, p)));
  const n = norm(along);
  return { v: n < 1e-300 ? [0, 0, 0] : scale(along, angle / n), angle };
}

/** The point reached from x along the tangent vector v (the exp map). */
function expMap(x: Vec, v: Vec): Vec {
  const t = norm(v);
  if (t < 1e-300) return x;
  const p = add(scale(x, Math.cos(t)), scale(v, Math.sin(t) / t));
  return scale(p, 1 / norm(p));
}

/** Two answers closer than this (about 6 mm) are the same point. */
const SAME = 1e-9;
const MAX_STEPS = 1000;

/** The weighted pull of the other points on x, and the weight sitting at x itself. */
function pullAt(x: Vec, pts: ReadonlyArray<{ v: Vec; w: number }>): { pull: Vec; sumW: number; here: number } {
  let pull: Vec = [0, 0, 0];
  let sumW = 0;
  let here = 0;
  for (const p of pts) {
    const { v, angle } = logMap(x, p.v);
    if (angle < SAME) here += p.w;
    else {
      pull = add(pull, scale(v, p.w / angle));
      sumW += p.w / angle;
    }
  }
  return { pull, sumW, here };
}

/** The weighted geometric median; undefined for no positive weight. */
export function geometricMedian(points: readonly WeightedPoint[]): { lat: number; lng: number } | undefined {
  const pts = points.filter((p) => p.weight > 0).map((p) => ({ v: toVec(p.lat, p.lng), w: p.weight }));
  if (pts.length === 0) return undefined;
  // An answer is the median when the others' unit pulls are weaker than its own weight (strictly:
  // two equal answers have every point between them as a median, and the midpoint is the fair one).
  for (const p of pts) {
    const { pull, here } = pullAt(p.v, pts);
    if (norm(pull) < here - 1e-12) return toLatLng(p.v);
  }
  // Otherwise Weiszfeld from the normalised mean of the vectors (the heaviest answer when they cancel).
  const sum = pts.reduce<Vec>((s, p) => add(s, scale(p.v, p.w)), [0, 0, 0]);
  let x: Vec = norm(sum) > 1e-9 ? scale(sum, 1 / norm(sum)) : pts.reduce((a, b) => (b.w > a.w ? b : a)).v;
  for (let step = 0; step < MAX_STEPS; step++) {
    const { pull, sumW, here } = pullAt(x, pts);
    const r = norm(pull);
    // Vardi-Zhang: on an answer whose weight outweighs the others' pull, stay.
    if (sumW === 0 || r <= here) break;
    const move = scale(pull, (1 / sumW) * Math.max(0, 1 - here / r));
    x = expMap(x, move);
    if (norm(move) < 1e-13) break;
  }
  return toLatLng(x);
}
