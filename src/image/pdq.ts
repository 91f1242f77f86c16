/**
 * PDQ, Meta's 256-bit perceptual hash (facebook/ThreatExchange, pdq/ and hashing/hashing.pdf),
 * written here from its published description on the pixels sharp decodes:
 *   1. luminance Y = 0.299 R + 0.587 G + 0.114 B of the image as displayed (EXIF orientation
 *      applied: a copy is a copy of what people saw), shrunk first to at most 512 x 512 as the
 *      reference tools do (the tent filter below is costly on 12 MP);
 *   2. Jarosz's tent filter: two passes of a 1-D box filter along rows then columns, each window
 *      ceil(side / 128) wide, so every one of the 64 x 64 samples taken next averages its block;
 *   3. 64 x 64 samples at the block centres;
 *   4. a 2-D DCT of those, keeping the 16 x 16 lowest frequencies after the constant term;
 *   5. one bit per coefficient: above the median of the 256 or not.
 * The quality (0-100) counts strong gradients in the 64 x 64 samples: a flat or featureless
 * image scores low and its hash matches too easily (the reference advises ignoring below 50).
 *
 * The hash is written as the reference writes it: 64 hex digits, the big-endian form of a
 * 256-bit number whose bit 16·i + j is coefficient (i, j), so hashes compare with other PDQ tools.
 */
import { MAX_DECODE_PIXELS } from './dimensions.js';
import { optionalSharp } from './sharp.js';
import { MAX_HEIC_BYTES, type RawRgb, openHeif } from './heic.js';
import { readFileHead } from '../files/read.js';
import { readFile, stat } from 'node:fs/promises';
import { SNIFF_BYTES, sniffKind } from './sniff.js';

export interface Pdq {
  /** 64 lowercase hex digits. */
  hash: string;
  /** 0 (featureless) to 100. */
  quality: number;
}

/** A PDQ hash's length in bits. */
export const PDQ_BITS = 256;

/**
 * The index's bands (store/pdq-index.ts): it files a hash under 16 chunks of 16 bits, so a look-up
 * within 0-15 bits probes each chunk exactly, 16-31 with its 1-bit neighbours, and so on; any
 * distance within one band costs the same.
 */
export const INDEX_BAND = 16;

/**
 * The distance (bits) within which two images count as copies of one photo: `geo history --like`'s
 * default, "seen before", and the plan's near-duplicates. Chosen by `geo eval --copies` on the
 * calibration set (1,000 pictures, 13,000 copies; docs/internals/pdq-calibration.md): re-encodings,
 * resizes and stripped copies together are found 95% of the time from 25 bits (95.2%), taken to
 * the end of its index band, 31 (97.0%); no pair of distinct pictures of 499,500 lies that close.
 * PDQ's reference suggests the same 31. A 25% resize is the copy it finds least (85.7%).
 */
export const LIKE_DISTANCE = 31;

/** Below this quality a hash says little (a flat or featureless image): the reference advises ignoring it. */
export const MIN_QUALITY = 50;

/** The slice of sharp's API used here (sharp is optional, so its types may not be installed). */
interface Pipeline {
  rotate(): Pipeline;
  resize(o: { width: number; height: number; fit: 'inside'; withoutEnlargement: true }): Pipeline;
  removeAlpha(): Pipeline;
  toColourspace(c: 'srgb'): Pipeline;
  raw(o: { depth: 'uchar' }): Pipeline;
  toBuffer(o: { resolveWithObject: true }): Promise<{ data: Buffer; info: { width: number; height: number; channels: number } }>;
}
type SharpFactory = (input: string | Buffer | Uint8Array, opts: { limitInputPixels: number; failOn: 'none'; raw?: { width: number; height: number; channels: 3 } }) => Pipeline;

const MAX_SIDE = 512;

/** sharp is not installed: no image is hashed (said once by whoever asks, not per image). */
export class NoDecoderError extends Error {
  constructor() {
    super('the perceptual hash needs the optional image library sharp, which is not installed');
  }
}

/**
 * The PDQ hash of an image: a path or its bytes. Throws when sharp is missing or cannot decode
 * it (callers that hash on the side treat that as "no hash", never as a failed command).
 */
export async function pdqOf(input: string | Uint8Array): Promise<Pdq> {
  const sharp = await optionalSharp<SharpFactory>();
  if (!sharp) throw new NoDecoderError();
  const src = typeof input === 'string' ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  // sharp's libvips has no HEVC decoder: a HEIC's pixels come from libheif (heic.ts), as for its upload.
  const heic = await heicPixels(src);
  const { data, info } = await (heic ? sharp(heic.data, { limitInputPixels: MAX_DECODE_PIXELS, failOn: 'none', raw: heic }) : sharp(src, { limitInputPixels: MAX_DECODE_PIXELS, failOn: 'none' }))
    .rotate()
    .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  return pdqOfPixels(data, info.width, info.height, info.channels);
}

/** A HEIC's decoded pixels (libheif applies its rotations), or undefined for any other image; bounded as sharp's decode is. */
async function heicPixels(src: string | Buffer): Promise<RawRgb | undefined> {
  const head = typeof src === 'string' ? await readFileHead(src, SNIFF_BYTES) : src.subarray(0, SNIFF_BYTES);
  if (sniffKind(head) !== 'heic') return undefined;
  if (typeof src === 'string' && (await stat(src)).size > MAX_HEIC_BYTES) throw new Error(`a HEIC over ${MAX_HEIC_BYTES / 1e6} MB is not decoded here`);
  const heif = await openHeif(typeof src === 'string' ? await readFile(src) : src, 'its perceptual hash');
  try {
    if (heif.width * heif.height > MAX_DECODE_PIXELS) throw new Error(`${heif.width} x ${heif.height} pixels is past the decoding limit`);
    return heif.decode();
  } finally {
    heif.free();
  }
}

/** PDQ of interleaved 8-bit pixels (1 channel: grey; 3 or more: R, G, B first). */
export function pdqOfPixels(px: Uint8Array, width: number, height: number, channels: number): Pdq {
  const luma = new Float64Array(width * height);
  for (let p = 0, o = 0; p < luma.length; p++, o += channels) {
    luma[p] = channels < 3 ? px[o]! : 0.299 * px[o]! + 0.587 * px[o + 1]! + 0.114 * px[o + 2]!;
  }
  tentFilter(luma, width, height);
  const samples = sampleBlocks(luma, width, height);
  const quality = qualityOf(samples);
  return { hash: bitsAboveMedian(dct16(samples)), quality };
}

/** Two X,Y rounds of box filters (Jarosz 2001): together a tent over about one 64th of each side. */
function tentFilter(luma: Float64Array, width: number, height: number): void {
  const wx = Math.ceil(width / 128);
  const wy = Math.ceil(height / 128);
  const tmp = new Float64Array(luma.length);
  for (let round = 0; round < 2; round++) {
    for (let y = 0; y < height; y++) boxLine(luma, tmp, y * width, 1, width, wx);
    for (let x = 0; x < width; x++) boxLine(tmp, luma, x, width, height, wy);
  }
}

/**
 * The mean over a window of `w` values around each one, cut at the ends (the mean of those that
 * exist): `ahead` values after it, `w - 1 - ahead` before, as the reference places an even window.
 */
function boxLine(src: Float64Array, dst: Float64Array, start: number, stride: number, n: number, w: number): void {
  const ahead = Math.floor(w / 2);
  const behind = w - 1 - ahead;
  let sum = 0;
  let lo = 0; // the window is [lo, hi)
  let hi = 0;
  for (let i = 0; i < n; i++) {
    const wantHi = Math.min(n, i + ahead + 1);
    const wantLo = Math.max(0, i - behind);
    for (; hi < wantHi; hi++) sum += src[start + hi * stride]!;
    for (; lo < wantLo; lo++) sum -= src[start + lo * stride]!;
    dst[start + i * stride] = sum / (hi - lo);
  }
}

/** The filtered value at the centre of each of 64 x 64 blocks. */
function sampleBlocks(luma: Float64Array, width: number, height: number): Float64Array {
  const out = new Float64Array(64 * 64);
  for (let i = 0; i < 64; i++) {
    const y = Math.floor(((i + 0.5) * height) / 64);
    for (let j = 0; j < 64; j++) out[i * 64 + j] = luma[y * width + Math.floor(((j + 0.5) * width) / 64)]!;
  }
  return out;
}

/** Strong neighbour differences (in percent of full scale, truncated) summed, scaled to 0-100. */
function qualityOf(s: Float64Array): number {
  let sum = 0;
  const step = (u: number, v: number) => Math.abs(Math.trunc(((u - v) * 100) / 255));
  for (let i = 0; i < 63; i++) for (let j = 0; j < 64; j++) sum += step(s[i * 64 + j]!, s[(i + 1) * 64 + j]!);
  for (let i = 0; i < 64; i++) for (let j = 0; j < 63; j++) sum += step(s[i * 64 + j]!, s[i * 64 + j + 1]!);
  return Math.min(100, Math.trunc(sum / 90));
}

/** Rows 1..16 of the 64-point DCT-II basis (row 0, the mean, carries no pattern). */
const BASIS: Float64Array = (() => {
  const b = new Float64Array(16 * 64);
  const scale = Math.sqrt(2 / 64);
  for (let k = 0; k < 16; k++) for (let n = 0; n < 64; n++) b[k * 64 + n] = scale * Math.cos((Math.PI / 128) * (k + 1) * (2 * n + 1));
  return b;
})();

/** C = B · S · Bᵀ for the 16 x 64 basis B: only the coefficients the hash keeps are computed. */
function dct16(s: Float64Array): Float64Array {
  const half = new Float64Array(16 * 64); // B · S
  for (let k = 0; k < 16; k++) {
    for (let n = 0; n < 64; n++) {
      let acc = 0;
      for (let m = 0; m < 64; m++) acc += BASIS[k * 64 + m]! * s[m * 64 + n]!;
      half[k * 64 + n] = acc;
    }
  }
  const out = new Float64Array(256);
  for (let k = 0; k < 16; k++) {
    for (let l = 0; l < 16; l++) {
      let acc = 0;
      for (let n = 0; n < 64; n++) acc += half[k * 64 + n]! * BASIS[l * 64 + n]!;
      out[k * 16 + l] = acc;
    }
  }
  return out;
}

/** Bit k set when coefficient k exceeds the lower median (the 128th smallest), as hex. */
function bitsAboveMedian(c: Float64Array): string {
  const median = Float64Array.from(c).sort()[127]!;
  const bytes = new Uint8Array(32);
  // bit k is 2^k of a big-endian 256-bit number: byte 31 - (k >> 3), bit k & 7.
  for (let k = 0; k < 256; k++) if (c[k]! > median) bytes[31 - (k >> 3)]! |= 1 << (k & 7);
  return Buffer.from(bytes).toString('hex');
}

const POPCOUNT = Uint8Array.from({ length: 256 }, (_, b) => {
  let n = 0;
  for (let v = b; v; v &= v - 1) n++;
  return n;
});

/** The number of bits in which two hex hashes of equal length differ. */
export function hamming(a: string, b: string): number {
  if (a.length !== b.length) throw new RangeError(`hashes of different lengths (${a.length} and ${b.length} hex digits)`);
  let d = 0;
  for (let i = 0; i < a.length; i += 2) d += POPCOUNT[parseInt(a.slice(i, i + 2), 16) ^ parseInt(b.slice(i, i + 2), 16)]!;
  return d;
}

/** Whether a value is a PDQ hash as written here (64 lowercase hex digits). */
export function isPdqHash(v: unknown): v is string {
  return typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);
}
