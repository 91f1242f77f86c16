/**
 * WebP, AVIF, TIFF and GIF become JPEG before upload (image_b64 takes "a JPEG or PNG", api-spec.md
 * "Geolocation request"), and --downscale fits an oversized image under the 20 MB base64 limit.
 * Both use sharp, imported only when an input needs it: most batches are JPEG and never pay for
 * loading libvips. sharp is an optional dependency, so its absence is a UsageError with a hint.
 */
import { LIMITS } from '../api/schemas.js';
import { UsageError } from '../errors.js';
import { MAX_DECODE_PIXELS, readDimensions, tooManyPixels } from '../image/dimensions.js';
import type { ImageKind } from '../image/sniff.js';
import { optionalSharp } from '../image/sharp.js';

/** The slice of sharp's API used here (sharp is optional, so its types may not be installed). */
interface SharpPipeline {
  rotate(): SharpPipeline;
  resize(o: { width: number; height: number; fit: 'inside'; withoutEnlargement: boolean }): SharpPipeline;
  withMetadata(): SharpPipeline;
  jpeg(o: { quality: number; mozjpeg?: boolean }): SharpPipeline;
  metadata(): Promise<{ width?: number; height?: number; pages?: number }>;
  toBuffer(): Promise<Buffer>;
}
type SharpFactory = (input: string | Buffer, opts?: { animated?: boolean; limitInputPixels?: number | false }) => SharpPipeline;

export const CONVERTIBLE_KINDS = new Set(['webp', 'avif', 'tiff', 'gif']);
export const DIRECT_KINDS = new Set(['jpeg', 'png']);

/** base64 of n bytes is 4·ceil(n/3) characters. */
export function b64Length(bytes: number): number {
  return 4 * Math.ceil(bytes / 3);
}
export function fitsLimit(bytes: number): boolean {
  return b64Length(bytes) <= LIMITS.imageB64MaxChars;
}

let sharpPromise: Promise<SharpFactory> | undefined;

/** Loads sharp once; throws a UsageError that says how to get it. */
export function loadSharp(why: string): Promise<SharpFactory> {
  sharpPromise ??= (async () => {
    const sharp = await optionalSharp<SharpFactory>();
    if (!sharp) throw new UsageError(`${why} needs the optional image library sharp, which is not installed`, 'npm install sharp (in the folder geo is installed in), or convert the images to JPEG first');
    return sharp;
  })();
  // A failed load is not cached as failed forever: the user may install sharp and the process retry.
  sharpPromise.catch(() => (sharpPromise = undefined));
  return sharpPromise;
}

export function heicError(input: string): UsageError {
  return new UsageError(`${input}: HEIC/HEIF images are not supported`, 'export it as JPEG first (Photos: File > Export; macOS: sips -s format jpeg in.heic --out out.jpg)');
}

export function tooLargeError(input: string, bytes: number): UsageError {
  const mb = (n: number) => (n / 1_000_000).toFixed(1);
  return new UsageError(
    `${input}: ${mb(bytes)} MB image would be ${mb(b64Length(bytes))} MB as base64, above the 20 MB limit`,
    'add --downscale to fit it under the limit as JPEG, or give a smaller image',
  );
}

/**
 * Refuses an image whose header claims more pixels than geo decodes (MAX_DECODE_PIXELS), before
 * sharp is even loaded: a decompression bomb costs a header read, not gigabytes. `head` is the
 * file's first DIMENSIONS_HEAD_BYTES (or all of it).
 */
export function checkDecodable(input: string, head: Uint8Array, kind: ImageKind): void {
  const claim = tooManyPixels(readDimensions(head, kind));
  if (claim === undefined) return;
  const mp = MAX_DECODE_PIXELS / 1e6;
  throw new UsageError(
    `${input}: the image claims ${claim}, above the ${mp} MP geo decodes locally (a decompression bomb?); nothing was sent`,
    `if it is a real image, shrink it below ${mp} MP with another tool first`,
  );
}

/** sharp refuses past this many pixels from the header too (for headers checkDecodable did not find). */
const SHARP_LIMITS = { limitInputPixels: MAX_DECODE_PIXELS };

/** Decodes any format sharp reads and encodes JPEG (first frame of an animation; EXIF kept). */
export async function toJpeg(input: string, src: string | Buffer): Promise<Buffer> {
  const sharp = await loadSharp(`converting ${input} to JPEG`);
  try {
    return await sharp(src, { animated: false, ...SHARP_LIMITS }).rotate().withMetadata().jpeg({ quality: 92 }).toBuffer();
  } catch (err) {
    throw new UsageError(`${input}: cannot convert to JPEG (${err instanceof Error ? err.message : String(err)})`);
  }
}

/**
 * Shrinks until the base64 fits, keeping the aspect ratio. Pixel area scales roughly with bytes,
 * so each pass scales the sides by sqrt(limit / size) with a 10% margin; a few passes at most.
 */
export async function downscaleToFit(input: string, src: string | Buffer): Promise<Buffer> {
  const sharp = await loadSharp(`--downscale of ${input}`);
  try {
    return await shrinkUntilItFits(sharp, input, src);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`${input}: cannot downscale (${err instanceof Error ? err.message : String(err)})`);
  }
}

async function shrinkUntilItFits(sharp: SharpFactory, input: string, src: string | Buffer): Promise<Buffer> {
  const maxBytes = Math.floor((LIMITS.imageB64MaxChars / 4) * 3);
  const meta = await sharp(src, SHARP_LIMITS).metadata();
  let width = meta.width ?? 8000;
  let height = meta.height ?? 8000;
  let quality = 90;
  for (let pass = 0; pass < 6; pass++) {
    const out = await sharp(src, { animated: false, ...SHARP_LIMITS })
      .rotate()
      .resize({ width, height, fit: 'inside', withoutEnlargement: true })
      .withMetadata()
      .jpeg({ quality })
      .toBuffer();
    if (out.length <= maxBytes) return out;
    const f = Math.sqrt(maxBytes / out.length) * 0.9;
    width = Math.max(1, Math.floor(width * f));
    height = Math.max(1, Math.floor(height * f));
    quality = Math.max(70, quality - 5);
  }
  throw new UsageError(`${input}: could not fit the image under the 20 MB limit`);
}
