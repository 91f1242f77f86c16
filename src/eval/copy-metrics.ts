/**
 * How well a perceptual hash tells copies from distinct pictures, on a set of copies (copy-set.ts)
 * already hashed: per kind of copy, the share found within a distance (recall) and how often a copy
 * lies that close to another original (false matches); over every pair of distinct originals, how
 * often two lie that close; and the threshold the rule below chooses. Every figure comes from
 * histograms of Hamming distances (0-256 bits), so the ~500,000 pairs of 1,000 originals and the
 * million cross pairs of each kind cost a popcount each on eight 32-bit words, nothing more.
 *
 * A percentile here is the smallest distance at or below which that share of the pairs lie.
 */
import { INDEX_BAND, MIN_QUALITY, PDQ_BITS } from '../image/pdq.js';

/**
 * The rule: the least distance at which the re-encodings, resizes and stripped copies, taken
 * together, are found at least 95% of the time, with at most 1 false match in 10,000 distinct
 * pairs; then taken up to the end of its band of the index (image/pdq.ts INDEX_BAND: a look-up
 * costs the same anywhere in a band, so the band's whole reach finds more for nothing).
 */
export const MAX_FALSE_MATCH_RATE = 1e-4;
export const MIN_RECALL = 0.95;
/** Those kinds, by folder name (the names fixtures/make-copies.js gives). */
export const REQUIRED_KIND = /^(jpeg-q\d+|webp|resize-\d+|stripped)$/;
/** The figures at every distance up to this one go into --json (beyond, distinct pictures). */
const CURVE_BITS = 96;

export interface CopyHashes {
  originals: Array<{ name: string; hash: string | null; quality: number | null }>;
  kinds: Array<{ kind: string; copies: Array<{ original: number; name: string; hash: string | null }> }>;
}

export interface AtDistance {
  bits: number;
  /** Distinct pairs of originals this close, and their share. */
  false_matches: number;
  false_match_rate: number;
  /** The least recall among the required kinds (null when the set has none of them). */
  required_recall: number | null;
}

export interface KindFigures {
  kind: string;
  required: boolean;
  copies: number;
  /** Copies that could not be hashed: counted as missed. */
  unreadable: number;
  found: number;
  recall: number;
  /** Copies this close to another original (not their own), of cross_pairs. */
  false_matches: number;
  cross_pairs: number;
  distance: { p50: number | null; p90: number | null; p95: number | null; p99: number | null; max: number | null };
  /** The copies farthest from their original: what the threshold misses first. */
  farthest: Array<{ name: string; bits: number }>;
}

export interface CopyEvalReport {
  hash: 'pdq';
  originals: number;
  /** Originals hashed (the others are left out with their copies) and those of PDQ quality under 50. */
  hashed: number;
  low_quality: number;
  rule: { max_false_match_rate: number; min_recall: number; required_kinds: string[] };
  /** The distance the rule chooses, with the share of the required copies it finds taken together (null: none meets it). */
  threshold: (AtDistance & { together: number; met: boolean | null }) | null;
  /** The least distance at which every required kind reaches MIN_RECALL: fewer false matches, if the rule's maximum is not wanted. */
  least_for_recall: AtDistance | null;
  /** geo's default for `history --like`, at the same figures. */
  default: AtDistance;
  kinds: KindFigures[];
  distinct: { pairs: number; distance: { min: number | null; p0_01: number | null; p0_1: number | null; p1: number | null; p5: number | null; p50: number | null }; nearest: Array<{ a: string; b: string; bits: number }> };
  curve: Array<{ bits: number; false_match_rate: number; recall: Record<string, number> }>;
}

const WORDS = PDQ_BITS / 32;

function pop32(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Hex hashes as 32-bit words, WORDS per hash, one flat array. */
function wordsOf(hashes: readonly string[]): Uint32Array {
  const out = new Uint32Array(hashes.length * WORDS);
  hashes.forEach((h, i) => {
    for (let k = 0; k < WORDS; k++) out[i * WORDS + k] = parseInt(h.slice(k * 8, k * 8 + 8), 16) >>> 0;
  });
  return out;
}

function distance(a: Uint32Array, i: number, b: Uint32Array, j: number): number {
  let d = 0;
  for (let k = 0; k < WORDS; k++) d += pop32(a[i * WORDS + k]! ^ b[j * WORDS + k]!);
  return d;
}

/** Counts at or below each distance. */
function cumulative(h: Float64Array): Float64Array {
  const c = new Float64Array(h.length);
  h.forEach((n, d) => (c[d] = n + (d > 0 ? c[d - 1]! : 0)));
  return c;
}

function percentile(cum: Float64Array, q: number): number | null {
  const total = cum[cum.length - 1]!;
  if (total === 0) return null;
  const want = Math.max(1, Math.ceil(q * total));
  return cum.findIndex((n) => n >= want);
}

export function copyReport(input: CopyHashes, defaultBits: number): CopyEvalReport {
  const kept = input.originals.flatMap((o, i) => (o.hash ? [{ ...o, hash: o.hash, i }] : []));
  const slot = new Map(kept.map((o, s) => [o.i, s]));
  const ow = wordsOf(kept.map((o) => o.hash));
  const n = kept.length;
  const pairHist = new Float64Array(PDQ_BITS + 1);
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) pairHist[distance(ow, i, ow, j)]!++;
  const pairs = (n * (n - 1)) / 2;
  const pairCum = cumulative(pairHist);
  const nearestCut = percentile(pairCum, Math.min(1, 10 / Math.max(1, pairs))) ?? 0;
  // Fewer than ten pairs lie below the cut; of those at it, ten at most are needed.
  const below: CopyEvalReport['distinct']['nearest'] = [];
  const atCut: CopyEvalReport['distinct']['nearest'] = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) {
    const d = distance(ow, i, ow, j);
    if (d < nearestCut || (d === nearestCut && atCut.length < 10)) (d < nearestCut ? below : atCut).push({ a: kept[i]!.name, b: kept[j]!.name, bits: d });
  }
  const nearest = [...below.sort((x, y) => x.bits - y.bits), ...atCut].slice(0, 10);

  const kinds = input.kinds.map((k) => {
    const copies = k.copies.filter((c) => slot.has(c.original));
    const own = new Float64Array(PDQ_BITS + 1);
    const cross = new Float64Array(PDQ_BITS + 1);
    const dists: Array<{ name: string; bits: number }> = [];
    const readable = copies.filter((c) => c.hash !== null);
    const cw = wordsOf(readable.map((c) => c.hash!));
    readable.forEach((c, ci) => {
      const mine = slot.get(c.original)!;
      for (let s = 0; s < n; s++) {
        const d = distance(cw, ci, ow, s);
        if (s === mine) {
          own[d]!++;
          dists.push({ name: c.name, bits: d });
        } else cross[d]!++;
      }
    });
    return { kind: k.kind, copies: copies.length, unreadable: copies.length - readable.length, own: cumulative(own), cross: cumulative(cross), crossPairs: readable.length * (n - 1), dists };
  });

  const required = kinds.filter((k) => REQUIRED_KIND.test(k.kind));
  const recallAt = (k: (typeof kinds)[number], bits: number) => (k.copies === 0 ? 0 : k.own[Math.min(bits, PDQ_BITS)]! / k.copies);
  const at = (bits: number): AtDistance => {
    const fm = pairCum[Math.min(bits, PDQ_BITS)]!;
    return { bits, false_matches: fm, false_match_rate: pairs === 0 ? 0 : fm / pairs, required_recall: required.length === 0 ? null : Math.min(...required.map((k) => recallAt(k, bits))) };
  };
  const budget = MAX_FALSE_MATCH_RATE * pairs;
  // Together: every required copy counts once, whichever kind it is.
  const together = (bits: number) => {
    const all = required.reduce((a, k) => a + k.copies, 0);
    return all === 0 ? 0 : required.reduce((a, k) => a + k.own[Math.min(bits, PDQ_BITS)]!, 0) / all;
  };
  let best = -1;
  for (let d = 0; d <= PDQ_BITS && best < 0; d++) if (pairCum[d]! <= budget && together(d) >= MIN_RECALL) best = d;
  if (best >= 0) {
    const band = Math.min(PDQ_BITS, (Math.floor(best / INDEX_BAND) + 1) * INDEX_BAND - 1);
    while (best < band && pairCum[best + 1]! <= budget) best++;
  }
  const threshold = best < 0 ? null : { ...at(best), together: together(best), met: true };
  const judged = best < 0 ? defaultBits : best;
  let least = -1;
  for (let d = PDQ_BITS; d >= 0 && required.length > 0 && at(d).required_recall! >= MIN_RECALL; d--) least = d;

  return {
    hash: 'pdq',
    originals: input.originals.length,
    hashed: n,
    low_quality: kept.filter((o) => o.quality !== null && o.quality < MIN_QUALITY).length,
    rule: { max_false_match_rate: MAX_FALSE_MATCH_RATE, min_recall: MIN_RECALL, required_kinds: required.map((k) => k.kind) },
    threshold,
    least_for_recall: least < 0 ? null : at(least),
    default: at(defaultBits),
    kinds: kinds.map((k) => ({
      kind: k.kind,
      required: required.includes(k),
      copies: k.copies,
      unreadable: k.unreadable,
      found: k.own[judged]!,
      recall: recallAt(k, judged),
      false_matches: k.cross[judged]!,
      cross_pairs: k.crossPairs,
      distance: { p50: percentile(k.own, 0.5), p90: percentile(k.own, 0.9), p95: percentile(k.own, 0.95), p99: percentile(k.own, 0.99), max: percentile(k.own, 1) },
      farthest: k.dists.sort((x, y) => y.bits - x.bits).slice(0, 5),
    })),
    distinct: {
      pairs,
      distance: { min: percentile(pairCum, 0), p0_01: percentile(pairCum, 1e-4), p0_1: percentile(pairCum, 1e-3), p1: percentile(pairCum, 0.01), p5: percentile(pairCum, 0.05), p50: percentile(pairCum, 0.5) },
      nearest,
    },
    curve: Array.from({ length: CURVE_BITS + 1 }, (_, bits) => ({ bits, false_match_rate: pairs === 0 ? 0 : pairCum[bits]! / pairs, recall: Object.fromEntries(kinds.map((k) => [k.kind, recallAt(k, bits)])) })),
  };
}
