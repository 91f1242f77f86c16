/**
 * --keep-original: the bytes of an input exactly as geo read them (a file's, or a photo's as geo
 * fetched it from the web) kept in the store by their sha256 (store/kept-rows.ts) once an answer
 * for them is settled, so that `geo cases bundle --with-originals` carries them when the file is
 * no longer on this machine or the URL no longer serves them. Only bytes that still hash to the
 * sha256 the answer was filed under are kept; a video's frames are not (the video is their original).
 * Never sent anywhere.
 */
import { sha256Hex } from '../evidence/custody.js';
import { openRegularFile } from '../files/read.js';
import { MIME, SNIFF_BYTES, sniffKind } from '../image/sniff.js';
import type { StoreApi } from '../store/index.js';
import type { Job } from './sources.js';
import { originalOf } from './perceptual.js';

/** The original's bytes: held (stdin), or read whole from where the job reads them (a file, a fetched photo's copy). */
async function originalBytes(job: Job): Promise<Buffer | undefined> {
  const o = originalOf(job);
  if (o === undefined || typeof o !== 'string') return o && Buffer.from(o.buffer, o.byteOffset, o.byteLength);
  // Opened without blocking: a FIFO swapped in for the file since it was hashed is refused, not waited on.
  const fh = await openRegularFile(o);
  try {
    return await fh.readFile();
  } finally {
    await fh.close();
  }
}

/** Keeps the job's original; a line for the user when it could not be (the answer stands regardless). */
export async function keepOriginal(store: StoreApi, job: Job): Promise<string | undefined> {
  if (job.sha256 === null || (job.origin && 'video' in job.origin)) return undefined;
  const name = job.inputs[0];
  try {
    const bytes = await originalBytes(job);
    if (!bytes) return undefined;
    if (sha256Hex(bytes) !== job.sha256) return `${name}: not kept as the original: it changed since it was hashed`;
    await store.kept.put(bytes, MIME[sniffKind(bytes.subarray(0, SNIFF_BYTES))]);
    return undefined;
  } catch (err) {
    return `${name}: not kept as the original: ${err instanceof Error ? err.message : String(err)}`;
  }
}
