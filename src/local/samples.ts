/**
 * Built-in sample photos (issue 13 part 4): `geo locate sample:paris` and `geo inspect
 * sample:tokyo` work from any folder after a global install, so every --help example can run as
 * written. They are the small fixture JPEGs with EXIF GPS at known landmarks
 * (fixtures/make-fixtures.js), shipped in the package (package.json "files").
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../errors.js';

export const SAMPLES = ['paris', 'tokyo', 'sydney', 'newyork', 'nogps'] as const;
const PREFIX = 'sample:';

/**
 * The package's root: the first folder above this file holding package.json (src/local/ from the
 * sources, dist/ from the bundle: the depths differ, so it is found, not counted).
 */
function packageRoot(): URL {
  let dir = new URL('.', import.meta.url);
  for (let i = 0; i < 4 && !existsSync(new URL('package.json', dir)); i++) dir = new URL('..', dir);
  return dir;
}

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
