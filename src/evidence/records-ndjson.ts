/**
 * Results that were never stored (locate --no-store, a colleague's batch output) rebuilt as
 * provenance records so `geo export` treats them like stored ones. Accepts, line by line:
 * - batch NDJSON lines {"input","sha256","ok","result"|"error","exif"} (failed lines are skipped),
 * - provenance records themselves (e.g. stored files concatenated with jq -c),
 * - bare geolocate bodies (`geo locate --json` of one input).
 * A whole file that is one pretty-printed JSON value (or an array of them) works too.
 */
import { readFile } from 'node:fs/promises';
import type { Corroboration } from './corroborate.js';
import { type ProvenanceRecord, RECORD_SCHEMA, isResultBody } from './record-types.js';
import { soundsSimulated } from './simulated.js';
import { isReusedSimilar } from './copy-events.js';

export type ProblemSink = (where: string, why: string) => void;

interface BatchLine {
  input?: unknown;
  sha256?: unknown;
  ok?: unknown;
  result?: unknown;
  error?: unknown;
  exif?: unknown;
  video?: unknown;
  set?: unknown;
  sandbox?: unknown;
  reused_similar?: unknown;
}

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null && !Array.isArray(v);

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function isCorroboration(v: unknown): v is Corroboration {
  return typeof v === 'object' && v !== null && typeof (v as Corroboration).verdict === 'string';
}

/**
 * A file carries no response header: a result is marked simulated when it says so (`sandbox: true`)
 * or speaks the sandbox's own words (evidence/simulated.ts), so a sandbox's answers read back from
 * locate's NDJSON are still shown as not evidence.
 */
function marked(rec: ProvenanceRecord, said: unknown): ProvenanceRecord {
  return said === true || soundsSimulated(rec.response.body) ? { ...rec, sandbox: true } : rec;
}

/** One parsed JSON value to a record, or a reason it is not one. */
function toRecord(v: unknown, label: string, storedAt: string): ProvenanceRecord | string {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not a JSON object';
  const o = v as Record<string, unknown>;
  if (o.schema === RECORD_SCHEMA) {
    const rec = o as unknown as ProvenanceRecord;
    return isResultBody(rec.response?.body) ? marked(rec, rec.sandbox) : 'provenance record without a usable location';
  }
  if ('ok' in o && ('result' in o || 'error' in o)) {
    const line = o as BatchLine;
    if (line.ok !== true) return `input ${JSON.stringify(str(line.input))} failed, so it has no result to export`;
    if (!isResultBody(line.result)) return 'result without a usable location';
    return marked({
      schema: RECORD_SCHEMA,
      stored_at: storedAt,
      origin: 'ndjson',
      input: { path: str(line.input), sha256: str(line.sha256).toLowerCase() },
      response: { body: line.result },
      ...(isCorroboration(line.exif) ? { exif: line.exif } : {}),
      // A video's frame or a photo of a set (locate's NDJSON): geo export draws them as their scene.
      ...(isObject(line.video) ? { video: line.video as ProvenanceRecord['video'] } : {}),
      ...(isObject(line.set) ? { set: line.set as ProvenanceRecord['set'] } : {}),
      // An earlier result's answer taken for a copy (--reuse-similar): exports keep saying so.
      ...(isReusedSimilar(line.reused_similar) ? { reused_similar: line.reused_similar } : {}),
    }, line.sandbox);
  }
  if (isResultBody(o)) {
    return marked({ schema: RECORD_SCHEMA, stored_at: storedAt, origin: 'response', input: { path: label, sha256: '' }, response: { body: o } }, undefined);
  }
  return 'neither a batch line, a provenance record nor a geolocate body';
}

/** `label` names the source in problems (a path, or "-" for stdin). */
export function parseNdjsonResults(text: string, label: string, opts: { now?: number; onProblem?: ProblemSink } = {}): ProvenanceRecord[] {
  const storedAt = new Date(opts.now ?? Date.now()).toISOString();
  const out: ProvenanceRecord[] = [];
  const take = (v: unknown, where: string) => {
    const r = toRecord(v, label, storedAt);
    if (typeof r === 'string') opts.onProblem?.(where, r);
    else out.push(r);
  };
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      const whole: unknown = JSON.parse(trimmed);
      for (const [i, v] of (Array.isArray(whole) ? whole : [whole]).entries()) take(v, `${label}[${i}]`);
      return out;
    } catch {
      // Not one JSON value: NDJSON, handled below.
    }
  }
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      opts.onProblem?.(`${label}:${i + 1}`, 'not valid JSON');
      return;
    }
    take(v, `${label}:${i + 1}`);
  });
  return out;
}

export async function readNdjsonResults(path: string, opts: { now?: number; onProblem?: ProblemSink } = {}): Promise<ProvenanceRecord[]> {
  return parseNdjsonResults(await readFile(path, 'utf8'), path, opts);
}
