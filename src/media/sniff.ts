/**
 * Is this file a video? By its first bytes, as images are (image/sniff.ts), never by its name alone:
 * MP4 and MOV (an ISO-BMFF `ftyp` box, or a QuickTime file opening on `moov`, `mdat`, `wide`,
 * `free` or `skip`), Matroska and WebM (EBML), AVI (RIFF … AVI). An `ftyp` of AVIF or HEIF is a
 * still image, not a video.
 */
import { open, stat } from 'node:fs/promises';
import { sniffKind } from '../image/sniff.js';

export type VideoKind = 'mp4' | 'mov' | 'webm' | 'mkv' | 'avi';

/** Bytes sniffVideo looks at: Matroska names its DocType within the first few dozen. */
export const VIDEO_SNIFF_BYTES = 64;

const QT_ATOMS = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

function ascii(b: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...b.subarray(from, Math.min(to, b.length)));
}

export function sniffVideo(b: Uint8Array): VideoKind | undefined {
  if (b.length >= 12 && ascii(b, 4, 8) === 'ftyp') {
    const still = sniffKind(b);
    if (still === 'avif' || still === 'heic') return undefined;
    return ascii(b, 8, 12) === 'qt  ' ? 'mov' : 'mp4';
  }
  if (b.length >= 8 && QT_ATOMS.has(ascii(b, 4, 8))) return 'mov';
  if (b.length >= 4 && b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return ascii(b, 4, b.length).includes('webm') ? 'webm' : 'mkv';
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'AVI ') return 'avi';
  return undefined;
}

/** The video kind of a file, or undefined (not a video, a folder, unreadable: the caller decides). */
export async function videoKindOf(path: string): Promise<VideoKind | undefined> {
  let fh;
  try {
    // stat first: opening a FIFO would wait for a writer.
    if (!(await stat(path)).isFile()) return undefined;
    fh = await open(path, 'r');
    const head = Buffer.alloc(VIDEO_SNIFF_BYTES);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    return sniffVideo(head.subarray(0, bytesRead));
  } catch {
    return undefined;
  } finally {
    await fh?.close();
  }
}
