/**
 * The investigation's own custody entries (custody.ts): what the analyst saw, judged, ruled out and
 * concluded, and a colleague's review, in the same chain as the answers they rest on, so the part
 * of a case that carries its conclusion is verified like the rest. Every text is the analyst's
 * words as given; geometry is GeoJSON (RFC 7946: longitude first, WGS 84).
 *
 * A result is named in these entries by what custody already binds: its answer's sha256 and its
 * analysis id, as the case's result_linked entry has them. A clue by its stable id (clue-ids.ts):
 * `r<N>.<kind><M>`, N the result's place in the case (its result_linked order, from 1), M the
 * item's place in its list (from 1), kind one of clue (visual_clues), support and contra (the
 * forensic object's supports and contradictions) and cand (its candidates).
 */

/** A result an entry points at. */
export interface ResultRef {
  ref: string;
  answer_sha256: string;
  analysis_id: string | null;
}

/** A file kept with the case (the store's kept_files): a reference photo, a map screenshot. */
export interface ExhibitRef {
  name: string;
  sha256: string;
  size: number;
  media_type: string;
  /** Where it came from, as the analyst said it: a URL or words. */
  source: string;
}

/** The GeoJSON geometries an entry may carry. */
export type Geometry = { type: 'Point'; coordinates: [number, number] } | { type: 'Polygon'; coordinates: Array<Array<[number, number]>> } | { type: 'MultiPolygon'; coordinates: Array<Array<Array<[number, number]>>> };

/** Who wrote an entry when it was not the analyst at the keyboard: an agent through geo mcp. */
export interface AgentMark {
  agent: true;
  /** The MCP client's name and version, as it introduced itself. */
  client: string;
}

export interface InvestigationEvents {
  /** What is seen (observation) or supposed (hypothesis), and what it rests on. */
  note_made: {
    note: { kind: 'observation' | 'hypothesis'; text: string; results?: ResultRef[]; clues?: string[]; exhibits?: ExhibitRef[]; by?: AgentMark };
  };
  /**
   * A place ruled out and why. `geometry` is a Point with `within_km` (a circle) or the polygon of
   * an area file; `place` the words the analyst gave (a name) when they named it; `area` the
   * file's name and sha256 when it came from one.
   */
  place_ruled_out: {
    ruled_out: { because: string; geometry: Geometry; within_km?: number; place?: string; area?: { name: string; sha256: string } };
  };
  /**
   * The conclusion: where (a point and the radius of its uncertainty, in metres), how sure (a word,
   * not a number), why, and on which results. `supersedes`: the hash of the conclusion entry it
   * replaces (the latest before it), absent for the first; both stay in the log.
   */
  conclusion_made: {
    conclusion: { lat: number; lng: number; place?: string; within_m: number; confidence: 'confirmed' | 'probable' | 'possible'; because: string; results: ResultRef[]; supersedes?: string };
  };
  /** A clue judged: its id, the result it belongs to, what it said (as shown), accepted or rejected, and why. */
  clue_judged: {
    judgement: { clue: string; result: ResultRef; label: string; verdict: 'accepted' | 'rejected'; because: string };
  };
  /**
   * An annotated working copy of an original (never the original itself, which is unchanged):
   * what it was made from, how, and its own bytes as kept (kept_files). `result`: the result whose
   * clues were drawn; each box is a clue's id and its rectangle in whole pixels of the copy.
   */
  working_copy_made: {
    copy: {
      of: { sha256: string; input_path: string };
      result?: ResultRef;
      sha256: string; size: number; media_type: string;
      method: string;
      boxes: Array<{ clue: string; x: number; y: number; width: number; height: number }>;
    };
  };
  /**
   * A colleague's review of the case as it stood at entry `seq` (whose hash is `head`), signed with
   * the reviewer's own key over review-sign.ts's message. Any later entry of the investigation
   * (anything but signatures, stamps, files written, bundles and other reviews) makes it stale.
   */
  review_made: {
    review: { verdict: 'approve' | 'request_changes'; because: string; seq: number; head: string; sshsig: string; fingerprint: string; public_key: string; principal?: string };
  };
}

/** Entries that attest to the case without changing it: they never make a review stale. */
export const ATTESTATIONS: readonly string[] = ['head_signed', 'head_stamped', 'file_written', 'bundle_sealed', 'bundle_made', 'review_made'];
