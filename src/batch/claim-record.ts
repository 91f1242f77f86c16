/**
 * One claim check as a plain record: what `--json` / NDJSON prints, what CSV,
 * GeoJSON, KML and the report are drawn from, and what the MCP tool returns. Field names are the
 * JSON fields `--json FIELDS` may choose (CLAIM_FIELDS). A claim that could not be checked (a bad
 * row) is a record too, with verdict null and its error, so a script sees every row it gave.
 */
import { whereOf } from '../claims/types.js';
import type { ClaimProblem, Verdict } from '../claims/types.js';
import type { CheckedClaim } from './claim-checks.js';

export const CLAIM_FIELDS = [
  'row', 'file', 'input', 'sha256', 'at', 'claim', 'tolerance_km', 'tolerance_basis', 'captured_at', 'verdict', 'rule', 'reason', 'depth',
  'estimate', 'distance_km', 'nearest_candidate', 'candidates', 'exif', 'scoped', 'service_verdict', 'analysis_id', 'answer_sha256', 'sandbox', 'error',
] as const;

export interface ClaimRecord {
  row: number | null;
  file: string | null;
  input: string;
  sha256: string | null;
  at: string | null;
  claim: { lat: number; lng: number; place: string | null } | null;
  tolerance_km: number | null;
  tolerance_basis: string | null;
  captured_at: string | null;
  verdict: Verdict | null;
  rule: string | null;
  reason: string | null;
  depth: number | null;
  estimate: { lat: number; lng: number; place: string; confidence: number; precision_tier: string | null } | null;
  distance_km: number | null;
  nearest_candidate: { label: string; lat: number; lng: number; confidence_pct: number | null; distance_km: number } | null;
  /** Every depth-3 candidate, nearest to the claim first. */
  candidates: Array<{ label: string; lat: number; lng: number; confidence_pct: number | null; distance_km: number }>;
  exif: { status: 'gps' | 'none' | 'stripped' | 'unreadable'; lat?: number; lng?: number; distance_km?: number; independent?: boolean; note: string };
  scoped: { scope_consistent: boolean | null; hard_evidence: string | null; error?: string } | null;
  service_verdict: 'publish' | 'abstain' | null;
  analysis_id: string | null;
  answer_sha256: string | null;
  sandbox: boolean;
  error: { code: string; message: string } | null;
}

const EXIF_NOTE = {
  gps: 'the file\'s own GPS, read before geo removed it: a witness that can be forged, never the ground for a verdict',
  none: 'the file carries no EXIF',
  stripped: 'the file has EXIF but no GPS (removed, or never recorded)',
  unreadable: 'the file has a GPS block geo cannot read',
} as const;

export function claimRecord(c: CheckedClaim): ClaimRecord {
  const e = c.evidence;
  const j = c.judgement;
  const near = e.candidates[0];
  const body = c.answer.ok ? (c.answer.result as { analysis_id?: unknown } | undefined) : undefined;
  return {
    row: c.claim.row, file: c.claim.file ?? null, input: c.claim.input, sha256: c.answer.sha256, at: c.claim.at.text,
    claim: { lat: c.claim.at.lat, lng: c.claim.at.lng, place: c.claim.at.place }, tolerance_km: c.claim.toleranceKm, tolerance_basis: c.claim.toleranceBasis,
    captured_at: c.claim.capturedAt ?? null, verdict: j.verdict, rule: j.rule, reason: j.reason, depth: e.depth ?? c.depth,
    estimate: e.estimate ? { lat: e.estimate.lat, lng: e.estimate.lng, place: e.estimate.place, confidence: e.estimate.confidence, precision_tier: e.precisionTier } : null,
    distance_km: e.estimate?.distanceKm ?? null,
    nearest_candidate: near ? { label: near.label, lat: near.lat, lng: near.lng, confidence_pct: near.confidencePct, distance_km: near.distanceKm } : null,
    candidates: e.candidates.map((k) => ({ label: k.label, lat: k.lat, lng: k.lng, confidence_pct: k.confidencePct, distance_km: k.distanceKm })),
    exif: { status: e.exifStatus, ...(e.exif ? { lat: e.exif.lat, lng: e.exif.lng, distance_km: e.exif.distanceKm, ...(e.exif.independent !== undefined ? { independent: e.exif.independent } : {}) } : {}), note: EXIF_NOTE[e.exifStatus] },
    scoped: e.scoped ? { scope_consistent: e.scoped.scopeConsistent, hard_evidence: e.scoped.hardEvidence, ...(e.scoped.error ? { error: e.scoped.error } : {}) } : null,
    service_verdict: e.serviceAdvice, analysis_id: typeof body?.analysis_id === 'string' ? body.analysis_id : null,
    answer_sha256: c.answerSha256, sandbox: c.sandbox, error: e.error ?? null,
  };
}

/** A claim that was not checked (bad input): its row, what it named, and why. */
export function problemRecord(p: ClaimProblem): ClaimRecord {
  return {
    row: p.row, file: p.file ?? null, input: p.input, sha256: null, at: null, claim: null, tolerance_km: null, tolerance_basis: null, captured_at: null,
    verdict: null, rule: null, reason: null, depth: null, estimate: null, distance_km: null, nearest_candidate: null, candidates: [],
    exif: { status: 'none', note: 'not read: the claim was not checked' }, scoped: null, service_verdict: null, analysis_id: null, answer_sha256: null, sandbox: false,
    error: { code: 'bad_input', message: `${whereOf(p)}: ${p.message}` },
  };
}
