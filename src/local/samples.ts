/**
 * Built-in sample photos (issue 13 part 4): `geo locate sample:paris` and `geo inspect
 * sample:tokyo` work from any folder after a global install, so every --help example can run as
 * written. They are the small fixture JPEGs with EXIF GPS at known landmarks
 * (fixtures/make-fixtures.js), shipped in the package (package.json "files").
 */
import { fileURLToPath } from 'node:url';
import { UsageError } from '../errors.js';
import { packageRoot } from './package-root.js';

export const SAMPLES = ['paris', 'tokyo', 'sydney', 'newyork', 'nogps'] as const;
const PREFIX = 'sample:';

/** `sample:NAME` -> that sample's path, `sample:all` -> every sample; anything else as given. */
export function expandSamples(inputs: readonly string[]): string[] {
  return inputs.flatMap((input) => {
    if (!input.startsWith(PREFIX)) return [input];
    const name = input.slice(PREFIX.length);
    const names = name === 'all' ? [...SAMPLES] : [name];
    for (const n of names) {
      if (!(SAMPLES as readonly string[]).includes(n)) throw new UsageError(`unknown sample "${name}"`, `built-in samples: ${SAMPLES.map((s) => PREFIX + s).join(', ')}, ${PREFIX}all`);
    }
    return names.map((n) => fileURLToPath(new URL(`fixtures/images/${n}.jpg`, packageRoot())));
  });
}
