/**
 * WebP, AVIF, TIFF, GIF and HEIC/HEIF become JPEG before upload (image_b64 takes "a JPEG or PNG",
 * api-spec.md "Geolocation request"), and --downscale fits an oversized image under the 20 MB base64
 * limit. Both use sharp, imported only when an input needs it: most batches are JPEG and never pay
 * for loading libvips. sharp is an optional dependency, so its absence is a UsageError with a hint.
 * HEIC is decoded by libheif (image/heic.ts), loaded on the first HEIC, and sharp encodes its pixels.
 */
import { readFile, stat } from 'node:fs/promises';
import { LIMITS } from '../api/schemas.js';
import { UsageError } from '../errors.js';
import { type Dimensions, MAX_DECODE_PIXELS, readDimensions, tooManyPixels } from '../image/dimensions.js';
import { type HeifPicture, MAX_HEIC_BYTES, type RawRgb, openHeif } from '../image/heic.js';
import { heifExifTiff } from '../image/heif-boxes.js';
import { jpegWithExif } from '../image/jpeg-exif.js';
import { uprightTiff } from '../image/tiff.js';
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
interface SharpOptions {
  animated?: boolean;
  limitInputPixels?: number | false;
  raw?: { width: number; height: number; channels: 3 };
}
type SharpFactory = (input: string | Buffer, opts?: SharpOptions) => SharpPipeline;

export const CONVERTIBLE_KINDS = new Set(['webp', 'avif', 'tiff', 'gif', 'heic']);
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
  refuseTooManyPixels(input, readDimensions(head, kind));
}

function refuseTooManyPixels(input: string, d: Dimensions | undefined): void {
  const claim = tooManyPixels(d);
  if (claim === undefined) return;
  const mp = MAX_DECODE_PIXELS / 1e6;
  throw new UsageError(
    `${input}: the image claims ${claim}, above the ${mp} MP geo decodes locally (a decompression bomb?); nothing was sent`,
    `if it is a real image, shrink it below ${mp} MP with another tool first`,
  );
}

/** sharp refuses past this many pixels from the header too (for headers checkDecodable did not find). */
const SHARP_LIMITS = { limitInputPixels: MAX_DECODE_PIXELS };


interface SharpInput {
  src: string | Buffer;
  opts: SharpOptions;
  /** A HEIC's EXIF (its TIFF block, orientation upright), which its decoded pixels do not carry. */
  exif?: Buffer;
}

/** What sharp reads: the file or bytes as they are, or for HEIC, libheif's pixels (decoded once). */
async function sharpInput(input: string, src: string | Buffer, kind: ImageKind): Promise<SharpInput> {
  if (kind !== 'heic') return { src, opts: SHARP_LIMITS };
  const bytes = await heicBytes(input, src);
  const raw = await heicPixels(input, bytes);
  const exif = heifExifTiff(bytes);
  return { src: raw.data, opts: { raw: { width: raw.width, height: raw.height, channels: raw.channels }, ...SHARP_LIMITS }, ...(exif ? { exif: uprightTiff(exif) } : {}) };
}

async function heicBytes(input: string, src: string | Buffer): Promise<Buffer> {
  if (typeof src !== 'string') return src;
  if ((await stat(src)).size > MAX_HEIC_BYTES) throw new UsageError(`${input}: a HEIC over ${MAX_HEIC_BYTES / 1e6} MB is not decoded here; nothing was sent`, 'export it as JPEG first');
  return readFile(src);
}

async function heicPixels(input: string, bytes: Buffer): Promise<RawRgb> {
  const fail = (err: unknown) =>
    err instanceof UsageError
      ? err
      : new UsageError(`${input}: cannot convert HEIC to JPEG (libheif: ${err instanceof Error ? err.message : String(err)}); nothing was sent`, 'a partial or damaged file, or a HEIF of a kind libheif-js does not decode: check that it opens, or export it as JPEG');
  let heif: HeifPicture;
  try {
    heif = await openHeif(bytes, `converting ${input} to JPEG`);
  } catch (err) {
    throw fail(err);
  }
  try {
    // The size libheif parsed from the boxes (grids and rotations applied), before any pixel is
    // allocated: a header checkDecodable did not find (meta after the image data) is caught here.
    refuseTooManyPixels(input, heif);
    return heif.decode();
  } catch (err) {
    throw fail(err);
  } finally {
    heif.free();
  }
}

/**
 * The first frame, upright, with the EXIF and ICC profile sharp read from the file (the upload
 * strips EXIF later, keeping orientation and profile). libheif's pixels are upright already and
 * carry neither: sharp would tag them with a default EXIF and an sRGB profile, so they get none.
 */
function pipeline(sharp: SharpFactory, { src, opts }: SharpInput): SharpPipeline {
  const p = sharp(src, { animated: false, ...opts }).rotate();
  return opts.raw ? p : p.withMetadata();
}

/**
 * A HEIC's EXIF goes into its JPEG only when it is to be sent (--keep-metadata): otherwise the
 * upload would strip it again, and the JPEG has none to begin with.
 */
function withExif(jpeg: Buffer, from: SharpInput, keepExif: boolean): Buffer {
  return (keepExif && from.exif && jpegWithExif(jpeg, from.exif)) || jpeg;
}

/** Decodes any format sharp reads, and HEIC, and encodes JPEG. */
export async function toJpeg(input: string, src: string | Buffer, kind: ImageKind, keepExif = false): Promise<Buffer> {
  const sharp = await loadSharp(`converting ${input} to JPEG`);
  const from = await sharpInput(input, src, kind);
  try {
    return withExif(await pipeline(sharp, from).jpeg({ quality: 92 }).toBuffer(), from, keepExif);
  } catch (err) {
    throw new UsageError(`${input}: cannot convert to JPEG (${err instanceof Error ? err.message : String(err)})`);
  }
}

/**
 * Shrinks until the base64 fits, keeping the aspect ratio. Pixel area scales roughly with bytes,
 * so each pass scales the sides by sqrt(limit / size) with a 10% margin; a few passes at most.
 */
export async function downscaleToFit(input: string, src: string | Buffer, kind: ImageKind, keepExif = false): Promise<Buffer> {
  const sharp = await loadSharp(`--downscale of ${input}`);
  const from = await sharpInput(input, src, kind);
  try {
    return withExif(await shrinkUntilItFits(sharp, input, from), from, keepExif);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`${input}: cannot downscale (${err instanceof Error ? err.message : String(err)})`);
  }
}

async function shrinkUntilItFits(sharp: SharpFactory, input: string, { src, opts }: SharpInput): Promise<Buffer> {
  const maxBytes = Math.floor((LIMITS.imageB64MaxChars / 4) * 3);
  const meta = await sharp(src, opts).metadata();
  let width = meta.width ?? 8000;
  let height = meta.height ?? 8000;
  let quality = 90;
  for (let pass = 0; pass < 6; pass++) {
    const out = await pipeline(sharp, { src, opts })
      .resize({ width, height, fit: 'inside', withoutEnlargement: true })
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
