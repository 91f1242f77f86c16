/**
 * Image type from the first bytes, never from the file name: a PNG called photo.jpg is a PNG, and
 * a text file called photo.jpg is not an image at all.
 */
export type ImageKind = 'jpeg' | 'png' | 'webp' | 'avif' | 'tiff' | 'gif' | 'heic' | 'unknown';

export const MIME: Record<ImageKind, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  tiff: 'image/tiff',
  gif: 'image/gif',
  heic: 'image/heic',
  unknown: 'application/octet-stream',
};

/** Bytes sniffKind needs at most (an ftyp box with a few compatible brands). */
export const SNIFF_BYTES = 64;

const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs', 'mif1', 'msf1', 'mif2']);

function ascii(buf: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...buf.subarray(from, to));
}

export function sniffKind(buf: Uint8Array): ImageKind {
  const b = buf;
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 8 && ascii(b, 0, 8) === '\x89PNG\r\n\x1a\n') return 'png';
  if (b.length >= 6 && (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a')) return 'gif';
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return 'webp';
  if (b.length >= 4 && (ascii(b, 0, 4) === 'II*\0' || ascii(b, 0, 4) === 'MM\0*')) return 'tiff';
  if (b.length >= 12 && ascii(b, 4, 8) === 'ftyp') {
    // ISO-BMFF: the major brand, then compatible brands up to the box size. AVIF files often carry
    // the generic mif1 brand too, so look for avif/avis anywhere before calling it HEIF.
    const boxSize = Math.min(b.length, (((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0) || b.length);
    const brands = [ascii(b, 8, 12)];
    for (let p = 16; p + 4 <= boxSize; p += 4) brands.push(ascii(b, p, p + 4));
    if (brands.some((x) => x === 'avif' || x === 'avis')) return 'avif';
    if (brands.some((x) => HEIF_BRANDS.has(x))) return 'heic';
  }
  return 'unknown';
}

/** For "not an image" messages: what the bytes look like instead. */
export function describeNonImage(head: Uint8Array): string {
  const s = ascii(head, 0, Math.min(head.length, 8));
  if (s.startsWith('%PDF')) return 'a PDF document';
  if (s.startsWith('PK\x03\x04')) return 'a ZIP archive';
  if (s.startsWith('<') || s.startsWith('\xef\xbb\xbf<')) return 'HTML or XML text';
  if (s.startsWith('BM')) return 'a BMP image (not accepted; convert to JPEG or PNG)';
  // Printable ASCII, whitespace or UTF-8 lead/continuation bytes only: a text file.
  if (head.length > 0 && head.every((c) => c === 9 || c === 10 || c === 13 || (c >= 32 && c !== 127))) return 'text';
  return 'unrecognised bytes';
}
