/**
 * A case's copy_linked entry (evidence/copy-events.ts) for a copy of a photo located before that a
 * run with --case met: built from the store's perceptual hashes of both images and the earlier
 * result's raw answer (the bytes its answer_received entry hashes). Both hashes must be known: an
 * entry with one missing could not be checked (cases verify recomputes the distance from them).
 */
import type { CopyLinked } from '../evidence/copy-events.js';
import { sha256Hex } from '../evidence/custody.js';
import type { StoreApi, StoredResult } from '../store/index.js';
import type { CopyOf } from './types.js';

export async function copyLinkedData(store: StoreApi, copy: { path: string; sha256: string }, of: StoredResult, c: CopyOf): Promise<CopyLinked | undefined> {
  const [mine, theirs] = await Promise.all([store.perceptual.get(copy.sha256), store.perceptual.get(of.record.input.sha256)]);
  if (!mine || !theirs) return undefined;
  const aid = (of.record.response.body as { analysis_id?: unknown } | undefined)?.analysis_id;
  return {
    copy: {
      input: { path: copy.path, sha256: copy.sha256, pdq: mine.pdq },
      of: { sha256: of.record.input.sha256, pdq: theirs.pdq, input_path: of.record.input.path, analysis_id: typeof aid === 'string' ? aid : null, answer_sha256: sha256Hex(of.record.response.raw ?? '') },
      distance: c.distance,
      answer: c.reused ? 'reused' : 'paid',
    },
  };
}

/** The copies a case's log already records (copy sha256, earlier sha256, how), so a rerun appends none again. */
export function loggedCopies(lines: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const line of lines) {
    if (!line.includes('"copy_linked"')) continue;
    try {
      const c = (JSON.parse(line) as { data?: CopyLinked }).data?.copy;
      if (c) out.add(copyKey(c.input.sha256, c.of.sha256, c.answer === 'reused'));
    } catch {
      // the chain check names a line that does not parse
    }
  }
  return out;
}

export const copyKey = (sha256: string, ofSha256: string, reused: boolean): string => `${sha256}\0${ofSha256}\0${reused ? 'reused' : 'paid'}`;
