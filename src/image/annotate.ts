/**
 * A working copy with clue boxes drawn: each box (fractions of the width and height of the image
 * as it is displayed, the service's visual_clues bbox) outlined on a copy decoded from the
 * original's bytes, with its id beside it. The original's bytes are only read. Deterministic: the
 * same bytes and boxes, with the same sharp, give the same PNG (sharp writes no time or metadata
 * into it), so a copy made again is the same copy by sha256.
 */
import { MAX_DECODE_PIXELS } from './dimensions.js';
import { optionalSharp } from './sharp.js';

/** A box to draw: its id and where, as fractions (0-1) of the displayed width and height. */
export interface BoxToDraw {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A box as drawn, in whole pixels of the copy (the displayed image: EXIF orientation applied). */
export type PixelBox = BoxToDraw;

export interface Annotated {
  bytes: Buffer;
  media_type: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
  boxes: PixelBox[];
}

/** The outline's colour: magenta, rare in photographs, so a box stands out on street and sky alike. */
export const BOX_RGB: readonly [number, number, number] = [255, 0, 255];
const BOX_HEX = '#ff00ff';

type Raw = { data: Buffer; info: { width: number; height: number; channels: 1 | 2 | 3 | 4 } };
interface Pipeline {
  rotate(): Pipeline;
  raw(o: { depth: 'uchar' }): Pipeline;
  composite(layers: Array<{ input: Buffer; left: number; top: number }>): Pipeline;
  png(o: { compressionLevel: number }): Pipeline;
  jpeg(o: { quality: number; chromaSubsampling: '4:4:4' }): Pipeline;
  toBuffer(): Promise<Buffer>;
  toBuffer(o: { resolveWithObject: true }): Promise<Raw>;
}
type SharpFn = ((input: Buffer | Uint8Array, opts?: { limitInputPixels?: number; raw?: Raw['info'] }) => Pipeline) & { versions: { vips?: string; sharp?: string } };

/** What draws, and its version ("sharp 0.35.5 (libvips 8.18.7)"), or undefined when sharp is not installed. */
/** PNG (lossless: the photo's pixels as decoded) or JPEG (a fraction of the size; the outlines kept sharp by full-resolution colour). */
export type CopyEncoding = 'png' | 'jpeg';

export async function boxDrawer(): Promise<{ name: string; draw: (image: Uint8Array, boxes: readonly BoxToDraw[], encoding?: CopyEncoding) => Promise<Annotated> } | undefined> {
  const sharp = await optionalSharp<SharpFn>();
  if (!sharp) return undefined;
  const v = sharp.versions ?? {};
  return { name: `sharp ${v.sharp ?? '(version unknown)'}${v.vips ? ` (libvips ${v.vips})` : ''}`, draw: (image, boxes, encoding = 'png') => drawBoxes(sharp, image, boxes, encoding) };
}

/** The fraction's pixel edge, kept inside the image. */
const edge = (f: number, size: number) => Math.min(size, Math.max(0, Math.round(f * size)));

/** Each box in whole pixels: at least one pixel wide and high. */
export function pixelBoxes(boxes: readonly BoxToDraw[], width: number, height: number): PixelBox[] {
  return boxes.map((b) => {
    const x = Math.min(edge(b.x, width), width - 1);
    const y = Math.min(edge(b.y, height), height - 1);
    return { id: b.id, x, y, width: Math.max(1, edge(b.x + b.width, width) - x), height: Math.max(1, edge(b.y + b.height, height) - y) };
  });
}

const escapeXml = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The overlay: each outline drawn inside its box's pixels (a stroke of whole pixels on whole-pixel
 * edges, so its edges are crisp and exactly where the box says), its id on a magenta tab just
 * above it (below it at the top of the image, inside it when neither fits).
 */
export function overlaySvg(boxes: readonly PixelBox[], width: number, height: number): string {
  const short = Math.min(width, height);
  const stroke = Math.max(2, Math.round(short / 250));
  // Readable on a photo, and no taller than a third of a thumbnail.
  const font = Math.max(Math.min(12, Math.round(short / 3)), Math.round(short / 40));
  const tabH = Math.round(font * 1.3);
  const parts = boxes.map((b) => {
    const s = Math.min(stroke, Math.floor(Math.min(b.width, b.height) / 2)) || 1;
    const rect = `<rect x="${b.x + s / 2}" y="${b.y + s / 2}" width="${Math.max(0, b.width - s)}" height="${Math.max(0, b.height - s)}" fill="none" stroke="${BOX_HEX}" stroke-width="${s}"/>`;
    const tabW = Math.min(width, Math.round(b.id.length * font * 0.62 + font * 0.6));
    const top = b.y >= tabH ? b.y - tabH : b.y + b.height + tabH <= height ? b.y + b.height : b.y;
    const left = Math.min(b.x, width - tabW);
    const label = `<rect x="${left}" y="${top}" width="${tabW}" height="${tabH}" fill="${BOX_HEX}"/><text x="${left + Math.round(font * 0.3)}" y="${top + Math.round(font * 1.02)}" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="${font}" fill="#000000">${escapeXml(b.id)}</text>`;
    return rect + label;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${parts.join('')}</svg>`;
}

/**
 * The copy: decoded with its EXIF orientation applied (the boxes are in the displayed image's
 * coordinates), the overlay composited on the pixels, encoded as PNG (lossless: the photo's pixels
 * outside the outlines are the original's, decoded) or JPEG (a 12 MP photo's PNG is some 30 MB,
 * its JPEG at quality 92 some 5 MB). A header claiming more pixels than geo
 * decodes is refused by sharp before decoding.
 */
async function drawBoxes(sharp: SharpFn, image: Uint8Array, boxes: readonly BoxToDraw[], encoding: CopyEncoding): Promise<Annotated> {
  const raw = await sharp(image, { limitInputPixels: MAX_DECODE_PIXELS }).rotate().raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  const { width, height } = raw.info;
  const drawn = pixelBoxes(boxes, width, height);
  const svg = Buffer.from(overlaySvg(drawn, width, height), 'utf8');
  const drawnOn = sharp(raw.data, { raw: raw.info, limitInputPixels: MAX_DECODE_PIXELS }).composite([{ input: svg, left: 0, top: 0 }]);
  const bytes = await (encoding === 'jpeg' ? drawnOn.jpeg({ quality: 92, chromaSubsampling: '4:4:4' }) : drawnOn.png({ compressionLevel: 6 })).toBuffer();
  return { bytes, media_type: encoding === 'jpeg' ? 'image/jpeg' : 'image/png', width, height, boxes: drawn };
}
