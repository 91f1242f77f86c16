/**
 * Scene markers: how the sandbox answers the frames of a fixture clip from the clip's
 * known scenes, so consensus figures can be worked out by hand. A frame carries its scene in its
 * pixels, in a form that survives H.264 and JPEG (fixtures/clips.js draws it): the top 2/15 of the
 * picture is a row of 16 cells, white 1 and black 0, spelling the preamble 1010, an 8-bit scene
 * code, a 3-bit variant and an even-parity bit. The answer is the scene's place moved by the
 * variant (VARIANTS), with the variant's confidence; at depth 3 the candidates are 5 km north of
 * the answer and the scene's decoy city.
 *
 * Reading it needs the pixels: sharp decodes the image (shrunk on load, so a large photo costs
 * little); without sharp, or without a clean marker (every cell well black or well white, the
 * preamble and the parity right), the image is not a marked frame and gets the usual answer.
 */
import { destination } from '../places/distance.js';
import { optionalSharp } from '../image/sharp.js';

export interface MarkedScene {
  name: string;
  lat: number;
  lng: number;
  /** Where a depth-3 answer's second candidate points: a plausible wrong city. */
  decoy: { name: string; lat: number; lng: number };
}

/** Scene codes of fixtures/clips.js. */
export const SCENES: Readonly<Record<number, MarkedScene>> = {
  1: { name: 'Eiffel Tower, Paris', lat: 48.8584, lng: 2.2945, decoy: { name: 'Lyon', lat: 45.764, lng: 4.8357 } },
  2: { name: 'Shibuya Crossing, Tokyo', lat: 35.6595, lng: 139.7005, decoy: { name: 'Osaka', lat: 34.6937, lng: 135.5023 } },
  3: { name: 'Taveuni, Fiji (on the antimeridian)', lat: -16.8, lng: 180, decoy: { name: 'Suva', lat: -18.1416, lng: 178.4419 } },
};

/** Variant -> how far (km) and which way (bearing) the answer moves, and its confidence. */
export const VARIANTS: ReadonlyArray<{ km: number; bearing: number; confidence: number }> = [
  { km: 0, bearing: 0, confidence: 0.8 },
  { km: 10, bearing: 90, confidence: 0.7 },
  { km: 10, bearing: 270, confidence: 0.6 },
  { km: 10, bearing: 0, confidence: 0.5 },
  { km: 10, bearing: 180, confidence: 0.4 },
  { km: 20, bearing: 90, confidence: 0.3 },
  { km: 40, bearing: 90, confidence: 0.2 },
  { km: 80, bearing: 90, confidence: 0.1 },
];

export interface MarkedAnswer {
  scene: MarkedScene;
  code: number;
  variant: number;
  lat: number;
  lng: number;
  confidence: number;
}

/** Decoded at this size: 10 px per cell, the band 16 rows high. */
const GRID_W = 160;
const GRID_H = 120;

type Sharp = (input: Buffer, opts?: { failOn?: string; limitInputPixels?: number }) => {
  greyscale(): ReturnType<Sharp>;
  resize(w: number, h: number, o: { fit: 'fill' }): ReturnType<Sharp>;
  raw(): ReturnType<Sharp>;
  toBuffer(o: { resolveWithObject: true }): Promise<{ data: Buffer; info: { width: number; height: number; channels: number } }>;
};

/** The 16 bits of a marker from a 160×120 grey picture, or undefined when a cell is not clean. */
export function readCells(grey: Uint8Array, width: number): number[] | undefined {
  const bits: number[] = [];
  for (let i = 0; i < 16; i++) {
    let sum = 0;
    let n = 0;
    for (let y = 5; y <= 10; y++) {
      for (let x = i * 10 + 3; x <= i * 10 + 6; x++) {
        sum += grey[y * width + x]!;
        n++;
      }
    }
    const mean = sum / n;
    if (mean < 70) bits.push(0);
    else if (mean > 185) bits.push(1);
    else return undefined;
  }
  return bits;
}

/** Scene code and variant of 16 marker bits, or undefined when the preamble or parity is wrong. */
export function decodeMarker(bits: readonly number[]): { code: number; variant: number } | undefined {
  if (bits.length !== 16 || bits.slice(0, 4).join('') !== '1010') return undefined;
  if (bits.slice(4).reduce((a, b) => a + b, 0) % 2 !== 0) return undefined;
  const num = (from: number, to: number) => bits.slice(from, to).reduce((a, b) => a * 2 + b, 0);
  return { code: num(4, 12), variant: num(12, 15) };
}

export async function readMarker(image: Buffer): Promise<MarkedAnswer | undefined> {
  const sharp = await optionalSharp<Sharp>();
  if (!sharp) return undefined;
  let grey;
  try {
    grey = await sharp(image, { failOn: 'none', limitInputPixels: 100_000_000 }).greyscale().resize(GRID_W, GRID_H, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true });
  } catch {
    return undefined;
  }
  if (grey.info.channels !== 1 || grey.info.width !== GRID_W) return undefined;
  const bits = readCells(grey.data, GRID_W);
  const m = bits && decodeMarker(bits);
  const scene = m && SCENES[m.code];
  if (!m || !scene) return undefined;
  const v = VARIANTS[m.variant]!;
  const at = v.km === 0 ? { lat: scene.lat, lng: scene.lng } : destination(scene.lat, scene.lng, v.km, v.bearing);
  return { scene, code: m.code, variant: m.variant, lat: at.lat, lng: at.lng > 180 ? at.lng - 360 : at.lng <= -180 ? at.lng + 360 : at.lng, confidence: v.confidence };
}
