/**
 * The rules from evidence to a verdict, all in this one file. The README ("Claim
 * checks") and `geo claims check --help` repeat this table; change them together.
 *
 * A false accusation (a true claim called `contradicts`) is the worst error an analyst can make,
 * so the rules lean the other way: thin or low-confidence evidence is `unverifiable`, never
 * `agrees`; a contradiction needs a confident estimate far beyond the tolerance AND nothing the
 * service or the file itself says near the claim. The photo's EXIF GPS is a witness that can be
 * forged: it can hold a verdict back to `unverifiable`, it is named in every reason, and it is
 * never the ground for `agrees` or `contradicts`.
 *
 * Terms: T = the claim's tolerance (km); D = distance from the claim to the leading estimate;
 * R = the answer's resolution (its precision tier's km, else RESOLUTION_BY_DEPTH_KM);
 * M = the margin beyond T a contradiction needs = max(FAR_MARGIN_MIN_KM, FAR_MARGIN_RESOLUTIONS × R);
 * "near" = D <= T; "far" = D > T + M. The first rule that matches fires:
 *
 *   rule                 verdict       fires when
 *   not_located          unverifiable  the image got no answer with a location
 *   scope_overridden     contradicts   --scoped: the answer with the claim as its scope says
 *                                      scope_consistent false (hard evidence against it), the
 *                                      unscoped estimate is far with confidence >= 0.3, no
 *                                      candidate lies within T + M and no EXIF GPS within T + 5 km
 *   service_abstains     unverifiable  the depth-3 calibration says abstain
 *   witnesses_disagree   unverifiable  near with confidence >= 0.5, but the EXIF GPS lies beyond
 *                                      T + 5 km, or the scoped answer says scope_consistent false
 *   estimate_near        agrees        near with confidence >= 0.5
 *   estimate_near_unsure unverifiable  near, confidence below 0.5
 *   candidate_near       unverifiable  far with confidence >= 0.6, but a candidate within T + M
 *   exif_near            unverifiable  far with confidence >= 0.6, but the EXIF GPS within T + 5 km
 *   estimate_far         contradicts   far with confidence >= 0.6
 *   estimate_far_unsure  unverifiable  far, confidence below 0.6
 *   estimate_between     unverifiable  neither near nor far (T < D <= T + M)
 */
import { TIER_TOLERANCE_KM } from '../evidence/corroborate.js';
import type { ClaimEvidence, Judgement, Verdict } from './types.js';

/** Confidence (0-1) the leading estimate needs for `agrees`. */
export const AGREE_MIN_CONFIDENCE = 0.5;
/** Confidence a far estimate needs for `contradicts`. */
export const CONTRADICT_MIN_CONFIDENCE = 0.6;
/** Confidence a far estimate needs for `contradicts` when the scoped answer also overrode the claim. */
export const SCOPED_CONTRADICT_MIN_CONFIDENCE = 0.3;
/** The least margin beyond the tolerance before a distance can contradict (km). */
export const FAR_MARGIN_MIN_KM = 50;
/** The margin in resolutions of the answer: a region-level answer needs 2 × 200 km. */
export const FAR_MARGIN_RESOLUTIONS = 2;
/** How far beyond the tolerance an EXIF GPS may lie and still be "at" the claim (stale fixes, drift). */
export const EXIF_SLACK_KM = 5;
/**
 * An answer's resolution without a precision tier: depth 1 is "region level" (api-spec.md), so
 * 100 km; depth 2 says "block level" but states no tier, so a city's 25 km, as the EXIF check
 * assumes (evidence/corroborate.ts); depth 3 without a known tier likewise.
 */
export const RESOLUTION_BY_DEPTH_KM: Readonly<Record<number, number>> = { 1: 100, 2: 25, 3: 25 };

/** The answer's resolution in km: its precision tier's (corroborate.ts table), else its depth's. */
export function resolutionKm(precisionTier: string | null, depth: number | null): number {
  if (precisionTier && Object.hasOwn(TIER_TOLERANCE_KM, precisionTier)) return TIER_TOLERANCE_KM[precisionTier]!;
  return RESOLUTION_BY_DEPTH_KM[depth ?? 1] ?? RESOLUTION_BY_DEPTH_KM[1]!;
}

/** M: how far beyond the tolerance an estimate must be before it can contradict. */
export function farMarginKm(resolution: number): number {
  return Math.max(FAR_MARGIN_MIN_KM, FAR_MARGIN_RESOLUTIONS * resolution);
}

/** "0.4 km", "3.2 km", "1,240 km". */
export function kmText(km: number): string {
  if (km < 10) return `${km.toFixed(1)} km`;
  return `${Math.round(km).toLocaleString('en-US')} km`;
}
const conf = (c: number) => c.toFixed(2);

/** The EXIF witness in words, added to every reason that does not already turn on it. */
function exifNote(e: ClaimEvidence): string {
  const x = e.exif;
  if (!x) return '';
  return `; the file's own EXIF GPS is ${kmText(x.distanceKm)} from the claim (a witness that can be forged)`;
}

function scopedNote(e: ClaimEvidence): string {
  const s = e.scoped;
  if (!s || s.scopeConsistent !== false) return '';
  return `; with the claim as its scope the service said scope_consistent false${s.hardEvidence ? ` ("${s.hardEvidence}")` : ''}`;
}

export function judge(e: ClaimEvidence): Judgement {
  /** A reason with both witnesses named (EXIF, the scoped answer), or with only those it does not already turn on. */
  const say = (verdict: Verdict, rule: string, reason: string, skip: { exif?: boolean; scoped?: boolean } = {}): Judgement => ({
    verdict, rule, reason: reason + (skip.exif ? '' : exifNote(e)) + (skip.scoped ? '' : scopedNote(e)),
  });
  const est = e.estimate;
  if (!est) return say('unverifiable', 'not_located', `the image was not located${e.error ? ` (${e.error.code}: ${e.error.message})` : ''}`);
  const T = e.toleranceKm;
  const M = farMarginKm(e.resolutionKm);
  const D = est.distanceKm;
  const near = D <= T;
  const far = D > T + M;
  const nearCandidate = e.candidates.find((c) => c.distanceKm <= T + M);
  const exifNear = e.exif !== null && e.exif.distanceKm <= T + EXIF_SLACK_KM;
  const exifAway = e.exif !== null && !exifNear;
  const c = conf(est.confidence);
  const where = `the estimate is ${kmText(D)} from the claim`;
  const away = `the estimate is ${kmText(D)} away with confidence ${c}`;
  const noCandidate = e.candidates.length === 0 && (e.depth ?? 1) < 3 ? `and the answer lists no candidates (depth ${e.depth ?? 1})` : `and no candidate within ${kmText(T + M)}`;

  if (e.scoped?.scopeConsistent === false && far && est.confidence >= SCOPED_CONTRADICT_MIN_CONFIDENCE && !nearCandidate && !exifNear) {
    const named = e.scoped.hardEvidence ? `: "${e.scoped.hardEvidence}"` : ' (its reasoning names no cue)';
    return say('contradicts', 'scope_overridden', `asked to search within ${kmText(scopeRadiusKm(T))} of the claim, the service overrode it (scope_consistent false)${named}; ${away} ${noCandidate}`, { scoped: true });
  }
  if (e.serviceAdvice === 'abstain') return say('unverifiable', 'service_abstains', `the service's own calibration says abstain (confidence ${c}); ${where}`);
  if (near && est.confidence >= AGREE_MIN_CONFIDENCE) {
    const within = `${where}, within its ${kmText(T)}, with confidence ${c}`;
    if (exifAway) return say('unverifiable', 'witnesses_disagree', `${within}, but the file's own EXIF GPS is ${kmText(e.exif!.distanceKm)} away (a witness that can be forged or stale)`, { exif: true });
    if (e.scoped?.scopeConsistent === false) return say('unverifiable', 'witnesses_disagree', `${within}, but${scopedNote(e).slice(1)}`, { scoped: true });
    return say('agrees', 'estimate_near', within);
  }
  if (near) return say('unverifiable', 'estimate_near_unsure', `${where}, within its ${kmText(T)}, but its confidence ${c} is below ${conf(AGREE_MIN_CONFIDENCE)}: thin evidence never agrees`);
  if (far && est.confidence >= CONTRADICT_MIN_CONFIDENCE) {
    if (nearCandidate) {
      const pct = nearCandidate.confidencePct === null ? '' : `, ${nearCandidate.confidencePct}%`;
      return say('unverifiable', 'candidate_near', `${away}, but the service's candidate "${nearCandidate.label}"${pct} is ${kmText(nearCandidate.distanceKm)} from the claim`);
    }
    if (exifNear) return say('unverifiable', 'exif_near', `${away}, but the file's own EXIF GPS is ${kmText(e.exif!.distanceKm)} from the claim (a witness that can be forged, so it only holds back a contradiction)`, { exif: true });
    return say('contradicts', 'estimate_far', `${away} ${noCandidate}`);
  }
  if (far) return say('unverifiable', 'estimate_far_unsure', `the estimate is ${kmText(D)} away but its confidence ${c} is below the ${conf(CONTRADICT_MIN_CONFIDENCE)} a contradiction needs`);
  return say('unverifiable', 'estimate_between', `${where}: outside its ${kmText(T)}, but within the ${kmText(M)} margin beyond it that a contradiction needs (the answer resolves about ${kmText(e.resolutionKm)})`);
}

/** The scope radius a --scoped request carries for a tolerance: the API takes 1 to 500 km (api-spec.md "scope.radius_km"). */
export function scopeRadiusKm(toleranceKm: number): number {
  return Math.min(500, Math.max(1, toleranceKm));
}
