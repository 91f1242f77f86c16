/**
 * Pixel dimensions from the container headers, without decoding: JPEG SOF, PNG IHDR, GIF logical
 * screen, WebP VP8/VP8L/VP8X, TIFF IFD0, HEIC/AVIF `ispe`. Every read is bounds-checked, so a
 * truncated or fuzzed file gives undefined, never an exception.
 */
import { boxes, metaBox } from './heif-boxes.js';
import type { ImageKind } from './sniff.js';

export interface Dimensions {
  width: number;
  height: number;
}

/**
 * The most pixels geo decodes locally (conversion to JPEG, --downscale, report thumbnails). A decoded
 * pixel costs 3-4 bytes, so a 35-byte GIF whose header claims 20000x20000 asks for ~1.6 GB before
 * a single row is read (a decompression bomb found 3.9 GB, and 11 GB for an 8 KB TIFF).
 * 120 MP is above the largest camera sensors (~102 MP medium format) and a fifth of sharp's own
 * default (268 MP), which it would still decode.
 */
export const MAX_DECODE_PIXELS = 120_000_000;

/**
 * How much of a file is read to find its dimensions. A JPEG's SOF follows its APPn segments (EXIF,
 * XMP and ICC are at most 64 KiB each); a TIFF's IFD0 is usually near the start. Where the header
 * is not found in this much, sharp's own limitInputPixels (set to the same bound) still refuses
 * from the header before decoding.
 */
export const DIMENSIONS_HEAD_BYTES = 256 * 1024;

/** "20,000 x 20,000 pixels (400 MP)" when the dimensions pass MAX_DECODE_PIXELS, else undefined. */
export function tooManyPixels(d: Dimensions | undefined): string | undefined {
  if (!d || d.width * d.height <= MAX_DECODE_PIXELS) return undefined;
  const n = (v: number) => v.toLocaleString('en-US');
  return `${n(d.width)} x ${n(d.height)} pixels (${Math.round((d.width * d.height) / 1e6)} MP)`;
}

export function readDimensions(buf: Uint8Array, kind: ImageKind): Dimensions | undefined {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  try {
    const d = byKind(b, kind);
    return d && d.width > 0 && d.height > 0 ? d : undefined;
  } catch {
    return undefined; // RangeError from a read past the end: a truncated header
  }
}

function byKind(b: Buffer, kind: ImageKind): Dimensions | undefined {
  switch (kind) {
    case 'jpeg':
      return jpeg(b);
    case 'png':
      return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
    case 'gif':
      return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
    case 'webp':
      return webp(b);
    case 'tiff':
      return tiff(b);
    case 'heic':
    case 'avif':
      return ispe(b);
    default:
      return undefined;
  }
}

/** Walks the marker segments to the first SOFn (C0-CF except DHT C4, JPG C8, DAC CC). */
function jpeg(b: Buffer): Dimensions | undefined {
  let p = 2;
  while (p + 4 <= b.length) {
    if (b[p] !== 0xff) return undefined;
    const marker = b[p + 1]!;
    if (marker === 0xff) {
      p++; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      p += 2; // markers without a length
      continue;
    }
    const len = b.readUInt16BE(p + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: b.readUInt16BE(p + 5), width: b.readUInt16BE(p + 7) };
    }
    if (marker === 0xda || marker === 0xd9) return undefined; // image data began before any SOF
    p += 2 + len;
  }
  return undefined;
}

function webp(b: Buffer): Dimensions | undefined {
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8X') return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
  if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  if (chunk === 'VP8 ') return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  return undefined;
}

/** IFD0's ImageWidth (256) and ImageLength (257), SHORT or LONG. */
function tiff(b: Buffer): Dimensions | undefined {
  const le = b[0] === 0x49;
  const u16 = (o: number) => (le ? b.readUInt16LE(o) : b.readUInt16BE(o));
  const u32 = (o: number) => (le ? b.readUInt32LE(o) : b.readUInt32BE(o));
  const ifd = u32(4);
  const count = u16(ifd);
  let width = 0;
  let height = 0;
  for (let i = 0; i < count; i++) {
    const e = ifd + 2 + i * 12;
    const tag = u16(e);
    const value = u16(e + 2) === 3 ? u16(e + 8) : u32(e + 8);
    if (tag === 256) width = value;
    if (tag === 257) height = value;
  }
  return { width, height };
}

/**
 * HEIF/AVIF: the `ispe` (image spatial extents) properties, found where ISO/IEC 23008-12 puts them,
 * meta > iprp > ipco, by walking the boxes, so bytes that merely spell "ispe" inside image data
 * are never read as a size. Tiled images carry one per tile (512x512) and one for the whole
 * picture; the largest is taken: the picture of a grid (as exiftool reports it), or the coded size
 * of one cropped by a clean aperture (exiftool shows the crop): at least what a decoder allocates,
 * which is what the pixel limit needs. A meta box cut short by the head read is walked as far as it goes.
 */
function ispe(b: Buffer): Dimensions | undefined {
  let best: Dimensions | undefined;
  const meta = metaBox(b);
  if (!meta) return undefined;
  for (const iprp of boxes(b, meta.body, meta.end, 'iprp'))
    for (const ipco of boxes(b, iprp.body, iprp.end, 'ipco'))
      for (const p of boxes(b, ipco.body, ipco.end, 'ispe')) {
        // A FullBox: 4 bytes of version and flags, then the width and the height.
        const width = b.readUInt32BE(p.body + 4);
        const height = b.readUInt32BE(p.body + 8);
        if (!best || width * height > best.width * best.height) best = { width, height };
      }
  return best;
}
