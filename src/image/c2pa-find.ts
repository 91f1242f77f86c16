/**
 * Whether an image carries an embedded C2PA manifest store, found without the C2PA library (so a
 * file without one never loads it): the store is a JUMBF superbox ("jumb") whose description box
 * ("jumd") holds the C2PA type UUID, which begins with the ASCII bytes "c2pa" (C2PA 2.1 §11.1.4.1,
 * ISO/IEC 19566-5). Where it sits depends on the format (C2PA 2.1 §A.3, "Embedding manifests"):
 * - JPEG: APP11 segments whose payload starts with the JPEG XT "JP" common identifier, then the box
 *   instance (2 bytes), the packet sequence (4), and the superbox; a large store spans several
 *   APP11 segments, each repeating the superbox header;
 * - PNG: one "caBX" chunk;
 * - other formats (HEIF/AVIF uuid box, WebP "C2PA" chunk, TIFF tag 0xCD41, GIF application block):
 *   the superbox is searched for in the bytes.
 * geo's upload never carries it: strip-jpeg.ts drops APP11, strip-png.ts drops caBX.
 */
import type { ImageKind } from './sniff.js';

export interface C2paLocation {
  /** Where the store sits, e.g. "JPEG APP11 (JUMBF)". */
  container: string;
  /** Its size as embedded: the segments' or chunk's payload bytes (absent where it was only searched for). */
  bytes?: number;
}

const JUMB = Buffer.from('jumb', 'latin1');
const JUMD_C2PA = Buffer.from('jumdc2pa', 'latin1');

export function findC2pa(bytes: Uint8Array, kind: ImageKind): C2paLocation | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (kind === 'jpeg') return inJpeg(buf);
  if (kind === 'png') return inPng(buf);
  return buf.includes(JUMD_C2PA) ? { container: `${kind.toUpperCase()} (JUMBF)` } : undefined;
}

/**
 * The marker segments of a JPEG before its first scan, in order, and where that scan starts (SOS):
 * every APPn (EXIF, XMP, IPTC, ICC, C2PA) is among them. `end` is undefined when `b` stops before
 * the scan, or the file ends (EOI) without one.
 */
export function jpegHeader(b: Buffer): { segments: Array<{ marker: number; at: number; end: number }>; end?: number } {
  const segments: Array<{ marker: number; at: number; end: number }> = [];
  let pos = 2;
  while (pos + 4 <= b.length && b[pos] === 0xff) {
    const marker = b[pos + 1]!;
    if (marker === 0xff) {
      pos += 1;
      continue;
    }
    if (marker === 0xda) return { segments, end: pos };
    if (marker === 0xd9) break;
    const end = pos + 2 + b.readUInt16BE(pos + 2);
    segments.push({ marker, at: pos, end });
    pos = end;
  }
  return { segments };
}

/** APP11 "JP" segments before the first scan whose superbox describes itself as C2PA. */
function inJpeg(b: Buffer): C2paLocation | undefined {
  let found = false;
  let total = 0;
  for (const { marker, at, end } of jpegHeader(b).segments) {
    if (marker !== 0xeb || b.toString('latin1', at + 4, at + 6) !== 'JP') continue;
    // "JP", En (2), Z (4), then LBox (4) and TBox "jumb"; then the jumd box: LBox (4), "jumd", UUID.
    const box = at + 4 + 8;
    if (b.subarray(box + 4, box + 8).equals(JUMB) && b.subarray(box + 12, box + 20).equals(JUMD_C2PA)) found = true;
    total += Math.max(0, Math.min(end, b.length) - (at + 4));
  }
  return found ? { container: 'JPEG APP11 (JUMBF)', bytes: total } : undefined;
}

function inPng(b: Buffer): C2paLocation | undefined {
  for (let pos = 8; pos + 8 <= b.length; ) {
    const len = b.readUInt32BE(pos);
    if (b.toString('latin1', pos + 4, pos + 8) === 'caBX') return { container: 'PNG caBX chunk', bytes: len };
    if (b.toString('latin1', pos + 4, pos + 8) === 'IEND') break;
    pos += 12 + len;
  }
  return undefined;
}
