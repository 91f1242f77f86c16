/**
 * Perceptual hashes (PDQ, image/pdq.ts) of the images results were paid for, kept once per image
 * sha256 (the same bytes always hash alike; several results of one image share it), with the
 * near-duplicate index over them (pdq-index.ts). A result has its hash through its image's
 * sha256. Never the image itself.
 */
import type { ResultRow } from './result-rows.js';

export interface Perceptual {
  /** 64 hex digits. */
  pdq: string;
  /** PDQ's quality, 0-100 (below 50: too featureless to match on). */
  quality: number;
}

/** A stored result whose image lies within the distance asked. */
export interface NearResult {
  row: ResultRow;
  /** Bits between the query's hash and this result's image's. */
  distance: number;
  perceptual: Perceptual;
}

/** A listed result past the scan mark: where its file was read from, and whether its image has a hash. */
export interface ScannedResult {
  id: number;
  sha256: string;
  input_path: string;
  hashed: boolean;
}

export interface PerceptualApi {
  /** Keeps an image's hash and files it in the index (a second put of one sha256 changes nothing). */
  put(sha256: string, p: Perceptual): Promise<void>;
  get(sha256: string): Promise<Perceptual | undefined>;
  /** Listed results whose image lies within `distance` bits (at most MAX_LIKE_DISTANCE): nearest first, then newest; at most `limit`, and how many there are. */
  near(pdq: string, distance: number, limit: number): Promise<{ rows: NearResult[]; total: number }>;
  /**
   * Listed results with a sha256 stored after the scan mark (scanned()): at most `limit`, oldest
   * first, after `after` when given. Paths mean nothing on another machine, so on a team store
   * only this host's results, and each host has its own mark.
   */
  afterMark(limit: number, after?: number): Promise<ScannedResult[]>;
  /** How many of their images have no hash (for a progress line). */
  unhashedCount(): Promise<number>;
  /** Every result up to `through` (a result id) has been looked at: afterMark() starts after it. */
  scanned(through: number): Promise<void>;
}
