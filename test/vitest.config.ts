import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The default reporter, and the reason of every skip (issue 34): test/reporters/skip-reasons.ts.
    reporters: ['default', './test/reporters/skip-reasons.ts'],
  },
});
