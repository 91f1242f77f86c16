/**
 * Claim checks (DESIGN.md "src/claims/": rules from evidence to a verdict). The shapes
 * every part shares: a claim (an image and where someone says it was taken), the evidence laid out
 * for it, and the verdict with the rule that fired.
 */

export type Verdict = 'agrees' | 'contradicts' | 'unverifiable';
export const VERDICTS: readonly Verdict[] = ['agrees', 'contradicts', 'unverifiable'];

/** Where the claim says the photo was taken. */
export interface ClaimPlace {
  /** As written: "Kharkiv, UA" or "49.99,36.23". */
  text: string;
  lat: number;
  lng: number;
  /** The offline index's name for a place ("Kharkiv, Kharkiv, UA"); null for coordinates. */
  place: string | null;
}

/** Where a claim was written: a claims file's row (and line), or an argument (row null). */
export interface ClaimSource {
  /** The data row of a claims file (1 = the first row under the header), or null for an image named on the command line. */
  row: number | null;
  /** The claims file as named, and the row's line in it. */
  file?: string;
  line?: number;
}

export interface Claim extends ClaimSource {
  /** The image as named (the file's cell, or the argument). */
  input: string;
  /** Absolute path of the image. */
  path: string;
  at: ClaimPlace;
  /** The tolerance: how far from `at` still counts as "there". */
  toleranceKm: number;
  /** Where the tolerance came from: "--within", "the row's within", a place's extent, "a point". */
  toleranceBasis: string;
  /** The claimed capture time (sent as scope.captured_at with --scoped). */
  capturedAt?: string;
}

/** A row that cannot be checked: named, nothing sent for it. */
export interface ClaimProblem extends ClaimSource {
  input: string;
  message: string;
  hint?: string;
}

/** One of the service's alternatives (depth 3), measured from the claim. */
export interface CandidateEvidence {
  label: string;
  lat: number;
  lng: number;
  /** 0-100, as the API sends it (api-spec.md "Note the scales"). */
  confidencePct: number | null;
  distanceKm: number;
}

/** The image's own EXIF GPS (read from the original before stripping): a witness that can be forged. */
export interface ExifWitness {
  lat: number;
  lng: number;
  distanceKm: number;
  /** True when the service never saw it (geo removed it before upload). */
  independent?: boolean;
}

/** What the request with the claim as its scope said (--scoped). */
export interface ScopedEvidence {
  /** The answer's scope_consistent (null: the field was missing or the request failed). */
  scopeConsistent: boolean | null;
  /** The hard evidence its reasoning names when it overrode the scope (hard-evidence.ts), or null. */
  hardEvidence: string | null;
  /** Why there is no scoped answer (the request failed), else absent. */
  error?: string;
}

export interface ClaimEvidence {
  toleranceKm: number;
  /** The depth the answer reports. */
  depth: number | null;
  /** The leading estimate; null when the image was not located. */
  estimate: { lat: number; lng: number; confidence: number; distanceKm: number; place: string } | null;
  precisionTier: string | null;
  /** How finely the answer resolves a place (km), from its tier or depth (rules.ts). */
  resolutionKm: number;
  /** Depth-3 candidates, nearest to the claim first; empty when there are none. */
  candidates: CandidateEvidence[];
  /** The EXIF GPS of the original file, or null when it had none. */
  exif: ExifWitness | null;
  /** none | stripped | unreadable | gps: what the file said about its own position. */
  exifStatus: 'gps' | 'none' | 'stripped' | 'unreadable';
  scoped: ScopedEvidence | null;
  /** The depth-3 calibration's advice (eval/advice.ts), or null. */
  serviceAdvice: 'publish' | 'abstain' | null;
  /** Why the image was not located (estimate null). */
  error?: { code: string; message: string };
}

/** The verdict, the rule that fired and why, in plain words with the numbers. */
export interface Judgement {
  verdict: Verdict;
  rule: string;
  reason: string;
}

/** "claims.csv row 3 (line 4)", or the image as named for an argument. */
export function whereOf(c: ClaimSource & { input: string }): string {
  return c.file !== undefined && c.row !== null ? `${c.file} row ${c.row}${c.line !== undefined ? ` (line ${c.line})` : ''}` : c.input;
}
