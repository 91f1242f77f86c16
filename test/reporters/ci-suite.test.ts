/**
 * A suite that stays fast as it grows (.ci/run): the files whose outcome does not depend on Node's
 * version run under Node 20 only (test/once-files.ts, GEO_TEST_ONCE=skip on the Node 24 run), and
 * the run ends with the ten slowest test files (.ci/slowest.js, from the JSON reports it writes).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { onceFiles } from '../once-files.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const RUN = readFileSync(join(ROOT, '.ci/run'), 'utf8');

describe('tests run once, under Node 20', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('are every pty, PostgreSQL and browser test file and the packed install, and nothing that only borrows a helper', () => {
    const once = onceFiles();
    const pty = readdirSync(join(ROOT, 'test/pty')).filter((f) => f.endsWith('.test.ts')).map((f) => `test/pty/${f}`);
    expect(once).toEqual(expect.arrayContaining([...pty, 'test/install/packed.test.ts', 'test/store/team-race.test.ts', 'test/store/contract.test.ts', 'test/report/report.test.ts']));
    // cases.test.ts takes stripAnsi from the pty helpers and runs no terminal; html.test.ts starts no browser.
    expect(once).not.toContain('test/commands/cases.test.ts');
    expect(once).not.toContain('test/report/html.test.ts');
  });

  it('the vitest config leaves them out when GEO_TEST_ONCE=skip, and only then', async () => {
    const excluded = async (value: string) => {
      vi.stubEnv('GEO_TEST_ONCE', value);
      vi.resetModules();
      return ((await import('../vitest.config.js')) as { default: { test: { exclude: string[] } } }).default.test.exclude.filter((f) => f.startsWith('test/'));
    };
    expect(await excluded('skip')).toEqual(onceFiles());
    expect(await excluded('')).toEqual([]);
  });

  it('.ci/run sets GEO_TEST_ONCE=skip on its Node 24 run only', () => {
    const lines = RUN.split('\n').filter((l) => /GEO_TEST_ONCE=skip/.test(l) && !/^\s*(#|echo)/.test(l));
    expect(lines).toEqual([expect.stringMatching(/GEO_TEST_ONCE=skip PATH="\$bin:\$PATH" tests node24$/)]);
  });
});

describe('the slowest test files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'geo-slowest-'));
  const report = (label: string, files: Array<[string, number]>) => {
    const path = join(dir, `vitest-${label}.json`);
    writeFileSync(path, JSON.stringify({ testResults: files.map(([f, s]) => ({ name: join(ROOT, f), startTime: 1000, endTime: 1000 + s * 1000, status: 'passed', assertionResults: [] })) }));
    return path;
  };
  const slowest = (...args: string[]) => spawnSync(process.execPath, [join(ROOT, '.ci/slowest.js'), ...args], { encoding: 'utf8' });

  it('are listed slowest first, one column per Node run, at most --top of them; a missing report is named', () => {
    const a = report('node20', [['test/a.test.ts', 5], ['test/b.test.ts', 30], ['test/c.test.ts', 12], ['test/d.test.ts', 1]]);
    const b = report('node24', [['test/a.test.ts', 4], ['test/c.test.ts', 11]]);
    const r = slowest('--top', '3', a, b, join(dir, 'vitest-gone.json'));
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean)).toEqual([
      `slowest: ${join(dir, 'vitest-gone.json')} is missing, left out`,
      'the 3 slowest test files (wall seconds: node20, node24):',
      '     30.0       -  test/b.test.ts',
      '     12.0    11.0  test/c.test.ts',
      '      5.0     4.0  test/a.test.ts',
    ]);
  });

  it('.ci/run prints the ten slowest from the reports of both runs, before its totals', () => {
    const at = RUN.indexOf('node .ci/slowest.js --top 10 "$OUT/vitest-node20.json" "$OUT/vitest-node24.json"');
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(RUN.indexOf('TOTALS="$(node .ci/totals.js'));
  });
});
