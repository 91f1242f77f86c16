/**
 * A case's kept files as its investigation names them (evidence/investigation.ts): each working
 * copy with the original it was made from, and each exhibit with where it came from, their bytes
 * read from the store's kept files (store/kept-rows.ts) and held to the sha256 their entry logged,
 * so what a bundle or a report carries is what the log vouches for. Labelled with the words
 * bundles and reports use (evidence/bundle-format.ts LABELS), so a copy is never shown as evidence.
 */
import { LABELS } from '../evidence/bundle-format.js';
import { sha256Hex } from '../evidence/custody.js';
import type { ExhibitRef } from '../evidence/investigation-events.js';
import type { Investigation, WorkingCopy } from '../evidence/investigation.js';
import type { StoreApi } from '../store/index.js';

export interface KeptWorkingCopy extends WorkingCopy {
  label: typeof LABELS.working;
  bytes: Buffer;
}

export interface KeptExhibit extends ExhibitRef {
  label: typeof LABELS.exhibit;
  /** The note_made entry that first kept it. */
  entry: number;
  bytes: Buffer;
}

/** What could be read, and one line for each entry whose bytes could not (absent, or no longer its sha256). */
export interface Kept<T> {
  files: T[];
  missing: string[];
}

const short = (sha: string) => `${sha.slice(0, 12)}…`;

async function keptBytes(store: StoreApi, sha256: string, what: string, missing: string[]): Promise<Buffer | undefined> {
  const kept = await store.kept.get(sha256);
  if (!kept) missing.push(`${what}: its bytes (sha256 ${short(sha256)}) are not among this store's kept files`);
  else if (sha256Hex(kept.bytes) !== sha256) missing.push(`${what}: the kept bytes no longer hash to the sha256 it logged (${short(sha256)}): changed in the store`);
  else return kept.bytes;
  return undefined;
}

/** The case's working copies, in log order, each with its bytes: what `cases report` shows and `cases bundle` carries. */
export async function workingCopiesOf(store: StoreApi, inv: Pick<Investigation, 'working_copies'>): Promise<Kept<KeptWorkingCopy>> {
  const out: Kept<KeptWorkingCopy> = { files: [], missing: [] };
  for (const w of inv.working_copies) {
    const bytes = await keptBytes(store, w.sha256, `the working copy of entry ${w.entry} (working_copy_made)`, out.missing);
    if (bytes) out.files.push({ ...w, label: LABELS.working, bytes });
  }
  return out;
}

/** The exhibits the case's notes keep, each once (by sha256, the first note that kept it), with its bytes. */
export async function exhibitsOf(store: StoreApi, inv: Pick<Investigation, 'notes'>): Promise<Kept<KeptExhibit>> {
  const out: Kept<KeptExhibit> = { files: [], missing: [] };
  const seen = new Set<string>();
  for (const note of inv.notes) {
    for (const x of note.exhibits ?? []) {
      if (seen.has(x.sha256)) continue;
      seen.add(x.sha256);
      const bytes = await keptBytes(store, x.sha256, `the exhibit ${x.name} of entry ${note.entry} (note_made)`, out.missing);
      if (bytes) out.files.push({ ...x, label: LABELS.exhibit, entry: note.entry, bytes });
    }
  }
  return out;
}
