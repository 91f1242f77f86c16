/**
 * The image a report or KMZ embeds for a result: only the file the record vouches for.
 * A results file is data anyone can write, so the path it names is a claim: the file's bytes must
 * hash to the record's sha256, and a record without one embeds nothing (an empty sha256 once let a
 * crafted file pull any local photo into a report). Under `geo mcp` the path must also be inside
 * the allowed folders (`confine`). Whatever is left out, the report says why.
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/** Larger images are not embedded: a report should stay mailable (sharp, when present, shrinks the rest). */
export const MAX_EMBED_BYTES = 25 * 1024 * 1024;

export type VouchedImage = { imageBytes: Uint8Array } | { missingImage: string };

export interface VouchOptions {
  /** The bytes this run read from stdin (`geo locate -`), checked like a file's. */
  stdinBytes?: Uint8Array;
  /** The path to read instead (its real path), or a throw when it may not be read (geo mcp --allow-dir). */
  confine?: (path: string) => Promise<string>;
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const isUrl = (p: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(p);

export async function vouchedImage(input: { path: string; sha256: string }, o: VouchOptions = {}): Promise<VouchedImage> {
  const { path } = input;
  // Fetched by geo (its copy went when the run ended) or by the service: no file of it here.
  if (isUrl(path)) return { missingImage: `image named by its URL, no copy on this machine: ${path}` };
  if (!/^[0-9a-f]{64}$/.test(input.sha256)) return { missingImage: `left out: the record carries no sha256, so no file can be shown to be its image (${path || 'no path'})` };
  const differs = `left out: ${path} is not the image this result was made from (its sha256 differs)`;
  if (path === '-') {
    if (!o.stdinBytes) return { missingImage: 'image came from stdin: not kept' };
    return sha256(o.stdinBytes) === input.sha256 ? { imageBytes: o.stdinBytes } : { missingImage: differs };
  }
  if (!path) return { missingImage: 'the record names no image file' };
  let real = path;
  if (o.confine) {
    try {
      real = await o.confine(path);
    } catch {
      return { missingImage: `left out: ${path} is outside the folders this server may read` };
    }
  }
  try {
    // One descriptor for the checks and the read; O_NONBLOCK so a FIFO named as a photo cannot stall geo.
    const fh = await open(real, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const st = await fh.stat();
      if (!st.isFile()) return { missingImage: `left out: ${path} is not a regular file` };
      if (st.size > MAX_EMBED_BYTES) return { missingImage: `image too large to embed: ${path}` };
      const bytes = await fh.readFile();
      return sha256(bytes) === input.sha256 ? { imageBytes: bytes } : { missingImage: differs };
    } finally {
      await fh.close();
    }
  } catch {
    return { missingImage: `image not found at ${path}` };
  }
}
