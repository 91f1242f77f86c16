/**
 * `geo eval --from results.ndjson`: the figures from locate's NDJSON output, sending nothing. Each
 * line {"input","sha256","ok","result"|"error","exif"} is matched to its truth by the input's path
 * (relative to where geo runs now, as locate wrote it) or, with --truth, its file name too. The
 * depth of each answer is the one its body states. Lines of inputs that failed in that run carry
 * no answer and no depth: they are listed and left out.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { type AnswerRecord, type EvalRow, rowOf } from '../../eval/evaluate.js';
import type { Truth } from '../../eval/truth.js';
import { truthFor } from './images.js';

type Say = (line: string) => void;

function recordOf(v: unknown): AnswerRecord | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  if (typeof o.input !== 'string' || typeof o.ok !== 'boolean') return undefined;
  return { input: o.input, sha256: typeof o.sha256 === 'string' ? o.sha256 : null, ok: o.ok, ...(o.ok ? { result: o.result } : {}) };
}

const depthOf = (result: unknown): number | undefined => {
  const d = (result as { depth?: unknown } | null)?.depth;
  return typeof d === 'number' && Number.isInteger(d) ? d : undefined;
};

export async function rowsFromResults(file: string, o: { cwd: string; truth?: Truth; correctWithinKm: number; depths?: readonly number[]; say: Say }): Promise<EvalRow[]> {
  let text: string;
  try {
    text = await readFile(resolve(o.cwd, file), 'utf8');
  } catch (err) {
    throw new UsageError(`--from ${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? 'error'})`, 'give the NDJSON that geo locate printed: geo locate IMAGES > results.ndjson');
  }
  const rows: EvalRow[] = [];
  const lines = text.split(/\r?\n/);
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      throw new UsageError(`--from ${file} line ${i + 1}: not JSON`, 'one geo locate record per line: {"input","sha256","ok","result"|"error","exif"}');
    }
    const rec = recordOf(v);
    if (!rec) throw new UsageError(`--from ${file} line ${i + 1}: not a geo locate record`, 'one geo locate record per line: {"input","sha256","ok","result"|"error","exif"}');
    const depth = rec.ok ? depthOf(rec.result) : undefined;
    if (depth === undefined) {
      o.say(`${rec.input}: no answer in ${file} (line ${i + 1}); left out`);
      continue;
    }
    if (o.depths && !o.depths.includes(depth)) continue;
    const t = await truthFor(resolve(o.cwd, rec.input), o.truth);
    if (!t.point) {
      o.say(`no truth: ${rec.input}: ${t.why}; left out`);
      continue;
    }
    rows.push(rowOf(rec, t.point, depth, o.correctWithinKm));
  }
  if (rows.length === 0) throw new UsageError(`--from ${file}: no answer with a known position to evaluate`, 'the images must still be where locate read them (EXIF truth), or give --truth FILE');
  return rows;
}
