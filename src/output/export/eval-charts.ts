/**
 * The eval report's two charts as inline SVG (no script, no network): the error CDF (share of
 * answers within x km, x on a log scale from 100 m to 20 000 km, the five accuracy thresholds
 * marked) and the reliability diagram (accuracy against mean confidence per bin; a calibrated
 * model sits on the diagonal). Only presentation attributes and classes: the page's CSP allows no
 * inline style attribute. Numbers only; labels are ours.
 */
import type { Bin } from '../../eval/metrics.js';
import { esc } from './html.js';

export interface Series {
  label: string;
  /** A CSS colour of ours (never a server string). */
  colour: string;
}

const f = (n: number) => (Math.round(n * 10) / 10).toString();

const CDF = { w: 540, h: 320, left: 48, right: 16, top: 16, bottom: 40, minKm: 0.1, maxKm: 20_000 };

/** x position of a distance on the log axis, clamped to it. */
function xKm(km: number): number {
  const lo = Math.log10(CDF.minKm);
  const hi = Math.log10(CDF.maxKm);
  const t = (Math.log10(Math.min(CDF.maxKm, Math.max(CDF.minKm, km))) - lo) / (hi - lo);
  return CDF.left + t * (CDF.w - CDF.left - CDF.right);
}
const yShare = (s: number) => CDF.top + (1 - s) * (CDF.h - CDF.top - CDF.bottom);

/** Steps of the empirical CDF: flat until each error, then up by 1/n. */
function cdfPath(errors: readonly number[]): string {
  const sorted = [...errors].sort((a, b) => a - b);
  const n = sorted.length;
  let d = `M${f(xKm(CDF.minKm))},${f(yShare(0))}`;
  sorted.forEach((e, i) => {
    d += ` H${f(xKm(e))} V${f(yShare((i + 1) / n))}`;
  });
  return `${d} H${f(xKm(CDF.maxKm))}`;
}

function legend(series: readonly Series[], x: number, y: number): string {
  return series.map((s, i) => `<g transform="translate(${x},${y + i * 16})"><rect width="12" height="3" y="5" fill="${s.colour}"/><text x="18" y="10" class="legend">${esc(s.label)}</text></g>`).join('');
}

export function errorCdfSvg(series: ReadonlyArray<Series & { errors: readonly number[] }>, thresholds: readonly number[]): string {
  const plotBottom = CDF.h - CDF.bottom;
  const grid = [0, 0.25, 0.5, 0.75, 1].map((s) => `<line x1="${CDF.left}" x2="${CDF.w - CDF.right}" y1="${f(yShare(s))}" y2="${f(yShare(s))}" class="grid"/><text x="${CDF.left - 6}" y="${f(yShare(s) + 4)}" text-anchor="end" class="tick">${Math.round(s * 100)}%</text>`).join('');
  const marks = thresholds.map((t) => `<line x1="${f(xKm(t))}" x2="${f(xKm(t))}" y1="${CDF.top}" y2="${plotBottom}" class="threshold"/><text x="${f(xKm(t))}" y="${plotBottom + 14}" text-anchor="middle" class="tick">${t}</text>`).join('');
  const lines = series.filter((s) => s.errors.length > 0).map((s) => `<path d="${cdfPath(s.errors)}" fill="none" stroke="${s.colour}" stroke-width="2"/>`).join('');
  return `<svg class="chart" viewBox="0 0 ${CDF.w} ${CDF.h}" width="${CDF.w}" height="${CDF.h}" role="img" aria-label="error CDF: share of answers within each distance">
${grid}${marks}
<line x1="${CDF.left}" x2="${CDF.w - CDF.right}" y1="${plotBottom}" y2="${plotBottom}" class="axis"/><line x1="${CDF.left}" x2="${CDF.left}" y1="${CDF.top}" y2="${plotBottom}" class="axis"/>
${lines}
<text x="${(CDF.left + CDF.w - CDF.right) / 2}" y="${CDF.h - 6}" text-anchor="middle" class="label">error, km (log scale; marks at the accuracy thresholds)</text>
${legend(series, CDF.left + 12, CDF.top + 6)}
</svg>`;
}

const REL = { size: 320, pad: 44 };

export function reliabilitySvg(series: ReadonlyArray<Series & { bins: readonly Bin[] }>): string {
  const side = REL.size - 2 * REL.pad + 20;
  const x = (c: number) => REL.pad + c * side;
  const y = (a: number) => REL.pad - 24 + (1 - a) * side;
  const ticks = [0, 0.5, 1].map((t) => `<text x="${f(x(t))}" y="${f(y(0) + 14)}" text-anchor="middle" class="tick">${t}</text><text x="${f(x(0) - 6)}" y="${f(y(t) + 4)}" text-anchor="end" class="tick">${t}</text>`).join('');
  const frame = `<rect x="${f(x(0))}" y="${f(y(1))}" width="${f(side)}" height="${f(side)}" class="frame"/><line x1="${f(x(0))}" y1="${f(y(0))}" x2="${f(x(1))}" y2="${f(y(1))}" class="diagonal"/>`;
  const body = series.map((s) => {
    const pts = s.bins.filter((b) => b.n > 0 && b.mean_confidence !== null && b.accuracy !== null);
    const line = pts.length > 1 ? `<polyline points="${pts.map((b) => `${f(x(b.mean_confidence!))},${f(y(b.accuracy!))}`).join(' ')}" fill="none" stroke="${s.colour}" stroke-width="1.5"/>` : '';
    const dots = pts.map((b) => `<circle cx="${f(x(b.mean_confidence!))}" cy="${f(y(b.accuracy!))}" r="${f(3 + Math.sqrt(b.n) * 1.5)}" fill="${s.colour}" fill-opacity="0.75"><title>${b.lo}–${b.hi}: ${b.n} answers, mean confidence ${b.mean_confidence!.toFixed(2)}, ${Math.round(b.accuracy! * 100)}% correct</title></circle>`).join('');
    return line + dots;
  }).join('');
  return `<svg class="chart" viewBox="0 0 ${REL.size + 120} ${REL.size}" width="${REL.size + 120}" height="${REL.size}" role="img" aria-label="reliability diagram: accuracy against confidence per bin">
${frame}${ticks}${body}
<text x="${f(x(0.5))}" y="${REL.size - 6}" text-anchor="middle" class="label">mean confidence in the bin</text>
<text transform="translate(12,${f(y(0.5))}) rotate(-90)" text-anchor="middle" class="label">share correct</text>
${legend(series, REL.size - 8, REL.pad - 24)}
</svg>`;
}
