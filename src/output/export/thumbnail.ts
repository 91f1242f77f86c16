/**
 * The report's embedded image: a data: URL. With `sharp` installed (optional, never a dependency)
 * the image is downscaled to a 1024 px JPEG so a 15 MB photo does not make a 20 MB report;
 * without it, the original bytes are embedded as they are.
 */
import { MAX_DECODE_PIXELS, readDimensions, tooManyPixels } from '../../local/dimensions.js';
import { sniffKind } from '../../local/sniff.js';

const MAX_EDGE = 1024;

/** JPEG, PNG, WebP and GIF by magic bytes; anything else is not embedded (a browser could not show it). */
export function sniffImageMime(b: Uint8Array): string | undefined {
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'image/png';
  if (b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46) return 'image/gif';
  if (b[8] === 0x57 && b[9] === 0x45 && b[10] === 0x42 && b[11] === 0x50) return 'image/webp';
  return undefined;
}

type SharpFn = (input: Uint8Array, opts?: { limitInputPixels?: number }) => {
  rotate(): ReturnType<SharpFn>;
  resize(o: { width: number; height: number; fit: 'inside'; withoutEnlargement: boolean }): ReturnType<SharpFn>;
  jpeg(o: { quality: number }): ReturnType<SharpFn>;
  toBuffer(): Promise<Buffer>;
};

async function loadSharp(): Promise<SharpFn | undefined> {
  const name = 'sharp'; // a variable, so neither tsc nor esbuild insists on the optional package
  try {
    const m = (await import(name)) as { default?: SharpFn };
    return m.default;
  } catch {
    return undefined;
  }
}

export async function thumbnailDataUrl(bytes: Uint8Array, opts: { useSharp?: boolean } = {}): Promise<string | undefined> {
  const mime = sniffImageMime(bytes);
  if (!mime) return undefined;
  // A header claiming more pixels than geo decodes (a decompression bomb) is neither decoded here
  // nor embedded for the browser to decode.
  if (tooManyPixels(readDimensions(bytes, sniffKind(bytes))) !== undefined) return undefined;
  if (opts.useSharp !== false) {
    const sharp = await loadSharp();
    if (sharp) {
      try {
        const small = await sharp(bytes, { limitInputPixels: MAX_DECODE_PIXELS }).rotate().resize({ width: MAX_EDGE, height: MAX_EDGE, fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 80 }).toBuffer();
        return `data:image/jpeg;base64,${small.toString('base64')}`;
      } catch {
        // A file sharp cannot decode is still shown as is.
      }
    }
  }
  return `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;
}
