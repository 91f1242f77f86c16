/**
 * The bytes geo uploads for a local JPEG or PNG: by default the original minus its
 * metadata (strip.ts), streamed from disk range by range; with --keep-metadata the file as it is.
 * What was sent is described for the provenance record and --dry-run: the sha256 and size of the
 * bytes that went out beside the file's own, and what was removed.
 */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { type ImageB64Source, InputChangedError } from '../api/body.js';
import { type Expected, readRanges, sha256File } from '../files/read.js';
import { type LocalImage, b64Length, encodeChunks } from './local-image.js';
import { type Piece, type Removed, bufferSource, planStrip, withFileSource } from './strip.js';

export { describeRemoval } from './strip.js';

/** What went out, as provenance records keep it (`sent`). */
export interface SentImage {
  sha256: string;
  size: number;
  /** removed: geo took metadata out; kept: --keep-metadata; none: the file had none to remove. */
  metadata: 'removed' | 'kept' | 'none';
  removed?: Removed[];
  /** EXIF Orientation carried over as a minimal EXIF. */
  orientation?: number;
}

export interface Outgoing {
  b64: ImageB64Source;
  sent: SentImage;
  /**
   * Makes sure `sent.sha256` is filled: it is taken as the bytes stream out, but a server may
   * answer before reading the whole body; then one more pass over the bytes takes it.
   */
  settle(): Promise<void>;
}

const CHUNK = 3 * 16 * 1024;

/**
 * The upload of `image`: without metadata unless `keep`. Files are never held whole: the plan
 * reads segment headers (and walks the scan for EOI), and the sha256 of the bytes sent is taken
 * as they stream out, on the first pass that completes (a retry resends the same bytes), not by a
 * pass of its own (a second read of a 15 MB photo cost 2-3 MiB of peak RSS; bench/image.mjs).
 * Callers that send nothing (--dry-run, inspect) ask for it with `hashNow`.
 */
export async function outgoingImage(image: LocalImage, keep: boolean, opts: { hashNow?: boolean } = {}): Promise<Outgoing> {
  const whole: SentImage = { sha256: image.sha256, size: image.size, metadata: keep ? 'kept' : 'none' };
  const settled = async () => undefined;
  const held = image.bytes;
  // A file is read again for every attempt: each read is checked against the sha256 taken when it
  // was loaded, and a resend checks it first. Bytes held in memory cannot change.
  const expect: Expected = { size: image.size, sha256: image.sha256, changed: () => new InputChangedError(image.source) };
  const verify = held ? {} : { verify: () => unchanged(image.source, expect) };
  const asIs = (): Outgoing => ({
    b64: held ? image.b64 : { length: image.b64.length, stream: () => encodeChunks(readRanges(image.source, [{ from: 0, to: image.size }], CHUNK, expect)), ...verify },
    sent: whole, settle: settled,
  });
  if (keep || (image.kind !== 'jpeg' && image.kind !== 'png')) return asIs();
  const plan = held ? await planStrip(bufferSource(held), image.kind) : await withFileSource(image.source, (src) => planStrip(src, image.kind));
  if (plan.removed.length === 0) return asIs();
  const pieces = () => (held ? inMemory(held, plan.pieces) : readRanges(image.source, plan.pieces, CHUNK, expect));
  const sent: SentImage = { sha256: '', size: plan.size, metadata: 'removed', removed: plan.removed, ...(plan.orientation !== undefined ? { orientation: plan.orientation } : {}) };
  async function* hashed(): AsyncGenerator<Buffer> {
    const hash = createHash('sha256');
    for await (const chunk of pieces()) {
      hash.update(chunk);
      yield chunk;
    }
    sent.sha256 ||= hash.digest('hex');
  }
  const settle = async () => {
    if (sent.sha256) return;
    const it = hashed();
    while (!(await it.next()).done) {
      // each chunk is hashed as it passes
    }
  };
  if (opts.hashNow) await settle();
  return { b64: { length: b64Length(plan.size), stream: () => encodeChunks(hashed()), ...verify }, sent, settle };
}

/** The file is still the one hashed: same size, same sha256 (one streamed pass, before a resend). */
async function unchanged(path: string, expect: Expected): Promise<void> {
  const s = await stat(path).catch(() => undefined);
  if (!s || s.size !== expect.size || (await sha256File(path).catch(() => '')) !== expect.sha256) throw expect.changed();
}

function* inMemory(buf: Buffer, pieces: readonly Piece[]): Iterable<Buffer> {
  for (const p of pieces) {
    if (Buffer.isBuffer(p)) yield p;
    else for (let at = p.from; at < p.to; at += CHUNK) yield buf.subarray(at, Math.min(p.to, at + CHUNK));
  }
}
