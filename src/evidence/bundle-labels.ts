/**
 * What a bundle says each image is, held to its custody log, so a copy is never passed off as an
 * original: every member under originals/, working/ and exhibits/ carries its folder's label
 * (bundle-format.ts LABELS) and is named by its sha256; a working copy is one a working_copy_made
 * entry made (its sha256), from the original that entry names; an exhibit is one a note_made entry
 * keeps. The labels themselves are sealed: bundle-seal.ts holds the manifest's to the seal's.
 */
import { type BundleManifest, EXHIBITS_DIR, LABEL_DIRS, MANIFEST_NAME, ORIGINALS_DIR, WORKING_DIR } from './bundle-format.js';
import type { CustodyEntry } from './custody.js';
import type { InvestigationEvents } from './investigation-events.js';
import type { MemberDigest } from './zip-read.js';

type Copy = InvestigationEvents['working_copy_made']['copy'];
type Note = InvestigationEvents['note_made']['note'];
const short = (sha: unknown) => `${String(sha).slice(0, 12)}…`;

/** How many working copies and exhibits match their entries; each failure said through `fail`. */
export async function checkLabels(manifest: BundleManifest, entries: readonly CustodyEntry[] | undefined, digest: (p: string) => Promise<MemberDigest | undefined>, fail: (l: string) => void): Promise<{ working: number; exhibits: number }> {
  const labels = new Map((manifest.labels ?? []).map((l) => [l.path, l]));
  const numbered = (entries ?? []).map((e, i) => ({ n: i + 1, e }));
  const copies = numbered.filter(({ e }) => e.event === 'working_copy_made').map(({ n, e }) => ({ n, copy: (e.data.copy ?? {}) as Partial<Copy> }));
  const kept = new Set(numbered.flatMap(({ e }) => (e.event === 'note_made' ? ((e.data.note ?? {}) as Partial<Note>).exhibits ?? [] : []).map((x) => x.sha256)));
  const good = { working: 0, exhibits: 0 };
  for (const f of manifest.files) {
    const [dir, word] = LABEL_DIRS.find(([d]) => f.path.startsWith(d)) ?? [];
    if (!dir || !word) continue;
    const label = labels.get(f.path);
    labels.delete(f.path);
    const d = await digest(f.path);
    if (!d) continue;
    // Originals are held to their names and input_hashed entries by bundle-verify.ts; a bundle from
    // before labels has none for them.
    if (dir !== ORIGINALS_DIR && f.path.slice(dir.length).split('.')[0] !== d.sha256) {
      fail(`${f.path}: its content's sha256 is not the one in its name`);
      continue;
    }
    if (!label) {
      if (dir !== ORIGINALS_DIR || manifest.labels) fail(`${f.path}: the manifest does not label it (each original, working copy and exhibit is labelled)`);
      if (dir !== ORIGINALS_DIR) continue;
    } else if (label.label !== word || label.sha256 !== d.sha256) {
      fail(`${f.path}: labelled ${JSON.stringify(label.label)} with sha256 ${short(label.sha256)}, but it is an ${word} (${dir}) with sha256 ${short(d.sha256)}`);
      continue;
    }
    if (entries === undefined) continue;
    if (dir === WORKING_DIR) {
      const made = copies.find((c) => c.copy.sha256 === d.sha256);
      if (!made) fail(`${f.path}: no working_copy_made entry in the custody log has its sha256: not a working copy made for this case`);
      else if (label?.of !== made.copy.of?.sha256) fail(`${f.path}: its label says it was made from ${short(label?.of)}, entry ${made.n} (working_copy_made) from ${short(made.copy.of?.sha256)}`);
      else good.working++;
    } else if (dir === EXHIBITS_DIR) {
      if (!kept.has(d.sha256)) fail(`${f.path}: no note_made entry in the custody log keeps an exhibit with its sha256`);
      else good.exhibits++;
    }
  }
  for (const path of labels.keys()) fail(`${MANIFEST_NAME}: a label names ${path}, which is not among the bundle's originals, working copies or exhibits`);
  return good;
}
