/**
 * Is this file a video? By its first bytes, as images are (image/sniff.ts), never by its name alone:
 * MP4 and MOV (an ISO-BMFF `ftyp` box, or a QuickTime file opening on `moov`, `mdat`, `wide`,
 * `free` or `skip`), Matroska and WebM (EBML), AVI (RIFF … AVI). An `ftyp` of AVIF or HEIF is a
 * still image, not a video.
 */
import { open, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { UsageError } from '../errors.js';
import { describeNonImage, sniffKind } from '../image/sniff.js';

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

/** The first bytes of a regular file, or undefined (not a file, unreadable). */
async function headOf(path: string): Promise<Buffer | undefined> {
  let fh;
  try {
    // stat first: opening a FIFO would wait for a writer.
    if (!(await stat(path)).isFile()) return undefined;
    fh = await open(path, 'r');
    const head = Buffer.alloc(VIDEO_SNIFF_BYTES);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead);
  } catch {
    return undefined;
  } finally {
    await fh?.close();
  }
}

/** The video kind of a file, or undefined (not a video, a folder, unreadable: the caller decides). */
export async function videoKindOf(path: string): Promise<VideoKind | undefined> {
  const head = await headOf(path);
  return head ? sniffVideo(head) : undefined;
}

/** Names that say "video": what the user means by them, whatever the bytes turn out to be. */
const VIDEO_NAMES = new Set(['.mp4', '.m4v', '.mov', '.qt', '.webm', '.mkv', '.avi']);

/**
 * A file named like a video whose bytes are neither a video nor an image is refused with a line
 * about video (random bytes named x.mp4 read "not an image (unrecognised bytes)"), before
 * anything is decoded or sent. An image named x.mp4 is still an image: the bytes decide.
 */
export async function checkNamedVideo(input: string, path: string): Promise<void> {
  const ext = extname(path).toLowerCase();
  if (!VIDEO_NAMES.has(ext)) return;
  const head = await headOf(path);
  if (!head || sniffVideo(head) || sniffKind(head) !== 'unknown') return;
  throw new UsageError(
    `${input} is named like a video (${ext}) but its bytes are not a video geo can read (${describeNonImage(head)}): MP4 or MOV, WebM or Matroska, or AVI expected; nothing was sent`,
    'the type is read from the bytes, not the name; a partial download or a damaged file has no video header',
  );
}
