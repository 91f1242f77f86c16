/** The CLI bundles the build writes (build.ts steps 2, 2b and 2c), which its later steps finish alike. */
const dist = (f: string) => new URL(`../../dist/${f}`, import.meta.url);

/** The full CLI, which requires every chunk. */
export const FULL = dist('cli.js');
export const BUNDLES = [FULL, dist('cli-history.js'), dist('cli-root.js')];
