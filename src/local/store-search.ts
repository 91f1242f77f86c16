/**
 * Finding stored provenance records the way analysts name them (geo export, geo history):
 * a sha256 or a prefix of 6+ hex digits, an analysis id, or the image file itself (hashed), and a
 * free-text search over what a record says. Built on store.ts listRecords; records are read
 * tolerantly (fields added later, or missing from hand-edited files, are simply not matched).
 */
import { stat } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { sha256File } from './files.js';
import { type ProvenanceRecord, listRecords, resultsDir } from './store.js';

type Problem = (file: string, why: string) => void;
const HEX = /^[0-9a-f]{6,64}$/i;

/** Newest first (ISO times sort as text); the input order is kept for equal times. */
export function newestFirst(records: readonly ProvenanceRecord[]): ProvenanceRecord[] {
  return [...records].sort((a, b) => String(b.stored_at).localeCompare(String(a.stored_at)));
}

/** The words a record can be found by: input path, sha256, analysis id and every place name. */
function haystack(r: ProvenanceRecord): string {
  const body = (r.response?.body ?? {}) as { analysis_id?: unknown; location?: Record<string, unknown> };
  const loc = body.location ?? {};
  return [r.input?.path, r.input?.sha256, body.analysis_id, loc.city, loc.neighborhood, loc.country, loc.address]
    .filter((v): v is string => typeof v === 'string')
    .join('\n')
    .toLowerCase();
}

/** Records whose input, place names or analysis id contain `text` (case-insensitive). */
export function searchRecords(records: readonly ProvenanceRecord[], text: string): ProvenanceRecord[] {
  const needle = text.trim().toLowerCase();
  return needle ? records.filter((r) => haystack(r).includes(needle)) : [...records];
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then((s) => s.isFile(), () => false);
}

/**
 * The stored records `ref` names: an existing file is hashed and found by its sha256; otherwise a
 * sha256 prefix (one image only, else a usage error listing them), then an analysis id.
 * Throws a UsageError with a hint when nothing matches.
 */
export async function findStored(dataDirPath: string, ref: string, onProblem?: Problem, opts: { files?: boolean } = {}): Promise<ProvenanceRecord[]> {
  if (opts.files && (await isFile(ref))) {
    const sha = await sha256File(ref);
    const recs = await listRecords(dataDirPath, { sha256: sha }, onProblem);
    if (recs.length) return recs;
    throw new UsageError(`no stored result for ${ref} (sha256 ${sha.slice(0, 12)}…)`, `it was never located with this data folder, or with --no-store; geo locate ${ref} analyses it`);
  }
  if (HEX.test(ref)) {
    const bySha = await listRecords(dataDirPath, { sha256: ref }, onProblem);
    const images = new Set(bySha.map((r) => r.input.sha256));
    if (images.size > 1) {
      throw new UsageError(`sha256 prefix ${ref} matches ${images.size} images`, `use more digits: ${[...images].map((s) => s.slice(0, 12)).join(', ')}`);
    }
    if (bySha.length) return bySha;
  }
  const byId = await listRecords(dataDirPath, { analysisId: ref }, onProblem);
  if (byId.length) return byId;
  throw new UsageError(
    `no stored result for ${JSON.stringify(ref)} (not ${opts.files ? 'an image file, ' : ''}a sha256 prefix or an analysis id on record)`,
    `stored results are in ${resultsDir(dataDirPath)}; list them with: geo history`,
  );
}
