import { availableParallelism } from 'node:os';
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
    // Most files wait on child processes (geo, sandboxes, PostgreSQL, ffmpeg), not on the CPU, so a
    // worker a core keeps a 2-core machine busy: the Node 20 stage went from 658 s to 366 s, all
    // passing (vitest's default leaves one core idle: cores - 1).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The default reporter, and the reason of every skip: test/reporters/skip-reasons.ts.
    reporters: ['default', './test/reporters/skip-reasons.ts'],
  },
});
