/**
 * Links between results whose images are copies of one photo (their perceptual hashes lie within
 * the distance: perceptual-rows.ts): a result paid for a copy of a photo located before is linked
 * to that earlier result, and a copy whose answer was taken from it (geo locate --reuse-similar)
 * has a row of its own that points there instead of holding an answer (evidence/copy-events.ts).
 * One row per copy; `geo history show` and `--like` read them both ways.
 */

export interface CopyLink {
  /** The copy's result row: its own paid answer, or the row of a reuse. */
  result: number;
  /** The earlier result it is a copy of. */
  of_result: number;
  /** Bits between the two images' perceptual hashes. */
  distance: number;
  /** true: the earlier answer was taken instead of paying (the copy's row holds none). */
  reused: boolean;
  /** ISO-8601 UTC. */
  linked_at: string;
}

export interface CopyLinksApi {
  /** Records that `result` is a copy of `of_result` (a second link of one result changes nothing). */
  link(l: Omit<CopyLink, 'linked_at'>): Promise<void>;
  /** The links of these results as copies: result id -> its link. */
  of(ids: readonly number[]): Promise<Map<number, CopyLink>>;
  /** The copies linked to this result, oldest first. */
  copiesOf(id: number): Promise<CopyLink[]>;
  /** The listed row of a reuse already recorded for this image, account and earlier result (a rerun records none again). */
  reuseOf(sha256: string, ofResult: number, account: string): Promise<number | undefined>;
}
