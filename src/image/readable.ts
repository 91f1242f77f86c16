/**
 * Whether the local decoder (sharp, libvips) can read a JPEG or PNG at all, before it is sent. A
 * file cut short or fuzzed before its header was whole (no image size can be read from it) is
 * decoded once at a thumbnail's size (libjpeg shrinks on load, so this costs little); when even
 * that fails, nothing in it can be read, and it is refused rather than paid for. A file whose
 * header reads is not decoded here: most batches never load libvips, and a file cut in its pixel
 * data still decodes in part (the rows that arrived), which the service may read as well.
 */
import { readFileHead } from '../files/read.js';
import { DIMENSIONS_HEAD_BYTES, MAX_DECODE_PIXELS, readDimensions } from './dimensions.js';
import type { LocalImage } from './local-image.js';
import { optionalSharp } from './sharp.js';

/** The slice of sharp's API used here (sharp is optional, so its types may not be installed). */
interface Decoder {
  resize(width: number, height: number, o: { fit: 'inside' }): Decoder;
  raw(): Decoder;
  toBuffer(): Promise<Buffer>;
}
type DecoderFactory = (input: string | Buffer, opts: { failOn: 'none'; limitInputPixels: number }) => Decoder;

export const DAMAGED_HINT = 'a partial download or a damaged file: fetch or copy it again, and check that it opens';

/**
 * Why the local decoder cannot read the image at all, or undefined when it can (or cannot be
 * asked: without sharp the file is sent, as it was before). `head`: the file's first bytes, when
 * the caller has them already.
 */
export async function unreadableReason(image: Pick<LocalImage, 'kind' | 'source' | 'bytes'>, head?: Uint8Array): Promise<string | undefined> {
  if (image.kind !== 'jpeg' && image.kind !== 'png') return undefined;
  if (readDimensions(head ?? image.bytes ?? (await readFileHead(image.source, DIMENSIONS_HEAD_BYTES)), image.kind)) return undefined;
  const sharp = await optionalSharp<DecoderFactory>();
  if (!sharp) return undefined;
  try {
    // failOn 'none': rows that are there count as read; only a file with none fails.
    await sharp(image.bytes ?? image.source, { failOn: 'none', limitInputPixels: MAX_DECODE_PIXELS }).resize(16, 16, { fit: 'inside' }).raw().toBuffer();
    return undefined;
  } catch (err) {
    // libvips's message runs over several lines; its first says why.
    return `damaged: the local decoder cannot read it (${(err instanceof Error ? err.message : String(err)).split('\n')[0]})`;
  }
}
