/**
 * Provenance kept before stripping: right before a job's image is made into its
 * upload (metadata removed, unless --keep-metadata), the original is read once more and what it
 * says about itself (image/embedded.ts: its metadata as exiftool-style JSON, its C2PA credentials)
 * is kept in the store under the original's sha256, where a case's input_hashed entry finds it
 * (batch/case-custody.ts). Nothing of it is sent. --no-store keeps it out of the store as well.
 *
 * Not for a URL (the service fetches it; geo never has its bytes) nor for a video's frame (made by
 * ffmpeg, it says nothing of its own; the video is the original). A file that changed since it was
 * hashed is left alone: its upload fails anyway (InputChangedError), and a record under its old
 * sha256 would describe other bytes (checked where the file is read whole). Never fails the job:
 * what could not be read is said once.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { readFileHead } from '../files/read.js';
import { findC2pa, jpegHeader } from '../image/c2pa-find.js';
import { type EmbeddedProvenance, readEmbedded } from '../image/embedded.js';
import { SNIFF_BYTES, sniffKind } from '../image/sniff.js';
import type { StoreApi } from '../store/index.js';
import type { Job } from './sources.js';

/** Originals up to this size are read whole (a C2PA manifest's hash covers every byte); larger, only their start. */
export const EMBEDDED_WHOLE_BYTES = 64 * 1024 * 1024;
const HEAD_BYTES = 16 * 1024 * 1024;
/** A JPEG's metadata sits before its image data: this much is read first (as files/read.ts readForExif does). */
const JPEG_HEAD_BYTES = 256 * 1024;

/**
 * The original's bytes as the job found them: held (stdin, frames) or on disk. A JPEG whose
 * segments all fit its first 256 KiB and hold no C2PA manifest is read no further: its metadata is
 * all there, and a 15 MB photo is not held whole once more just before its upload streams it
 * (bench/image.mjs). `whole`: all of the file, whose sha256 can be compared with the job's.
 */
async function originalBytes(job: Job): Promise<{ bytes: Uint8Array; whole: boolean; partial?: string } | undefined> {
  const s = job.source;
  if (s.kind === 'url') return undefined;
  const held = s.kind === 'downscale' ? undefined : s.image.bytes;
  if (held) return { bytes: held, whole: true };
  const path = s.kind === 'downscale' ? s.path : s.image.source;
  const head = await readFileHead(path, JPEG_HEAD_BYTES);
  if (sniffKind(head.subarray(0, SNIFF_BYTES)) === 'jpeg') {
    const end = jpegHeader(head).end;
    if (end !== undefined && !findC2pa(head.subarray(0, end), 'jpeg')) return { bytes: head.subarray(0, end), whole: false };
  }
  const size = (await stat(path)).size;
  if (size <= EMBEDDED_WHOLE_BYTES) return { bytes: await readFile(path), whole: true };
  return { bytes: await readFileHead(path, HEAD_BYTES), whole: false, partial: `only the first ${HEAD_BYTES / 1024 / 1024} MB were read (file over ${EMBEDDED_WHOLE_BYTES / 1024 / 1024} MB)` };
}

/** What the job's original says about itself, or undefined when geo has no original of its own to read. */
export async function embeddedOf(job: Job): Promise<EmbeddedProvenance | undefined> {
  if (job.sha256 === null || (job.origin && 'video' in job.origin)) return undefined;
  const got = await originalBytes(job);
  if (!got) return undefined;
  if (got.whole && createHash('sha256').update(got.bytes).digest('hex') !== job.sha256) return undefined;
  const kind = sniffKind(got.bytes.subarray(0, SNIFF_BYTES));
  return readEmbedded(got.bytes, kind, got.partial ? { partial: got.partial } : {});
}

/** Reads and stores it; a line for the user when it could not be (the job goes on regardless). */
export async function keepEmbedded(store: StoreApi, job: Job): Promise<string | undefined> {
  try {
    if (job.sha256 !== null && (await store.embedded(job.sha256))) return undefined;
    const e = await embeddedOf(job);
    if (e) await store.saveEmbedded(job.sha256!, e);
    return undefined;
  } catch (err) {
    return `${job.inputs[0]}: what it says about itself (metadata, C2PA) was not kept: ${err instanceof Error ? err.message : String(err)}`;
  }
}
