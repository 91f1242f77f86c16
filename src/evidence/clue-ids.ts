/**
 * Stable ids for what a case's results say, so an analyst can judge each item and an entry can
 * name it: `r<N>.<kind><M>` (investigation-events.ts). N is the result's place in the case, in the
 * order its result_linked entries were appended, which never changes; M the item's place in its
 * list in the raw answer, which never changes either (the answer is hashed). Items without image
 * coordinates have ids too; `box` is there when a clue carries coordinates geo can draw.
 */
import type { VouchedResult } from './case-vouch.js';
import type { ResultRef } from './investigation-events.js';

export type ItemKind = 'clue' | 'support' | 'contra' | 'cand';

/** A clue's image coordinates as fractions of width and height (the sandbox's `bbox`; api-spec.md visual_clues). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface CaseItem {
  id: string;
  kind: ItemKind;
  /** The item's text as the answer gave it (a candidate: its label). */
  label: string;
  detail?: string;
  box?: Box;
  /** A candidate's place and its confidence (0-100, api-spec.md). */
  candidate?: { lat: number; lng: number; confidence: number | null };
  result: ResultRef;
}

const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));
const fraction = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1;

/** A clue's box when it has one in fractions geo can draw (others are listed without one). */
export function boxOf(clue: unknown): Box | undefined {
  const b = obj(obj(clue).bbox);
  const { x, y, width, height } = b;
  if (!fraction(x) || !fraction(y) || !fraction(width) || !fraction(height) || width === 0 || height === 0) return undefined;
  return { x, y, width: Math.min(width, 1 - x), height: Math.min(height, 1 - y) };
}

/** The ref an entry names result N of the case by. */
export function resultRef(r: VouchedResult, n: number): ResultRef {
  return { ref: `r${n}`, answer_sha256: r.answer.sha256, analysis_id: r.answer.analysis_id };
}

/** Every item of every result of the case, in id order. */
export function caseItems(results: readonly VouchedResult[]): CaseItem[] {
  const out: CaseItem[] = [];
  results.forEach((r, i) => {
    const result = resultRef(r, i + 1);
    const body = obj(r.record.response.body);
    const forensic = obj(body.forensic);
    const add = (kind: ItemKind, m: number, item: Omit<CaseItem, 'id' | 'kind' | 'result'>) => out.push({ id: `${result.ref}.${kind}${m}`, kind, ...item, result });
    arr(body.visual_clues).forEach((c, m) => {
      const box = boxOf(c);
      const detail = text(obj(c).detail);
      add('clue', m + 1, { label: text(obj(c).label), ...(detail ? { detail } : {}), ...(box ? { box } : {}) });
    });
    arr(forensic.supports).forEach((s, m) => add('support', m + 1, { label: text(s) }));
    arr(forensic.contradictions).forEach((s, m) => add('contra', m + 1, { label: text(s) }));
    arr(forensic.candidates).forEach((c, m) => {
      const o = obj(c);
      const lat = Number(o.lat);
      const lng = Number(o.lng);
      const confidence = typeof o.confidence === 'number' ? o.confidence : null;
      add('cand', m + 1, { label: text(o.label), ...(Number.isFinite(lat) && Number.isFinite(lng) ? { candidate: { lat, lng, confidence } } : {}) });
    });
  });
  return out;
}

/**
 * The case's result an analyst named: `r2`, an analysis id (as geo locate prints it), or a sha256
 * prefix of its input or answer (6+ hex digits). Undefined when none or several match.
 */
export function findResult(results: readonly VouchedResult[], id: string): ResultRef | undefined {
  const m = /^r([1-9][0-9]*)$/.exec(id);
  if (m) {
    const n = Number(m[1]);
    return results[n - 1] ? resultRef(results[n - 1]!, n) : undefined;
  }
  const hex = /^[0-9a-f]{6,64}$/i.test(id) ? id.toLowerCase() : undefined;
  const hits = results.map((r, i) => ({ r, n: i + 1 })).filter(({ r }) => r.answer.analysis_id === id || (hex !== undefined && (r.input.sha256.startsWith(hex) || r.answer.sha256.startsWith(hex))));
  return hits.length === 1 ? resultRef(hits[0]!.r, hits[0]!.n) : undefined;
}
