/**
 * The image a report or KMZ carries: the HTML report's data: URL, a KMZ's files/ entry. With
 * `sharp` installed the image is downscaled to a 1024 px JPEG (sharp writes no metadata, so the
 * photo's EXIF stays behind), so a 15 MB photo does not make a 20 MB report; without it, the
 * original bytes are embedded without their metadata (strip.ts: lossless, as uploads are), so a
 * report mailed on never carries the photo's GPS, camera serial or owner either.
 */
import { MAX_DECODE_PIXELS, readDimensions, tooManyPixels } from '../../image/dimensions.js';
import { type ImageKind, MIME, sniffKind } from '../../image/sniff.js';
import { bufferSource, joinPlan, planStrip } from '../../image/strip.js';
import { optionalSharp } from '../../image/sharp.js';

const MAX_EDGE = 1024;
/** What a browser shows in an <img>: anything else is not embedded. */
const EMBEDDABLE: ReadonlySet<ImageKind> = new Set<ImageKind>(['jpeg', 'png', 'gif', 'webp']);

/** JPEG, PNG, WebP and GIF by magic bytes (image/sniff.ts); undefined for anything else. */
export function sniffImageMime(b: Uint8Array): string | undefined {
  const kind = sniffKind(b);
  return EMBEDDABLE.has(kind) ? MIME[kind] : undefined;
}

type SharpFn = (input: Uint8Array, opts?: { limitInputPixels?: number }) => {
  rotate(): ReturnType<SharpFn>;
  resize(o: { width: number; height: number; fit: 'inside'; withoutEnlargement: boolean }): ReturnType<SharpFn>;
  jpeg(o: { quality: number }): ReturnType<SharpFn>;
  toBuffer(): Promise<Buffer>;
};

export interface Thumbnail {
  mime: string;
  bytes: Uint8Array;
}

/**
 * The image to embed (the report's data: URL, a KMZ's files/ entry): a JPEG of at most `maxEdge`
 * px with sharp, else the original bytes; undefined for what a browser does not show.
 */
export async function thumbnailImage(bytes: Uint8Array, opts: { useSharp?: boolean; maxEdge?: number } = {}): Promise<Thumbnail | undefined> {
  const kind = sniffKind(bytes);
  if (!EMBEDDABLE.has(kind)) return undefined;
  // A header claiming more pixels than geo decodes (a decompression bomb) is neither decoded here
  // nor embedded for the browser to decode.
  if (tooManyPixels(readDimensions(bytes, kind)) !== undefined) return undefined;
  if (opts.useSharp !== false) {
    const sharp = await optionalSharp<SharpFn>();
    if (sharp) {
      try {
        const edge = opts.maxEdge ?? MAX_EDGE;
        const small = await sharp(bytes, { limitInputPixels: MAX_DECODE_PIXELS }).rotate().resize({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 80 }).toBuffer();
        return { mime: 'image/jpeg', bytes: small };
      } catch {
        // A file sharp cannot decode is still shown as is.
      }
    }
  }
  return { mime: MIME[kind], bytes: await withoutMetadata(bytes, kind) };
}

/** JPEG and PNG minus their metadata; other kinds as they are. */
async function withoutMetadata(bytes: Uint8Array, kind: ImageKind): Promise<Uint8Array> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const plan = await planStrip(bufferSource(buf), kind);
  return plan.removed.length === 0 ? bytes : joinPlan(buf, plan);
}

export async function thumbnailDataUrl(bytes: Uint8Array, opts: { useSharp?: boolean; maxEdge?: number } = {}): Promise<string | undefined> {
  const t = await thumbnailImage(bytes, opts);
  return t && `data:${t.mime};base64,${Buffer.from(t.bytes).toString('base64')}`;
}
