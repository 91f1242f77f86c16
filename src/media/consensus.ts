/**
 * One location from many answers: the frames of a video, or photos of one scene located
 * together. Pure: answers in, clusters out, so every figure can be worked out by hand.
 *
 * 1. Votes. Each answer has one vote in all, shared among its own points: the leading estimate and,
 *    at depth 3, its candidates in their rank order (by the candidate's own confidence when given).
 *    The point of rank r (0 = lead) gets 1/(r+1), normalised so the answer's votes sum to 1: a lead
 *    alone weighs 1; a lead with two candidates 6/11, 3/11, 2/11. Confidence is compared only within
 *    an answer (which of its own points it prefers), never raw across frames: scores of different
 *    images are not on one scale.
 * 2. Clusters. Votes within `agreeKm` of each other (great-circle) are linked, and a cluster is a
 *    connected group: DBSCAN with a minimum of one point, so no vote is noise and no place is
 *    averaged away (a compilation of two places shows two clusters).
 * 3. Each cluster's point is the weighted geometric median of its votes on the sphere (median.ts).
 *    Its frames are those whose leading estimate lies in it (they agree: k of n); its support is its
 *    votes' weight, in frames; its spread the distance from its point to the farthest agreeing
 *    frame's estimate; its time ranges the stretches of the clip its agreeing frames stand for.
 * 4. Clusters rank by support, then by agreeing frames, then by the earliest frame. The first is
 *    the consensus.
 */
import { haversineKm, latitudeSpanDeg } from '../places/distance.js';
import { geometricMedian } from './median.js';

export interface Point {
  lat: number;
  lng: number;
}

export interface Answer {
  /** The frame's index in the video (or the photo's in the set). */
  index: number;
  lead: Point;
  /** Depth-3 candidates as the answer lists them; `confidence` (any scale) orders them when given. */
  candidates?: ReadonlyArray<Point & { confidence?: number }>;
  /** The stretches of the clip, in ms [from, to), this frame stands for (none for photos). */
  spans?: ReadonlyArray<readonly [number, number]>;
}

export interface Vote extends Point {
  frame: number;
  /** 0 for the leading estimate, 1.. for candidates. */
  rank: number;
  weight: number;
}

export interface Cluster extends Point {
  /** Frames whose leading estimate lies in the cluster, in index order. */
  frames: number[];
  /** Every frame with a vote in the cluster, candidates included. */
  voters: number[];
  /** The weight of its votes, in frames (all clusters together hold n). */
  support: number;
  /** km from the point to the farthest agreeing estimate (to the farthest vote when none agrees). */
  spreadKm: number;
  /** Merged [from, to) ms of the agreeing frames' spans. */
  timeRanges: Array<[number, number]>;
}

export interface Consensus {
  /** Answers counted (frames answered with a location). */
  n: number;
  agreeKm: number;
  /** Ranked; clusters[0] is the consensus. */
  clusters: Cluster[];
}

/** One answer's votes: rank r weighs 1/(r+1), normalised to 1 per answer. */
export function votesOf(a: Answer): Vote[] {
  const cands = (a.candidates ?? [])
    .map((c, i) => ({ c, i }))
    .sort((x, y) => (y.c.confidence ?? 0) - (x.c.confidence ?? 0) || x.i - y.i)
    .map((x) => x.c);
  const points = [a.lead, ...cands];
  const total = points.reduce((s, _, r) => s + 1 / (r + 1), 0);
  return points.map((p, r) => ({ lat: p.lat, lng: p.lng, frame: a.index, rank: r, weight: 1 / (r + 1) / total }));
}

/** Connected groups of votes linked within eps km (single linkage), in order of first vote. */
export function linkVotes(votes: readonly Vote[], epsKm: number): Vote[][] {
  const parent = votes.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  // Pairs are tried in order of latitude, each only against the votes within eps of its latitude:
  // a video's few hundred votes were every pair (~9 ms of `geo history` in a short-lived process,
  // bench/store.mjs). The groups are the same whatever order the links are made in.
  const byLat = votes.map((_, i) => i).sort((x, y) => votes[x]!.lat - votes[y]!.lat);
  const span = latitudeSpanDeg(epsKm);
  for (let x = 0; x < byLat.length; x++) {
    const a = votes[byLat[x]!]!;
    for (let y = x + 1; y < byLat.length; y++) {
      const b = votes[byLat[y]!]!;
      if (b.lat - a.lat > span) break;
      if (haversineKm(a.lat, a.lng, b.lat, b.lng) <= epsKm) parent[find(byLat[y]!)] = find(byLat[x]!);
    }
  }
  const groups = new Map<number, Vote[]>();
  votes.forEach((v, i) => {
    const root = find(i);
    const g = groups.get(root);
    if (g) g.push(v);
    else groups.set(root, [v]);
  });
  return [...groups.values()];
}

/** Sorted, overlapping or touching ranges merged. */
export function mergeRanges(ranges: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const [from, to] of [...ranges].sort((a, b) => a[0] - b[0] || a[1] - b[1])) {
    const last = out[out.length - 1];
    if (last && from <= last[1]) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

function clusterOf(votes: readonly Vote[], answers: ReadonlyMap<number, Answer>): Cluster {
  const centre = geometricMedian(votes.map((v) => ({ lat: v.lat, lng: v.lng, weight: v.weight })))!;
  const leads = votes.filter((v) => v.rank === 0);
  const frames = [...new Set(leads.map((v) => v.frame))].sort((a, b) => a - b);
  const voters = [...new Set(votes.map((v) => v.frame))].sort((a, b) => a - b);
  const far = (leads.length > 0 ? leads : votes).reduce((m, v) => Math.max(m, haversineKm(centre.lat, centre.lng, v.lat, v.lng)), 0);
  const spans = frames.flatMap((f) => answers.get(f)?.spans ?? []);
  return { ...centre, frames, voters, support: votes.reduce((s, v) => s + v.weight, 0), spreadKm: far, timeRanges: mergeRanges(spans) };
}

export function consensus(answers: readonly Answer[], agreeKm: number): Consensus {
  const byIndex = new Map(answers.map((a) => [a.index, a]));
  const votes = answers.flatMap(votesOf);
  const clusters = linkVotes(votes, agreeKm).map((g) => clusterOf(g, byIndex));
  const first = (c: Cluster) => Math.min(...c.voters);
  clusters.sort((a, b) => (Math.abs(b.support - a.support) > 1e-9 ? b.support - a.support : b.frames.length - a.frames.length || first(a) - first(b)));
  return { n: answers.length, agreeKm, clusters };
}
