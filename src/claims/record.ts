/**
 * One claim check as a plain record: what `--json` / NDJSON prints, what CSV, GeoJSON, KML and the
 * report are drawn from, and what the MCP tool returns. Field names are the JSON fields `--json
 * FIELDS` may choose (CLAIM_FIELDS). A claim that could not be checked (a bad row) is a record too,
 * with verdict null and its error, so a script sees every row it gave. batch/claim-record.ts makes
 * them; output/ draws them, so the shape lives here, below both.
 */
import type { Verdict } from './types.js';

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
