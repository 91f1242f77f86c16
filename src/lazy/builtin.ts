/**
 * Loads a node built-in on first use. The stand-ins in this folder use it instead of `import`:
 * the build aliases static imports of node:http2 and node:child_process to the stand-ins
 * themselves, while createRequire with a module name is left alone.
 */
import { createRequire } from 'node:module';

export function lazyBuiltin<T>(id: string): () => T {
  let real: T | undefined;
  return () => (real ??= createRequire(import.meta.url)(id) as T);
}
