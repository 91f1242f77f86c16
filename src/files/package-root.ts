/**
 * The package's root: the first folder above this file holding package.json (src/files/ from the
 * sources, dist/ from the bundle: the depths differ, so it is found, not counted). The samples
 * (samples.ts) and the keyring helper (config/keyring.ts) ship under it.
 */
import { existsSync } from 'node:fs';

export function packageRoot(): URL {
  let dir = new URL('.', import.meta.url);
  for (let i = 0; i < 4 && !existsSync(new URL('package.json', dir)); i++) dir = new URL('..', dir);
  return dir;
}
