/**
 * Finding stored results the way analysts name them (geo history show, geo export): the image file
 * itself (hashed), a sha256 or a prefix of 6+ hex digits, or an analysis id. Each is one indexed
 * look-up (results.ts), however large the store.
 */
import { stat } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { sha256File } from '../files/read.js';
import type { StoreApi } from './api.js';
import type { CaseRow, StoredResult } from './index.js';

const HEX = /^[0-9a-f]{6,64}$/i;

async function isFile(path: string): Promise<boolean> {
  return stat(path).then((s) => s.isFile(), () => false);
}

/**
 * The stored results `ref` names, newest first: an existing file is hashed and found by its
 * sha256; otherwise a sha256 prefix (one image only, else a usage error listing them), then an
 * analysis id. Throws a UsageError with a hint when nothing matches.
 */
export async function findStored(store: StoreApi, ref: string, opts: { files?: boolean } = {}): Promise<StoredResult[]> {
  if (opts.files && (await isFile(ref))) {
    const sha = await sha256File(ref);
    const found = await store.bySha(sha);
    if (found.length) return found;
    throw new UsageError(`no stored result for ${ref} (sha256 ${sha.slice(0, 12)}…)`, `it was never located with this data folder, or with --no-store; geo locate ${ref} analyses it`);
  }
  if (HEX.test(ref)) {
    const images = await store.imagesWithPrefix(ref, 6);
    if (images.length > 1) throw new UsageError(`sha256 prefix ${ref} matches ${images.length >= 6 ? 'several' : images.length} images`, `use more digits: ${images.slice(0, 5).map((s) => s.slice(0, 12)).join(', ')}`);
    if (images.length === 1) return await store.bySha(images[0]!);
  }
  const byId = await store.byAnalysisId(ref);
  if (byId.length) return byId;
  throw new UsageError(
    `no stored result for ${JSON.stringify(ref)} (not ${opts.files ? 'an image file, ' : ''}a sha256 prefix or an analysis id on record)`,
    `the store is ${store.where}; list what it holds with: geo history`,
  );
}

/**
 * The one case `ref` names (geo's id, the service's id, or its name in any case); a
 * UsageError (exit 2) when none does or a name is shared, before anything is sent or written.
 */
export async function findCase(store: StoreApi, ref: string): Promise<CaseRow> {
  const found = await store.cases.find(ref);
  if (found.length === 1) return found[0]!;
  if (found.length === 0) {
    throw new UsageError(`no local case ${JSON.stringify(ref)} (not a case id or name in ${store.where})`, 'geo cases list shows them; geo cases create makes one');
  }
  const some = found.slice(0, 4).map((c) => `${c.id} (created ${c.created_at.slice(0, 10)})`).join(', ');
  throw new UsageError(`the name ${JSON.stringify(ref)} matches ${found.length} cases: ${some}${found.length > 4 ? ', …' : ''}`, 'name the case by its id');
}
