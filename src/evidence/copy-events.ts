/**
 * A copy of a photo already located (a re-encode, a resize, a stripped copy: its perceptual hash,
 * image/pdq.ts, lies within the distance of the earlier image's) is never another photo's answer
 * in disguise. Its answer is either its own (paid, and the result linked to the earlier one), or
 * the earlier result's, taken by choice (`geo locate --reuse-similar`) and said to be that at every
 * place it is shown: the record, the NDJSON line, the views and the exports carry `reused_similar`
 * and the one wording below. In a case the link is a custody entry of its own, copy_linked.
 */

/** The earlier result whose answer a copy took instead of paying: its row, its analysis id, the sha256 of its input, and the bits between the two images. */
export interface ReusedSimilar {
  result: number;
  analysis_id: string | null;
  sha256: string;
  distance: number;
}

/** A reused_similar read from a file (records are files anyone can edit): whole, or not at all. */
export function isReusedSimilar(v: unknown): v is ReusedSimilar {
  const r = v as Partial<ReusedSimilar> | null;
  return typeof r === 'object' && r !== null && Number.isInteger(r.result) && Number.isInteger(r.distance) && typeof r.sha256 === 'string' && (r.analysis_id === null || typeof r.analysis_id === 'string');
}

/** What a reused answer is not, word for word wherever it is shown. */
export const NOT_FOR_THESE_BYTES = "not the service's answer for these bytes";

/** "reused the answer of a.jpg (distance 6 bits): not the service's answer for these bytes". */
export function reusedSimilarLine(r: Pick<ReusedSimilar, 'distance' | 'result'>, input?: string): string {
  return `reused the answer of ${input || `result ${r.result}`} (distance ${r.distance} bit${r.distance === 1 ? '' : 's'}): ${NOT_FOR_THESE_BYTES}`;
}

/**
 * copy_linked's data: the copy (its input as read, sha256 and PDQ hash), the earlier image it is a
 * copy of (sha256, PDQ hash, the input its result names, that result's analysis id and the sha256
 * of its raw answer, as answer_received logged it), the bits between the two hashes, and whether
 * the copy's answer was the earlier one reused (`reused`) or its own, paid for (`paid`).
 */
export interface CopyLinked {
  copy: {
    input: { path: string; sha256: string; pdq: string };
    of: { sha256: string; pdq: string; input_path: string; analysis_id: string | null; answer_sha256: string };
    distance: number;
    answer: 'reused' | 'paid';
  };
}
