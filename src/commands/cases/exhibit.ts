/**
 * An exhibit of a note (`--exhibit FILE --source URL|TEXT`): a reference photo or a map screenshot,
 * read whole (bounded as an input image is: 15,000,000 bytes, the API's 20 MB of base64), its type
 * read from its bytes, and kept in the store by its sha256 (store.kept) so the entry that names it
 * names exactly these bytes.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { MAX_IMAGE_BYTES } from '../../api/schemas.js';
import { UsageError } from '../../errors.js';
import { sha256Hex } from '../../evidence/custody.js';
import type { ExhibitRef } from '../../evidence/investigation-events.js';
import { readFileWhole } from '../../files/read.js';
import { readImage } from '../../image/local-image.js';
import type { StoreApi } from '../../store/index.js';

export interface ExhibitInput {
  file: string;
  /** Where it came from: a URL or words. */
  source: string;
}

/** An exhibit read and checked, not yet kept. */
export interface ReadExhibit {
  ref: ExhibitRef;
  bytes: Buffer;
}

const EXAMPLE = '--exhibit street-view.png --source "https://maps.example/…, 2024-05-02"';

/** Pairs each --exhibit with its --source, in the order given: one without the other is a usage error. */
export function pairExhibits(files: readonly string[] | undefined, sources: readonly string[] | undefined): ExhibitInput[] {
  const f = files ?? [];
  const s = sources ?? [];
  if (f.length !== s.length) {
    throw new UsageError(
      f.length > s.length ? `--exhibit ${JSON.stringify(f[s.length])} has no --source: say where each exhibit came from` : `--source ${JSON.stringify(s[f.length])} follows no --exhibit`,
      `each --exhibit FILE takes one --source URL|TEXT, e.g. ${EXAMPLE}`,
    );
  }
  return f.map((file, i) => ({ file, source: s[i]! }));
}

/** Reads one exhibit: a usage error (exit 2) for a missing, empty, too large or non-image file, or a source of no words. */
export async function readExhibit(x: ExhibitInput): Promise<ReadExhibit> {
  const source = x.source.trim();
  if (source === '') throw new UsageError(`--source for ${JSON.stringify(x.file)} is empty`, `say where the exhibit came from (a URL or words), e.g. ${EXAMPLE}`);
  if (x.file === '-') throw new UsageError('--exhibit takes a file, not standard input', 'save it to a file first: the entry names it');
  // Judged by size before a byte is read: a 4 GB file is refused at once.
  const st = await stat(x.file).catch(() => undefined);
  if (st?.isFile() && st.size > MAX_IMAGE_BYTES) throw new UsageError(`--exhibit ${x.file} is ${st.size.toLocaleString('en-US')} bytes, over the ${MAX_IMAGE_BYTES.toLocaleString('en-US')} bytes geo keeps for an exhibit`, 'keep a smaller copy (a screenshot, a resized photo)');
  const img = await readImage(x.file, Readable.from([]), { maxBytes: MAX_IMAGE_BYTES, ...(st ? { stat: st } : {}) }).catch((err: unknown) => {
    if (err instanceof UsageError) throw new UsageError(`--exhibit ${err.message}`, err.hint ?? 'an exhibit is an image: a reference photo or a map screenshot');
    throw err;
  });
  const bytes = img.bytes ?? (await readFileWhole(x.file, img.size));
  if (bytes.length !== img.size || sha256Hex(bytes) !== img.sha256) throw new UsageError(`--exhibit ${x.file} changed while it was read`, 'run it again once nothing writes to it');
  return { bytes, ref: { name: basename(x.file), sha256: img.sha256, size: img.size, media_type: img.mime, source } };
}

/** Keeps the exhibits' bytes (the same bytes twice are one row), after every input was checked. */
export async function keepExhibits(store: StoreApi, read: readonly ReadExhibit[]): Promise<ExhibitRef[]> {
  for (const x of read) await store.kept.put(x.bytes, x.ref.media_type);
  return read.map((x) => x.ref);
}
