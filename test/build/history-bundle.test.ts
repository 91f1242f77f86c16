/**
 * The look-up bundle (src/build/build.ts 2b, bin/load-cli.js): `geo history …` loads
 * dist/cli-history.js, the CLI with that noun alone registered, instead of dist/cli.js; help, and
 * any argv whose command is not history after all, runs the full CLI. The built binary, watched by
 * a preload that reports which bundle files it opened.
 */
import { statSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { isAscii } from 'node:buffer';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, spawnGeo } from '../helpers/run-cli.js';

const DIST = new URL('../../dist/', import.meta.url);
const preload = join(mkdtempSync(join(tmpdir(), 'geo-bundles-')), 'opened.cjs');
writeFileSync(
  preload,
  [
    "const fs = require('node:fs'); const open = fs.openSync; const seen = [];",
    'fs.openSync = function (p, ...rest) { const m = /[\\\\/]dist[\\\\/](cli[\\w-]*\\.js)$/.exec(String(p)); if (m) seen.push(m[1]); return open.call(this, p, ...rest); };',
    "process.on('exit', () => process.stderr.write('bundles: ' + seen.join(',') + '\\n'));",
  ].join('\n'),
);

const store = mkdtempSync(join(tmpdir(), 'geo-bundles-data-'));
const env = { GEO_DATA_DIR: store };
const watched = (argv: string[]) => spawnGeo(argv, { env: { ...env, NODE_OPTIONS: `--require ${preload}` } });
const bundlesOf = (stderr: string) => /bundles: (.*)\n$/.exec(stderr)?.[1];
const withoutReport = (stderr: string) => stderr.replace(/bundles: .*\n$/, '');

describe('the look-up bundle, dist/cli-history.js', () => {
  it('is the CLI less every other command: ASCII, no import(), and under two thirds of dist/cli.js', () => {
    const history = readFileSync(new URL('cli-history.js', DIST));
    expect(isAscii(history)).toBe(true);
    expect(history.toString('latin1').split('\n').filter((l) => /(^|[^\w$.])import\(/.test(l) && !/^\s*(\*|\/\/|\/\*)/.test(l))).toEqual([]);
    expect(history.length).toBeLessThan((statSync(new URL('cli.js', DIST)).size * 2) / 3);
  });

  it('geo history, --search and show run from it alone, and print what the full CLI prints', async () => {
    expect((await spawnGeo(['--sandbox', 'locate', 'sample:paris', '--json'], { env })).code).toBe(0);
    for (const argv of [['history', '--json'], ['history', '--search', 'Paris'], ['history', 'show', 'sample:paris']]) {
      const built = await watched(argv);
      expect(built.code, built.stderr).toBe(0);
      expect(bundlesOf(built.stderr), argv.join(' ')).toBe('cli-history.js');
      const full = await runCli(argv, { env });
      expect({ ...built, stderr: withoutReport(built.stderr) }, argv.join(' ')).toEqual(full);
    }
  });

  it('help (geo history --help, geo help history) runs the full CLI, as before', async () => {
    for (const argv of [['history', '--help'], ['help', 'history'], ['history', 'show', '-h']]) {
      const built = await watched(argv);
      expect(bundlesOf(built.stderr), argv.join(' ')).toBe('cli.js');
      expect({ ...built, stderr: withoutReport(built.stderr) }, argv.join(' ')).toEqual(await runCli(argv, { env }));
    }
  });

  it('a value that reads "history" (geo --profile history version) hands over to the full CLI, which runs the command', async () => {
    const built = await watched(['--profile', 'history', 'version']);
    expect(built.code, built.stderr).toBe(0);
    expect(bundlesOf(built.stderr)).toBe('cli-history.js,cli.js');
    expect(built.stdout).toBe((await spawnGeo(['version'], { env })).stdout);
    expect(built.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
});
