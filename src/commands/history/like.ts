/**
 * `geo history --like IMG [--distance BITS]`: stored results whose image is a near-duplicate of
 * IMG (a re-encode, a resize, a stripped copy): their PDQ hashes lie within BITS of IMG's, nearest
 * first. One look-up in the store's index (store/pdq-index.ts), not a scan. Results stored before
 * geo hashed images get their hash first, from their files (batch/perceptual.ts).
 */
import type { Ctx } from '../../context.js';
import { UsageError } from '../../errors.js';
import { wholeNumber } from '../../flags.js';
import { expandSamples } from '../../files/samples.js';
import { LIKE_DISTANCE, MIN_QUALITY } from '../../image/pdq.js';
import { hashStoredImages, inputPdq } from '../../batch/perceptual.js';
import { MAX_LIKE_DISTANCE } from '../../store/pdq-index.js';
import type { NearResult, StoreApi } from '../../store/index.js';
import type { HistoryRow } from '../../output/views/history.js';
import { historyRow } from './rows.js';
import { copyMarks } from './copies.js';

export interface LikeOptions {
  like: string;
  distance?: unknown;
  limit: number;
}

export interface Liked {
  rows: HistoryRow[];
  total: number;
  /** The image asked about: its sha256, hash, quality, and the distance used. */
  query: { sha256: string; pdq: string; quality: number; distance: number };
}

export function parseDistance(v: unknown): number {
  return wholeNumber(v, '--distance', 0, MAX_LIKE_DISTANCE, `bits of 256; ${LIKE_DISTANCE} (the default) finds re-encoded, resized and stripped copies`) ?? LIKE_DISTANCE;
}

/** Stored results as history rows with their distance, who paid for each filled in. */
export async function likeRows(store: StoreApi, found: readonly NearResult[]): Promise<HistoryRow[]> {
  const paid = await store.paidBy(found.map((n) => n.row.id));
  const copies = await copyMarks(store, found.map((n) => n.row.id));
  return found.map((n) => {
    const copy = copies.get(n.row.id);
    return { ...historyRow(n.row), paid_by: paid.get(n.row.id) ?? null, distance: n.distance, ...(copy ? { copy_of: copy } : {}) };
  });
}

export async function runHistoryLike(ctx: Pick<Ctx, 'storeApi' | 'io' | 'animate' | 'accessible' | 'now' | 'globals'>, o: LikeOptions): Promise<Liked> {
  const distance = parseDistance(o.distance);
  if (o.like.trim() === '') throw new UsageError('--like needs an image', 'geo history --like photo.jpg');
  // sample:NAME names the photo shipped with geo, as it does for locate.
  const named = o.like.startsWith('sample:') ? expandSamples([o.like]) : [o.like];
  if (named.length !== 1) throw new UsageError(`--like takes one image, and ${o.like} names ${named.length}`, 'name one sample: sample:paris');
  const { sha256, pdq } = await inputPdq(named[0]!, ctx.io.stdin, () => ctx.storeApi());
  const store = await ctx.storeApi();
  await hashStoredImages(ctx, store);
  const found = await store.perceptual.near(pdq.hash, distance, o.limit);
  return { rows: await likeRows(store, found.rows), total: found.total, query: { sha256, pdq: pdq.hash, quality: pdq.quality, distance } };
}

/** What to say about the image asked about, when its hash is too featureless to trust. */
export function lowQualityLine(q: Liked['query'], name: string): string | undefined {
  return q.quality < MIN_QUALITY ? `${name} has little detail (PDQ quality ${q.quality} of 100, below ${MIN_QUALITY}): unrelated flat images may lie as near as its copies` : undefined;
}
