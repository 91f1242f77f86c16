/**
 * Every input accounted: one record per input whatever became of it, and the summary
 * counts that add up to the inputs. Besides answers and per-image failures, a record says
 *  - `skipped`: found in a folder but unusable (empty, not an image, too large, unreadable);
 *    known before anything is sent, so its record comes first;
 *  - `in_flight`: sent when Ctrl-C came; the service may have finished and charged it, and
 *    resuming resends the same idempotency key, which the service replays free;
 *  - `not_sent`: never tried because the batch stopped.
 */
import type { BatchError, BatchRecord, BatchSummary } from './types.js';

export const IN_FLIGHT: BatchError = {
  code: 'in_flight',
  message: 'in flight when cancelled: may have been charged; resuming replays it free (same idempotency key)',
  final: false,
};

/** The record of an input skipped while loading; `input` as the folder walk named it. */
export function skippedRecord(s: { path: string; reason: string }): BatchRecord {
  return { input: s.path, sha256: null, ok: false, error: { code: 'skipped', message: s.reason }, exif: null };
}

export type RecordCounts = Pick<BatchSummary, 'ok' | 'failed' | 'notSent' | 'inFlight' | 'skipped'>;

/** ok + failed + notSent + inFlight + skipped = records; `into` is added to (a batch counts as it goes). */
export function countRecords(records: readonly BatchRecord[], into: RecordCounts = { ok: 0, failed: 0, notSent: 0, inFlight: 0, skipped: 0 }): RecordCounts {
  const c = into;
  for (const r of records) {
    if (r.ok) c.ok++;
    else if (r.error?.code === 'not_sent') c.notSent++;
    else if (r.error?.code === IN_FLIGHT.code) c.inFlight++;
    else if (r.error?.code === 'skipped') c.skipped++;
    else c.failed++;
  }
  return c;
}
