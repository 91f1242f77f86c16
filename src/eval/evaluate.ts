/**
 * Answers against the truth: one row per image and depth (what `--format ndjson` prints), then
 * the figures of metrics.ts over them, pooled and, with several depths, per depth (`by_depth`).
 */
import { haversineKm } from '../places/distance.js';
import { type Advice, adviceOf } from './advice.js';
import { type Metrics, type Scored, computeMetrics } from './metrics.js';

export interface Point {
  lat: number;
  lng: number;
}

/** A locate record as the batch emits it and locate's NDJSON holds it. */
export interface AnswerRecord {
  input: string;
  sha256: string | null;
  ok: boolean;
  result?: unknown;
  error?: { code: string; message: string };
}

export interface EvalRow {
  input: string;
  truth: Point;
  /** null when there is no usable answer (failed, not sent, no coordinates). */
  estimate: Point | null;
  error_km: number | null;
  confidence: number | null;
  correct: boolean | null;
  depth: number;
  sha256: string | null;
  advice?: Advice;
  error?: { code: string; message: string };
}

export interface EvalReport extends Metrics {
  /** The depths evaluated; several: the top-level figures pool every answer, by_depth splits them. */
  depths: number[];
  by_depth?: Record<string, Metrics>;
  /**
   * Videos: the top level scores every frame on its own; this scores one answer per
   * video, its consensus, so the two sit side by side. Its confidence is the share of frames that
   * agree (k of n); its credits are the frames' (the consensus costs nothing more).
   */
  consensus?: EvalReport & { kind: 'video' | 'set' };
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The estimate, confidence and advice of a result body, when it has coordinates. */
function answerOf(result: unknown): { estimate: Point; confidence: number; depth?: number; calibration?: unknown } | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const r = result as { location?: { latitude?: unknown; longitude?: unknown }; confidence?: unknown; depth?: unknown; calibration?: unknown };
  const lat = r.location?.latitude;
  const lng = r.location?.longitude;
  if (!finite(lat) || !finite(lng) || !finite(r.confidence)) return undefined;
  return { estimate: { lat, lng }, confidence: r.confidence, ...(finite(r.depth) ? { depth: r.depth } : {}), ...(r.calibration !== undefined ? { calibration: r.calibration } : {}) };
}

/** One row; `depth` is the depth asked for (the answer's own depth wins when it says one). */
export function rowOf(rec: AnswerRecord, truth: Point, depth: number, correctWithinKm: number): EvalRow {
  const a = rec.ok ? answerOf(rec.result) : undefined;
  if (!a) {
    const error = rec.error ?? { code: 'no_location', message: rec.ok ? 'the answer has no usable coordinates' : 'failed' };
    return { input: rec.input, truth, estimate: null, error_km: null, confidence: null, correct: null, depth, sha256: rec.sha256, error };
  }
  const km = haversineKm(truth.lat, truth.lng, a.estimate.lat, a.estimate.lng);
  const advice = adviceOf(a.calibration, a.confidence);
  return {
    input: rec.input, truth, estimate: a.estimate, error_km: km, confidence: a.confidence, correct: km <= correctWithinKm, depth: a.depth ?? depth, sha256: rec.sha256,
    ...(advice ? { advice } : {}),
  };
}

function metricsOf(rows: readonly EvalRow[], correctWithinKm: number): Metrics {
  const answers: Scored[] = rows.flatMap((r) =>
    r.error_km === null || r.confidence === null ? [] : [{ errorKm: r.error_km, confidence: r.confidence, depth: r.depth, ...(r.advice ? { advice: r.advice } : {}), ...(r.sha256 ? { image: r.sha256 } : {}) }],
  );
  return computeMetrics(rows.length, answers, { correctWithinKm });
}

/**
 * The single-frame report with the consensus report beside it: `consensus` rows have one per video
 * and depth (estimate: the consensus; confidence: agree/of). Credits are what the frames cost, spent
 * once, so credits per correct answer compare what one frame and what a consensus buy.
 */
export function withConsensus(frames: EvalReport, consensusRows: readonly EvalRow[], correctWithinKm: number, kind: 'video' | 'set'): EvalReport {
  const c = evaluate(consensusRows, correctWithinKm);
  const paid = (m: Metrics, spentOf: Metrics): Metrics => ({ ...m, credits: { spent: spentOf.credits.spent, per_correct: m.correct === 0 ? null : spentOf.credits.spent / m.correct } });
  const byDepth = c.by_depth && Object.fromEntries(Object.entries(c.by_depth).map(([d, m]) => [d, paid(m, frames.by_depth?.[d] ?? frames)]));
  return { ...frames, consensus: { kind, ...paid(c, frames), depths: c.depths, ...(byDepth ? { by_depth: byDepth } : {}) } };
}

/** The report over every row; with several depths, by_depth too ("1": {…}, in ascending order). */
export function evaluate(rows: readonly EvalRow[], correctWithinKm: number): EvalReport {
  const depths = [...new Set(rows.map((r) => r.depth))].sort((a, b) => a - b);
  const report: EvalReport = { ...metricsOf(rows, correctWithinKm), depths };
  if (depths.length > 1) report.by_depth = Object.fromEntries(depths.map((d) => [String(d), metricsOf(rows.filter((r) => r.depth === d), correctWithinKm)]));
  return report;
}
