/**
 * Issue 34: the environment variables geo reads have one list (src/help/environment.ts), from which
 * `geo help environment`, the reference and the man pages are made. A GEO_ variable read anywhere
 * in src/ or bin/ and missing from that list fails here.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ENVIRONMENT } from '../../src/help/environment.js';
import { runCli } from '../helpers/run-cli.js';

const ROOT = new URL('../../', import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : /\.(ts|js|cjs|mjs)$/.test(f) ? [p] : [];
  });
}

it('every GEO_ variable in src/ and bin/ is in the one list, and geo help environment shows each', async () => {
  const used = new Set(['src', 'bin'].flatMap((d) => files(join(ROOT, d))).flatMap((f) => readFileSync(f, 'utf8').match(/\bGEO_[A-Z_]+[A-Z]\b/g) ?? []));
  const listed = new Set(ENVIRONMENT.map((v) => v.name));
  expect([...used].filter((v) => !listed.has(v))).toEqual([]);
  const r = await runCli(['help', 'environment']);
  for (const v of listed) expect(r.stdout).toContain(v);
});
