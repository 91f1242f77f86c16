/** The CLI bundles the build writes (build.ts steps 2 and 2b), which its later steps finish alike. */
export const BUNDLES = ['dist/cli.js', 'dist/cli-history.js'].map((f) => new URL(`../../${f}`, import.meta.url));
