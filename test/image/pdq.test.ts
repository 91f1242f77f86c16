/**
 * PDQ against the reference's published vectors (pdq-vectors/README.md says where they come from)
 * and against the properties a perceptual hash must have: a re-encoded or resized copy lands a few
 * bits away, a different photo about half the bits away, and the same bytes always hash alike.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { hamming, isPdqHash, pdqOf, pdqOfPixels } from '../../src/image/pdq.js';

const dir = new URL('./pdq-vectors/', import.meta.url).pathname;

/** The reference's expected hashes (its Python test, pdq/python/pdqhashing/tests/pdq_test.py). */
const REFERENCE: Record<string, string> = {
  'q0003.jpg': '54a977c221d14c1c43ba5e6e21d4a13989a3553f1462611cbb85fda7be83b677',
  'q0004.jpg': '992d44af36d69e6ca6b812585928bac11def254ef5398c6d07466c9abcc65b92',
  'q0122.jpg': 'cfb2009ddd21c6dab0046a7745b5984757a8a4535b3377aea2591d32b33ff940',
  'q0291.jpg': 'a0fe94f1e5cc1cc8dd855948498dc9243f7ca27336f036d7f212b74bc103c9a7',
  'q0746.jpg': '1049d96239e24d4dca2c55512b8bdb77425f4dbcf575a0a95555aaab5554aaaa',
  'q1050.jpg': '489db672e9190276d452aeab41eba20f02375fe4092d88defdf491a5c55c5f70',
  'q2821.jpg': 'b150231ffae4710ffcf4f18bb574b109a576f14bb8543189f8743289f174b109',
  'wee.jpg': '6227401f601ff4ccafcc9fad4b0d95d371a2eb7265a3285234d228ca94deeb2d',
  'small.jpg': '0007001f003f003f007f00ff00ff00ff01ff01ff01ff03ff03ff03ff03ff03ff',
  'bridge-1-original.jpg': 'd8f8f0cce0f4a84f0e370a22028f67f0b36e2ed596623e1d33e6b39c4e9c9b22',
};
/** Under 512 px on both sides and of good quality: no resampling stands between geo and the reference, so the hash is the same bit for bit. */
const EXACT = ['q0004.jpg', 'q0122.jpg', 'q0291.jpg', 'q0746.jpg', 'q1050.jpg', 'q2821.jpg', 'wee.jpg', 'small.jpg'];

describe('PDQ against the reference vectors', () => {
  for (const file of EXACT) {
    it(`${file}: the reference's hash exactly`, async () => {
      expect((await pdqOf(join(file))).hash).toBe(REFERENCE[file]);
    });
  }
  it('bridge-1-original.jpg (1600 x 1004, shrunk to 512 by sharp, not by the reference\'s decoder): within 4 bits, quality 100', async () => {
    const r = await pdqOf(join('bridge-1-original.jpg'));
    expect(hamming(r.hash, REFERENCE['bridge-1-original.jpg']!)).toBeLessThanOrEqual(4);
    expect(r.quality).toBe(100);
  });
  it('q0003.jpg, nearly featureless: a quality below the reference\'s cut-off of 50, and within its own 16-bit tolerance', async () => {
    const r = await pdqOf(join('q0003.jpg'));
    expect(r.quality).toBeLessThan(50);
    expect(hamming(r.hash, REFERENCE['q0003.jpg']!)).toBeLessThanOrEqual(16);
  });
});

describe('PDQ on copies and on other photos', () => {
  const original = readFileSync(join('bridge-1-original.jpg'));
  it('a re-encode at JPEG quality 70 lands within 8 bits', async () => {
    const copy = await sharp(original).jpeg({ quality: 70 }).toBuffer();
    expect(hamming((await pdqOf(copy)).hash, (await pdqOf(original)).hash)).toBeLessThanOrEqual(8);
  });
  it('a copy resized to a quarter of the width lands within 8 bits', async () => {
    const copy = await sharp(original).resize({ width: 400 }).png().toBuffer();
    expect(hamming((await pdqOf(copy)).hash, (await pdqOf(original)).hash)).toBeLessThanOrEqual(8);
  });
  it('different photos lie about half the bits apart (between 96 and 160 of 256)', async () => {
    const hashes = await Promise.all(['q0122.jpg', 'q0291.jpg', 'q1050.jpg', 'q2821.jpg', 'bridge-1-original.jpg'].map((f) => pdqOf(join(f))));
    for (let i = 0; i < hashes.length; i++) {
      for (let j = i + 1; j < hashes.length; j++) {
        const d = hamming(hashes[i]!.hash, hashes[j]!.hash);
        expect(d).toBeGreaterThanOrEqual(96);
        expect(d).toBeLessThanOrEqual(160);
      }
    }
  });
  it('is deterministic: the same bytes, read as a file or given as bytes, give the same hash and quality', async () => {
    const a = await pdqOf(join('wee.jpg'));
    const b = await pdqOf(readFileSync(join('wee.jpg')));
    expect(b).toEqual(a);
    expect(await pdqOf(join('wee.jpg'))).toEqual(a);
    expect(isPdqHash(a.hash)).toBe(true);
  });
  it('a flat grey image has quality 0 (nothing in it to match on)', () => {
    const grey = new Uint8Array(100 * 80).fill(128);
    expect(pdqOfPixels(grey, 100, 80, 1).quality).toBe(0);
  });
  it('an image sharp cannot decode is an error, not a hash', async () => {
    await expect(pdqOf(Buffer.from('not an image at all'))).rejects.toThrow();
  });
});

describe('hamming', () => {
  it('counts the bits that differ', () => {
    const zero = '0'.repeat(64);
    expect(hamming(zero, zero)).toBe(0);
    expect(hamming(zero, 'f'.repeat(64))).toBe(256);
    expect(hamming(zero, '8' + '0'.repeat(62) + '1')).toBe(2);
    expect(hamming('0f', 'f0')).toBe(8);
  });
  it('refuses hashes of different lengths', () => {
    expect(() => hamming('00', '0000')).toThrow(RangeError);
  });
});

function join(file: string): string {
  return dir + file;
}
