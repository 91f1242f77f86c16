import { configDefaults, defineConfig } from 'vitest/config';
import { onceFiles } from './once-files.js';

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['test/**/*.test.ts'],
    // GEO_TEST_ONCE=skip (.ci/run's second Node): leave out what ran under the first (once-files.ts).
    exclude: process.env.GEO_TEST_ONCE === 'skip' ? [...configDefaults.exclude, ...onceFiles()] : configDefaults.exclude,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The default reporter, and the reason of every skip: test/reporters/skip-reasons.ts.
    reporters: ['default', './test/reporters/skip-reasons.ts'],
  },
});
