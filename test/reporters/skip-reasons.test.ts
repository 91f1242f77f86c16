/**
 * `npm test`'s output says why each test was skipped (issue 34): vitest run on a fixture with the
 * main config's reporters, as a child process, as npm test runs it.
 */
import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';

it('a run with skipped tests prints each skip with its reason (title or ctx.skip note), and counts the ones without', () => {
  const root = new URL('../..', import.meta.url).pathname;
  const r = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/reporters/fixture/vitest.config.ts'], { cwd: root, encoding: 'utf8', env: { ...process.env, CI: '1', NO_COLOR: '1' } });
  expect(r.status).toBe(0);
  expect(r.stdout).toContain('Skipped, with why (2):');
  expect(r.stdout).toMatch(/↓ test\/reporters\/fixture\/skips\.fixture\.ts > a suite needing a tool .* uses frobtool\n\s+why: frobtool is not installed \(apt-get install frobtool\)/);
  expect(r.stdout).toMatch(/↓ .*skips itself with a note\n\s+why: the loopback interface has no IPv6/);
  expect(r.stdout).toContain('1 more skipped by a filter');
}, 60_000);
