/**
 * PDQ hashes of many files, a few at a time: as many in flight as the machine has cores (at most
 * 8), so decoding (libvips threads) and the filter and DCT (this thread) overlap without holding
 * more than a few decoded images in memory. A file that cannot be hashed gets its reason instead.
 */
import { availableParallelism } from 'node:os';
import { type Pdq, pdqOf } from './pdq.js';

export type PdqOrWhy = Pdq | { error: string };

export async function pdqOfMany(paths: readonly string[], onDone?: (done: number) => void): Promise<PdqOrWhy[]> {
  const out: PdqOrWhy[] = new Array(paths.length);
  let next = 0;
  let done = 0;
  const lane = async () => {
    for (let i = next++; i < paths.length; i = next++) {
      try {
        out[i] = await pdqOf(paths[i]!);
      } catch (e) {
        out[i] = { error: (e as Error).message.split('\n')[0]! };
      }
      onDone?.(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, Math.max(1, availableParallelism()), paths.length) }, lane));
  return out;
}
