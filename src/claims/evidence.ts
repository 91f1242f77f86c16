/**
 * The evidence for one claim, laid out from what the batch engine returned: the
 * distance from the claim to the leading estimate and to each depth-3 candidate, the confidence
 * and precision tier, the image's own EXIF GPS (read from the original before it was stripped:
 * the record's `exif` block, evidence/corroborate.ts) and, with --scoped, what the answer with the
 * claim as its scope said. Plain data in, plain data out; rules.ts judges it.
 */
import type { Corroboration } from '../evidence/corroborate.js';
import { isResultBody } from '../evidence/record-types.js';
import { haversineKm } from '../places/distance.js';
import { hardEvidenceOf } from './hard-evidence.js';
import { resolutionKm } from './rules.js';
import type { CandidateEvidence, Claim, ClaimEvidence, ExifWitness, ScopedEvidence } from './types.js';

/** One answered (or failed) request as the batch records it: {input, ok, result | error, exif}. */
export interface AnswerLike {
  ok: boolean;
  result?: unknown;
  error?: { code: string; message: string };
  exif?: unknown;
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const round3 = (n: number) => Math.round(n * 1000) / 1000;

function candidatesOf(body: { forensic?: { candidates?: unknown } | null }, claim: Claim): CandidateEvidence[] {
  const raw: unknown[] = Array.isArray(body.forensic?.candidates) ? body.forensic.candidates : [];
  return raw
    .flatMap((c) => {
      const o = (c ?? {}) as Record<string, unknown>;
      if (!finite(o.lat) || !finite(o.lng) || Math.abs(o.lat) > 90 || Math.abs(o.lng) > 180) return [];
      return [{ label: String(o.label ?? ''), lat: o.lat, lng: o.lng, confidencePct: finite(o.confidence) ? o.confidence : null, distanceKm: round3(haversineKm(claim.at.lat, claim.at.lng, o.lat, o.lng)) }];
    })
    .sort((a, b) => a.distanceKm - b.distanceKm);
}

const isCorroboration = (v: unknown): v is Corroboration => typeof v === 'object' && v !== null && typeof (v as Corroboration).verdict === 'string';

function exifOf(block: unknown, claim: Claim): { exif: ExifWitness | null; status: ClaimEvidence['exifStatus'] } {
  if (!isCorroboration(block)) return { exif: null, status: 'none' };
  const p = block.exifPoint;
  if (p && finite(p.lat) && finite(p.lng)) {
    const exif: ExifWitness = { lat: p.lat, lng: p.lng, distanceKm: round3(haversineKm(claim.at.lat, claim.at.lng, p.lat, p.lng)), ...(block.independent !== undefined ? { independent: block.independent } : {}) };
    return { exif, status: 'gps' };
  }
  return { exif: null, status: block.verdict === 'unreadable' ? 'unreadable' : block.verdict === 'stripped' ? 'stripped' : 'none' };
}

/** What the scoped request said; null without --scoped. */
export function scopedOf(answer: AnswerLike | undefined): ScopedEvidence | null {
  if (!answer) return null;
  if (!answer.ok || typeof answer.result !== 'object' || answer.result === null) {
    return { scopeConsistent: null, hardEvidence: null, error: answer.error ? `${answer.error.code}: ${answer.error.message}` : 'no answer' };
  }
  const body = answer.result as { scope_consistent?: unknown; reasoning?: unknown; forensic?: { contradictions?: unknown } | null };
  const consistent = typeof body.scope_consistent === 'boolean' ? body.scope_consistent : null;
  return { scopeConsistent: consistent, hardEvidence: consistent === false ? hardEvidenceOf(body) : null };
}

/**
 * The evidence for `claim` from its unscoped answer, its scoped answer (--scoped) and the depth-3
 * calibration's advice (read by the caller with eval/advice.ts: claims/ sits below eval/).
 */
export function evidenceFor(claim: Claim, answer: AnswerLike, opts: { scoped?: AnswerLike; advice?: 'publish' | 'abstain' } = {}): ClaimEvidence {
  const { exif, status } = exifOf(answer.exif, claim);
  const scoped = scopedOf(opts.scoped);
  const base = { toleranceKm: claim.toleranceKm, exif, exifStatus: status, scoped, serviceAdvice: opts.advice ?? null };
  if (!answer.ok || !isResultBody(answer.result)) {
    const error = answer.error ?? { code: 'no_location', message: answer.ok ? 'the answer has no usable coordinates' : 'failed' };
    return { ...base, depth: null, estimate: null, precisionTier: null, resolutionKm: resolutionKm(null, null), candidates: [], serviceAdvice: null, error };
  }
  const b = answer.result;
  const tier = typeof b.forensic?.precision_tier === 'string' ? b.forensic.precision_tier : null;
  const depth = finite(b.depth) ? b.depth : null;
  const l = b.location;
  const place = [l.neighborhood, l.city, l.country].filter((s) => typeof s === 'string' && s.trim() !== '').join(', ');
  const confidence = finite(b.confidence) ? b.confidence : 0;
  return {
    ...base, depth, precisionTier: tier, resolutionKm: resolutionKm(tier, depth), candidates: candidatesOf(b, claim),
    estimate: { lat: l.latitude, lng: l.longitude, confidence, place, distanceKm: round3(haversineKm(claim.at.lat, claim.at.lng, l.latitude, l.longitude)) },
  };
}
