/**
 * Built-in sample photos: `geo locate sample:paris` and `geo inspect
 * sample:tokyo` work from any folder after a global install, so every --help example can run as
 * written. They are the small fixture JPEGs with EXIF GPS at known landmarks
 * (fixtures/make-fixtures.js), shipped in the package (package.json "files").
 */
import { fileURLToPath } from 'node:url';
import { UsageError } from '../errors.js';
import { packageRoot } from './package-root.js';

export const SAMPLES = ['paris', 'tokyo', 'sydney', 'newyork', 'nogps'] as const;
/**
 * Two fixture clips (fixtures/clips.js), a few KB each, so the video examples run too
 * (with ffmpeg installed): `clip` is a compilation (Paris, Tokyo, Paris again), `take` one 10 s
 * take on the antimeridian. The sandbox answers their frames from the scene marker in the pixels.
 */
export const VIDEO_SAMPLES: Readonly<Record<string, string>> = { clip: 'two-places.mp4', take: 'one-place.mp4' };
const PREFIX = 'sample:';

/** `sample:NAME` -> that sample's path, `sample:all` -> every sample photo; anything else as given. */
export function expandSamples(inputs: readonly string[]): string[] {
  return inputs.flatMap((input) => {
    if (!input.startsWith(PREFIX)) return [input];
    const name = input.slice(PREFIX.length);
    const video = VIDEO_SAMPLES[name];
    if (video !== undefined) return [fileURLToPath(new URL(`fixtures/clips/${video}`, packageRoot()))];
    const names = name === 'all' ? [...SAMPLES] : [name];
    for (const n of names) {
      if (!(SAMPLES as readonly string[]).includes(n)) throw new UsageError(`unknown sample "${name}"`, `built-in samples: ${[...SAMPLES, ...Object.keys(VIDEO_SAMPLES), 'all'].map((s) => PREFIX + s).join(', ')}`);
    }
    return names.map((n) => fileURLToPath(new URL(`fixtures/images/${n}.jpg`, packageRoot())));
  });
}
