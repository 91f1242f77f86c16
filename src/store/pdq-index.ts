/**
 * The near-duplicate index: multi-index hashing (Norouzi, Punjani and Fleet, "Fast search in
 * Hamming space with multi-index hashing", 2012) over PDQ's 256 bits, as one table of
 * (chunk, image) rows in either engine, under its primary key.
 *
 * The hash is cut into 16 chunks of 16 bits (four hex digits each). Two hashes within D bits
 * differ by at most floor(D / 16) bits in at least one chunk (pigeonhole: were every chunk
 * floor(D / 16) + 1 bits apart or more, the whole would be more than D apart). So a look-up probes,
 * for each chunk, every value within r = floor(D / 16) bits of the query's, gathers the images
 * filed under any of them, and keeps those whose exact distance is within D. Nothing is scanned.
 *
 * Why 16 x 16 bits with 1-bit neighbourhoods for the default distance (up to 31 bits), and not
 * 32 chunks of 8 bits probed exactly (the other layout that covers 31): measured on 1,000,000
 * random hashes in SQLite (bench/pdq-layouts.mjs, docs/internals/near-duplicates.md), 16 x 16
 * probes 272 keys and reads about 4,100 candidates (1,000,000 x 272 / 65,536) in 26 ms; 32 x 8
 * probes 32 keys but reads about 117,000 (1,000,000 x 32 / 256) in 241 ms, from twice the rows. Distances up to 47 probe
 * 2-bit neighbourhoods (2,192 keys), up to 63 3-bit ones (11,152 keys): slower, still no scan.
 * Further than 63 bits is not a copy (distinct photos lie about 128 apart) and is refused.
 *
 * A key is chunk number x 65,536 + the chunk's value: one integer column, one index.
 */
import { hamming } from '../image/pdq.js';
import type { NearResult, Perceptual } from './perceptual-rows.js';
import type { ResultRow } from './result-rows.js';

export const CHUNKS = 16;
const CHUNK_BITS = 16;
/** The furthest a look-up reaches (3-bit neighbourhoods of 16-bit chunks). */
export const MAX_LIKE_DISTANCE = 63;

/** The 16 keys a hash is filed under. */
export function chunkKeys(pdq: string): number[] {
  const keys: number[] = [];
  for (let i = 0; i < CHUNKS; i++) keys.push(i * 65536 + parseInt(pdq.slice(i * 4, i * 4 + 4), 16));
  return keys;
}

/** Every key a hash within `distance` bits of `pdq` is filed under at least once. */
export function probeKeys(pdq: string, distance: number): number[] {
  if (!Number.isInteger(distance) || distance < 0 || distance > MAX_LIKE_DISTANCE) throw new RangeError(`distance ${distance} is outside 0-${MAX_LIKE_DISTANCE}`);
  const radius = Math.floor(distance / CHUNKS);
  const flips = masksUpTo(radius);
  const keys: number[] = [];
  for (const [i, key] of chunkKeys(pdq).entries()) {
    const value = key - i * 65536;
    for (const m of flips) keys.push(i * 65536 + (value ^ m));
  }
  return keys;
}

/** Every 16-bit mask with at most `r` bits set (0 first). */
function masksUpTo(r: number): number[] {
  const out: number[] = [];
  for (let m = 0; m < 1 << CHUNK_BITS; m++) {
    let bits = 0;
    for (let v = m; v && bits <= r; v &= v - 1) bits++;
    if (bits <= r) out.push(m);
  }
  return out;
}

/** A candidate the index gave: an image and its hash. */
export interface Candidate {
  sha256: string;
  pdq: string;
  quality: number;
}

/** What an engine answers for a look-up: the images filed under any of the keys, and the listed results of some images. */
export interface NearSource {
  candidates(keys: readonly number[]): Promise<Candidate[]>;
  rowsOf(shas: readonly string[]): Promise<ResultRow[]>;
}

/** The listed results within `distance` bits of `pdq`: nearest first, then newest; at most `limit`. */
export async function nearResults(src: NearSource, pdq: string, distance: number, limit: number): Promise<{ rows: NearResult[]; total: number }> {
  const near = new Map<string, { distance: number; perceptual: Perceptual }>();
  for (const c of await src.candidates(probeKeys(pdq, distance))) {
    const d = hamming(c.pdq, pdq);
    if (d <= distance) near.set(c.sha256, { distance: d, perceptual: { pdq: c.pdq, quality: c.quality } });
  }
  const rows: NearResult[] = [];
  const shas = [...near.keys()];
  for (let i = 0; i < shas.length; i += 500) {
    for (const row of await src.rowsOf(shas.slice(i, i + 500))) rows.push({ row, ...near.get(row.sha256!)! });
  }
  rows.sort((a, b) => a.distance - b.distance || (a.row.stored_at < b.row.stored_at ? 1 : a.row.stored_at > b.row.stored_at ? -1 : b.row.id - a.row.id));
  return { rows: rows.slice(0, limit), total: rows.length };
}
