/**
 * Which frames of a clip are sent, pure so tests can work it out by hand. ffmpeg's pass
 * over the clip (frames.ts) proposes candidates: the first frame, every scene change (its scene
 * score above --scene) and, when no frame was taken for --every seconds, the frame then (a long
 * take has no cuts). Here:
 * 1. near-duplicates are dropped: a candidate whose perceptual hash (a 64-bit difference hash of a
 *    9×8 grey thumbnail) is within DUPLICATE_BITS of a frame already kept (a shot the clip cuts
 *    back to, a static scene) adds nothing but cost;
 * 2. when more than --max-frames remain, the cap keeps those nearest to evenly spaced times
 *    (0, d/N, 2d/N, … for N frames over duration d; ties to the earlier), so the frames spread over
 *    the whole clip rather than bunching at its start.
 * Each candidate also stands for a stretch of the clip, up to the next candidate: a kept frame for
 * its own; a duplicate for its original's frame; a frame the cap dropped for the frame before it
 * when it was an interval frame (no cut between them: the same shot), for nothing when it was a cut.
 * Those stretches are the time ranges a cluster covers (consensus.ts).
 */
import { hamming } from '../image/pdq.js';

export type Why = 'first' | 'cut' | 'interval';

export interface Candidate {
  /** The frame's pts in the stream's time base (what the extraction selects on). */
  pts: number;
  /** From the first frame, in ms. */
  tMs: number;
  /** 16 hex digits: the difference hash. */
  hash: string;
  why: Why;
}

export interface Chosen extends Candidate {
  /** 0.. in time order: the frame's number in every output. */
  index: number;
}

export interface Dropped {
  tMs: number;
  why: 'duplicate' | 'cap';
  /** For a duplicate: the index of the kept frame it repeats (when that frame was sent). */
  of?: number;
}

export interface Choice {
  frames: Chosen[];
  dropped: Dropped[];
  /** Frame index -> the [from, to) ms it stands for. */
  spans: Map<number, Array<[number, number]>>;
}

/** Hashes this close (of 64 bits) are the same picture: re-encoding and a moving watermark stay below it. */
export const DUPLICATE_BITS = 6;

/** 64-bit difference hash of a 9×8 grey thumbnail (row-major, 72 bytes): bit = left < right. */
export function differenceHash(grey: Uint8Array): string {
  let bits = 0n;
  for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) bits = (bits << 1n) | (grey[y * 9 + x]! < grey[y * 9 + x + 1]! ? 1n : 0n);
  return bits.toString(16).padStart(16, '0');
}

/** Bits apart of two difference hashes: image/pdq.ts's hamming, which counts any two hex hashes of one length. */
export const hammingDistance = hamming;

/** The cap: nearest to N evenly spaced times, each target taking the nearest unused candidate. */
function spread<T extends { tMs: number }>(kept: readonly T[], max: number, durationMs: number): Set<T> {
  const picked = new Set<T>();
  for (let i = 0; i < max; i++) {
    const target = (i * durationMs) / max;
    let best: T | undefined;
    for (const c of kept) if (!picked.has(c) && (best === undefined || Math.abs(c.tMs - target) < Math.abs(best.tMs - target))) best = c;
    if (best) picked.add(best);
  }
  return picked;
}

export function chooseFrames(candidates: readonly Candidate[], opts: { maxFrames: number; durationMs: number; duplicateBits?: number }): Choice {
  const limit = opts.duplicateBits ?? DUPLICATE_BITS;
  const sorted = [...candidates].sort((a, b) => a.tMs - b.tMs);
  const kept: Candidate[] = [];
  const original = new Map<Candidate, Candidate>();
  for (const c of sorted) {
    const twin = kept.find((k) => hammingDistance(k.hash, c.hash) <= limit);
    if (twin) original.set(c, twin);
    else kept.push(c);
  }
  const sent = kept.length > opts.maxFrames ? spread(kept, opts.maxFrames, opts.durationMs) : new Set(kept);
  const frames = kept.filter((c) => sent.has(c)).map((c, index) => ({ ...c, index }));
  const indexOf = new Map<Candidate, number>(kept.filter((c) => sent.has(c)).map((c, i) => [c, i]));
  const owner = new Map<Candidate, number | undefined>();
  const dropped: Dropped[] = [];
  sorted.forEach((c, i) => {
    const twin = original.get(c);
    if (twin) {
      owner.set(c, owner.get(twin));
      const of = indexOf.get(twin);
      dropped.push({ tMs: c.tMs, why: 'duplicate', ...(of !== undefined ? { of } : {}) });
    } else if (indexOf.has(c)) owner.set(c, indexOf.get(c));
    else {
      owner.set(c, c.why === 'interval' && i > 0 ? owner.get(sorted[i - 1]!) : undefined);
      dropped.push({ tMs: c.tMs, why: 'cap' });
    }
  });
  const spans = new Map<number, Array<[number, number]>>();
  sorted.forEach((c, i) => {
    const o = owner.get(c);
    if (o === undefined) return;
    const to = i + 1 < sorted.length ? sorted[i + 1]!.tMs : opts.durationMs;
    if (to > c.tMs) spans.set(o, [...(spans.get(o) ?? []), [c.tMs, to]]);
  });
  return { frames, dropped, spans };
}
