/**
 * The claims examples people copy keep which image each verdict is for: every `claims check …
 * --json FIELDS` line of the README, docs/ and `geo claims check --help` selects `input`, and the
 * ones that run against the sandbox, run as written (the built binary), print it for each image.
 * (test/install/packed.test.ts runs every docs/ example after a global install.)
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { examplesOf, markdownExamples } from '../install/examples.js';
import { spawnGeo, tempConfigDir } from '../helpers/run-cli.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const walk = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walk(join(dir, d.name)) : d.name.endsWith('.md') ? [join(dir, d.name)] : []));
const PAGES = ['README.md', ...walk('docs')];
const SELECTS = /\bclaims check\b.*--json ([\w,]+)/;

async function helpText(): Promise<string> {
  const r = await spawnGeo(['claims', 'check', '--help'], { env: { GEO_CONFIG_DIR: tempConfigDir() } });
  expect(r.code).toBe(0);
  return r.stdout;
}

describe('claims examples with --json FIELDS', () => {
  it('every one in the README, docs/ and --help selects input', async () => {
    const lines = [...PAGES.flatMap((p) => readFileSync(join(ROOT, p), 'utf8').split('\n').map((l) => [p, l] as const)), ...(await helpText()).split('\n').map((l) => ['geo claims check --help', l] as const)];
    const selecting = lines.filter(([, l]) => SELECTS.test(l));
    expect(selecting.length).toBeGreaterThanOrEqual(4);
    expect(selecting.filter(([, l]) => !SELECTS.exec(l)![1]!.split(',').includes('input')).map(([p, l]) => `${p}: ${l.trim()}`)).toEqual([]);
  });

  it('run as written against the sandbox, each verdict names its image', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'claims.csv'), 'image,at\nsample:paris,Paris\nsample:tokyo,Lagos\n');
    const runnable = [
      ...['docs/claims.md', 'docs/topics/claims.md'].flatMap((p) => markdownExamples(readFileSync(join(ROOT, p), 'utf8'))),
      ...examplesOf(await helpText()),
    ].filter((e) => SELECTS.test(e.command) && e.command.startsWith('geo --sandbox '));
    expect(runnable.length).toBeGreaterThanOrEqual(3);
    for (const e of runnable) {
      const argv = e.command.split(' ').slice(1).map((w) => (w === 'claims.csv' ? join(dir, 'claims.csv') : w));
      const r = await spawnGeo([...argv, '--yes'], { env: { HOME: dir, GEO_CONFIG_DIR: join(dir, 'config'), GEO_DATA_DIR: join(dir, 'data'), GEO_STATE_DIR: join(dir, 'state') } });
      expect(r.code, `${e.command}\n${r.stderr}`).toBe(0);
      const rows = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
      expect(rows.length, e.command).toBeGreaterThan(1);
      for (const row of rows) expect(row.input, e.command).toEqual(expect.stringMatching(/^sample:\w+$|\.jpg$/));
    }
  }, 60_000);
});
