/**
 * Many small distinct JPEGs for batch tests (issue 33: a claims file of 200 rows), made with the
 * committed fixture encoder (fixtures/jpeg.js): each image's colours come from its index, so every
 * file differs in its pixels (geo removes metadata before upload, so a byte changed in a comment
 * would not make another image). No metadata at all: the EXIF check finds none.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

type Encode = (width: number, height: number, pixel: (x: number, y: number) => number[]) => Buffer;

/** Writes n JPEGs named img-000.jpg… into dir; their paths, in order. */
export async function writeDistinctJpegs(dir: string, n: number, prefix = 'img'): Promise<string[]> {
  // A path in a variable: the fixture encoder is plain JavaScript without type declarations.
  const encoder = new URL('../../fixtures/jpeg.js', import.meta.url).href;
  const { encodeJpeg } = (await import(encoder)) as { encodeJpeg: Encode };
  const paths: string[] = [];
  for (let i = 0; i < n; i++) {
    // 37 and 91 are odd: i -> (37i mod 256, 91i mod 256) differs for every i below 256.
    const base = [(i * 37) % 256, (i * 91) % 256, (i * 13 + 64) % 256];
    const bytes = encodeJpeg(16, 16, (x, y) => base.map((c, k) => Math.max(0, Math.min(255, c + (k === 0 ? x * 3 : k === 1 ? y * 3 : 0) - 20))));
    const path = join(dir, `${prefix}-${String(i).padStart(3, '0')}.jpg`);
    writeFileSync(path, bytes);
    paths.push(path);
  }
  return paths;
}
