/**
 * The figures of `geo eval`, pure functions over scored answers. The field measures
 * geolocation as the share of estimates within 1, 25, 200, 750 and 2500 km (street, city, region,
 * country, continent: Im2GPS3k, YFCC4k), plus the median error, and calibration as expected
 * calibration error (ECE, Guo et al. 2017) over equal-width confidence bins.
 *
 * Definitions (README "geo eval" and `geo eval --help` say the same):
 * - accuracy[t]: share of scored answers with error <= t km (0-1);
 * - median and p90: quantiles by linear interpolation between closest ranks (numpy's default,
 *   Excel PERCENTILE.INC): for sorted errors x[0..n-1], h = (n-1)q, q-quantile = x[⌊h⌋] +
 *   (h-⌊h⌋)(x[⌊h⌋+1]-x[⌊h⌋]); so the median of an even count is the mean of the middle two;
 * - correct: error <= correctWithinKm (default 25, city level);
 * - bins: 10 of width 0.1 over [0, 1]; a confidence c falls in bin ⌊10c⌋ (1.0 in the last), so
 *   each is [lo, hi) and the last [0.9, 1]; an empty bin has n 0 and null mean and accuracy;
 * - ECE = Σ_b (n_b / N) |accuracy_b - mean_confidence_b| over the non-empty bins;
 * - abstention curve: for each lower bin edge t (0, 0.1, …, 0.9), answering only when
 *   confidence >= t: coverage (share answered) and accuracy among those answered;
 * - credits: what the scored answers cost at their depth (1, 2, 10), each image once, and that
 *   divided by the number of correct answers (null when none is correct).
 */
import { DEPTH_COST, type Depth } from '../api/schemas.js';
import { type Advice, type AdviceSummary, summarizeAdvice } from './advice.js';

export const THRESHOLDS_KM = [1, 25, 200, 750, 2500] as const;
export const DEFAULT_CORRECT_WITHIN_KM = 25;
export const BIN_COUNT = 10;

/** One answer to score: where it truly was, what was said, how sure, and the depth-3 advice if any. */
export interface Scored {
  errorKm: number;
  /** 0-1 (api-spec "Note the scales"); clamped into [0, 1] for binning. */
  confidence: number;
  depth: number;
  /** What the depth-3 calibration said, when it said something geo can read. */
  advice?: Advice;
  /** Identity of the image for credits (sha256); answers of one image are paid once per depth. */
  image?: string;
}

export interface Bin {
  lo: number;
  hi: number;
  n: number;
  mean_confidence: number | null;
  accuracy: number | null;
}

export interface AbstentionPoint {
  /** Answer only when confidence >= this. */
  threshold: number;
  coverage: number | null;
  accuracy: number | null;
}

export interface Metrics {
  n: number;
  scored: number;
  thresholds_km: number[];
  accuracy: Record<string, number | null>;
  error_km: { median: number | null; mean: number | null; p90: number | null };
  calibration: { correct_within_km: number; ece: number | null; bins: Bin[] };
  credits: { spent: number; per_correct: number | null };
  /** Answers within correct_within_km. */
  correct: number;
  abstention: AbstentionPoint[];
  /** How the depth-3 calibration advice fared; null when no answer carried advice geo can read. */
  advice: AdviceSummary | null;
}

/** q-quantile of ascending values by linear interpolation (see the header); null when empty. */
export function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

const share = (k: number, n: number): number | null => (n === 0 ? null : k / n);
const mean = (xs: readonly number[]): number | null => (xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length);
const clamp01 = (c: number) => Math.min(1, Math.max(0, c));
/** Bin index of a confidence; the epsilon keeps 0.3 (0.30000000000000004 × 10) in bin 3 however it was computed. */
export const binOf = (c: number): number => Math.min(BIN_COUNT - 1, Math.floor(clamp01(c) * BIN_COUNT + 1e-9));
/** Bin edges as printed: 0.1 × i rounded, not 0.30000000000000004. */
const edge = (i: number) => Math.round((i / BIN_COUNT) * 1e6) / 1e6;

export function calibrationBins(answers: readonly Scored[], correctWithinKm: number): Bin[] {
  const bins = Array.from({ length: BIN_COUNT }, () => [] as Scored[]);
  for (const a of answers) bins[binOf(a.confidence)]!.push(a);
  return bins.map((b, i) => ({
    lo: edge(i),
    hi: edge(i + 1),
    n: b.length,
    mean_confidence: mean(b.map((a) => clamp01(a.confidence))),
    accuracy: share(b.filter((a) => a.errorKm <= correctWithinKm).length, b.length),
  }));
}

export function expectedCalibrationError(bins: readonly Bin[]): number | null {
  const total = bins.reduce((s, b) => s + b.n, 0);
  if (total === 0) return null;
  return bins.reduce((s, b) => (b.n === 0 ? s : s + (b.n / total) * Math.abs(b.accuracy! - b.mean_confidence!)), 0);
}

export function abstentionCurve(answers: readonly Scored[], correctWithinKm: number): AbstentionPoint[] {
  return Array.from({ length: BIN_COUNT }, (_, i) => {
    const t = edge(i);
    // The bin rule, so "confidence >= t" and "in bin i or above" are the same answers.
    const kept = answers.filter((a) => binOf(a.confidence) >= i);
    return { threshold: t, coverage: share(kept.length, answers.length), accuracy: share(kept.filter((a) => a.errorKm <= correctWithinKm).length, kept.length) };
  });
}

/** What the answers cost: each image once per depth (duplicates share one paid answer). */
export function creditsOf(answers: readonly Scored[]): number {
  const paid = new Set<string>();
  let total = 0;
  for (const [i, a] of answers.entries()) {
    const id = `${a.depth}:${a.image ?? `#${i}`}`;
    if (paid.has(id)) continue;
    paid.add(id);
    total += DEPTH_COST[a.depth as Depth] ?? 0;
  }
  return total;
}

/**
 * Every figure for `n` evaluated images (with a truth) of which `answers` were answered with a
 * location. Failed or unusable answers count in n, not in scored.
 */
export function computeMetrics(n: number, answers: readonly Scored[], opts: { correctWithinKm: number }): Metrics {
  const errors = answers.map((a) => a.errorKm).sort((a, b) => a - b);
  const scored = answers.length;
  const correct = answers.filter((a) => a.errorKm <= opts.correctWithinKm).length;
  const bins = calibrationBins(answers, opts.correctWithinKm);
  const spent = creditsOf(answers);
  const withAdvice = answers.filter((a) => a.advice !== undefined);
  return {
    n,
    scored,
    thresholds_km: [...THRESHOLDS_KM],
    accuracy: Object.fromEntries(THRESHOLDS_KM.map((t) => [String(t), share(errors.filter((e) => e <= t).length, scored)])),
    error_km: { median: quantile(errors, 0.5), mean: mean(errors), p90: quantile(errors, 0.9) },
    calibration: { correct_within_km: opts.correctWithinKm, ece: expectedCalibrationError(bins), bins },
    credits: { spent, per_correct: correct === 0 ? null : spent / correct },
    correct,
    abstention: abstentionCurve(answers, opts.correctWithinKm),
    advice: withAdvice.length === 0 ? null : summarizeAdvice(withAdvice, opts.correctWithinKm),
  };
}
