/**
 * Metadata stays home: before upload, geo removes what a photo says about its owner
 * (EXIF GPS and camera serials, XMP, IPTC, comments, maker segments) without touching a pixel.
 * Lossless by construction: the result is the original's bytes minus whole segments or chunks, so
 * the JPEG entropy-coded data and the PNG IDAT go out byte for byte. Orientation survives as a
 * minimal EXIF holding only the Orientation tag, so the service sees the picture the right way up.
 *
 * What each format keeps and drops: strip-jpeg.ts and strip-png.ts; the plan they build:
 * strip-plan.ts; the TIFF inside EXIF: tiff.ts.
 *
 * The plan is a list of byte ranges of the original plus a few bytes made here, computed from the
 * segment headers: a 15 MB photo is never held whole (memory budget), its scan data is
 * walked in 64 KiB windows only to find EOI.
 */
import { type FileHandle, open } from 'node:fs/promises';
import type { ImageKind } from './sniff.js';
import { planJpeg, WINDOW } from './strip-jpeg.js';
import type { ByteSource, Removed, StripPlan } from './strip-plan.js';
import { planPng } from './strip-png.js';

export type { ByteSource, Piece, Removed, StripPlan } from './strip-plan.js';

export function bufferSource(buf: Buffer): ByteSource {
  return { size: buf.length, read: async (pos, len) => buf.subarray(pos, Math.min(buf.length, pos + len)) };
}

/**
 * A file read through one window buffer, reused: what read() returns is valid until the next read
 * (the planners use each answer before asking again). A new buffer per window would leave the whole
 * scan behind as garbage until a collection: 15 MB of it for a 15 MB photo (bench/image.mjs).
 */
export async function withFileSource<T>(path: string, fn: (src: ByteSource) => Promise<T>): Promise<T> {
  const fh: FileHandle = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    let buf = Buffer.allocUnsafe(WINDOW);
    let winStart = -1;
    let winLength = 0;
    const read = async (pos: number, len: number): Promise<Buffer> => {
      if (pos >= winStart && pos + len <= winStart + winLength) return buf.subarray(pos - winStart, pos - winStart + len);
      if (len > buf.length) buf = Buffer.allocUnsafe(len); // one APP1 segment at most: 64 KiB
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
      winStart = pos;
      winLength = bytesRead;
      return buf.subarray(0, Math.min(len, bytesRead));
    };
    return await fn({ size, read });
  } finally {
    await fh.close();
  }
}

/** The removal plan for a JPEG or PNG; other kinds (converted by sharp, which drops metadata) are sent whole. */
export async function planStrip(src: ByteSource, kind: ImageKind): Promise<StripPlan> {
  const plan = kind === 'jpeg' ? await planJpeg(src) : kind === 'png' ? await planPng(src) : undefined;
  if (!plan || plan.removed.length === 0) return { pieces: [{ from: 0, to: src.size }], size: src.size, removed: [] };
  return plan;
}

/** What was removed, for people: "EXIF (GPS, camera; 1,204 bytes), XMP (3,100 bytes); orientation (6) kept". */
export function describeRemoval(removed: readonly Removed[], orientation?: number): string {
  if (removed.length === 0) return 'no metadata to remove';
  const parts = removed.map((r) => `${r.what.replace(/\)$/, '')}${r.what.endsWith(')') ? '; ' : ' ('}${r.bytes.toLocaleString('en-US')} bytes)`);
  return `${parts.join(', ')}${orientation !== undefined ? `; orientation (${orientation}) kept` : ''}`;
}

/** The bytes `plan` sends, joined, for an image held in memory. */
export function joinPlan(buf: Buffer, plan: StripPlan): Buffer {
  return Buffer.concat(plan.pieces.map((p) => (Buffer.isBuffer(p) ? p : buf.subarray(p.from, p.to))));
}
