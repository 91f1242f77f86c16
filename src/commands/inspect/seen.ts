/**
 * `geo inspect`'s "seen before": stored results whose image is a near-duplicate of the file
 * inspected (a copy re-encoded, resized or stripped, or the same bytes), the nearest few. One
 * look-up in the store's index per file (store/pdq-index.ts), after older results got their hash
 * (batch/perceptual.ts). Nothing is sent. A store that cannot be read leaves it out, with a line:
 * inspecting a file never depends on the store.
 */
import type { Ctx } from '../../context.js';
import { StoreError } from '../../errors.js';
import { LIKE_DISTANCE } from '../../image/pdq.js';
import { hashStoredImages } from '../../batch/perceptual.js';
import type { InspectRecord } from './run.js';

/** How many near-duplicates a file's entry lists. */
export const SEEN_SHOWN = 3;

export async function addSeenBefore(ctx: Pick<Ctx, 'storeApi' | 'io' | 'animate' | 'accessible' | 'now' | 'globals'>, records: InspectRecord[], warn: (line: string) => void): Promise<void> {
  const hashed = records.filter((r) => r.ok && r.perceptual);
  if (hashed.length === 0) return;
  try {
    const store = await ctx.storeApi();
    await hashStoredImages(ctx, store);
    for (const r of hashed) {
      if (!r.ok || !r.perceptual) continue;
      const { rows } = await store.perceptual.near(r.perceptual.pdq, LIKE_DISTANCE, SEEN_SHOWN);
      r.seen_before = rows.map(({ row, distance }) => ({
        distance, stored_at: row.stored_at, input: row.input_path, sha256: row.sha256 ?? '', analysis_id: row.analysis_id,
        city: row.city ?? '', country: row.country ?? '', latitude: row.latitude, longitude: row.longitude, sandbox: row.sandbox === 1,
      }));
    }
  } catch (err) {
    if (!(err instanceof StoreError)) throw err;
    warn(`not compared with stored results (seen before): ${err.message}`);
  }
}
