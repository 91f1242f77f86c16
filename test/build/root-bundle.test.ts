/**
 * The root help's bundle (src/build/build.ts 2c, bin/load-cli.js): `geo` and `geo --help` load
 * dist/cli-root.js, which lists the nouns from lines the build recorded and holds none of their
 * code, and print what the full CLI prints; anything naming a noun or a help topic runs dist/cli.js
 * alone. The built binary, watched by a preload that reports which bundle files it opened, and
 * whether anything called localeCompare (its first call loads ICU's collator, ~5 ms).
 */
import { isAscii } from 'node:buffer';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, spawnGeo } from '../helpers/run-cli.js';

const DIST = new URL('../../dist/', import.meta.url);
const preload = join(mkdtempSync(join(tmpdir(), 'geo-root-bundle-')), 'opened.cjs');
writeFileSync(
  preload,
  [
    "const fs = require('node:fs'); const open = fs.openSync; const seen = []; let collated = 0;",
    'fs.openSync = function (p, ...rest) { const m = /[\\\\/]dist[\\\\/](cli[\\w-]*\\.js)$/.exec(String(p)); if (m) seen.push(m[1]); return open.call(this, p, ...rest); };',
    'const lc = String.prototype.localeCompare; String.prototype.localeCompare = function (...a) { collated++; return lc.apply(this, a); };',
    "process.on('exit', () => process.stderr.write('bundles: ' + seen.join(',') + ' localeCompare: ' + collated + '\\n'));",
  ].join('\n'),
);

const watched = (argv: string[]) => spawnGeo(argv, { env: { NODE_OPTIONS: `--require ${preload}` } });
const report = (stderr: string) => /bundles: (.*) localeCompare: (\d+)\n$/.exec(stderr);
const withoutReport = (stderr: string) => stderr.replace(/bundles: .*\n$/, '');

describe('the root help bundle, dist/cli-root.js', () => {
  it('is the CLI less every command: ASCII, no import(), and under a fifth of dist/cli.js', () => {
    const root = readFileSync(new URL('cli-root.js', DIST));
    expect(isAscii(root)).toBe(true);
    expect(root.toString('latin1').split('\n').filter((l) => /(^|[^\w$.])import\(/.test(l) && !/^\s*(\*|\/\/|\/\*)/.test(l))).toEqual([]);
    expect(root.length).toBeLessThan(statSync(new URL('cli.js', DIST)).size / 5);
  });

  it('geo, geo --help, geo -h and a flag that does not exist run from it alone, print what the full CLI prints, and never collate', async () => {
    for (const argv of [[], ['--help'], ['-h'], ['--no-color', '--help'], ['--helpx']]) {
      const built = await watched(argv);
      const seen = report(built.stderr);
      expect(seen?.[1], argv.join(' ')).toBe('cli-root.js');
      expect(seen?.[2], `${argv.join(' ')}: localeCompare calls`).toBe('0');
      expect({ ...built, stderr: withoutReport(built.stderr) }, argv.join(' ')).toEqual(await runCli(argv));
    }
  });

  it('a noun, a help topic or a value (geo help, geo locat, geo --profile x --help) runs the full CLI alone', async () => {
    for (const argv of [['help'], ['help', 'formatting'], ['locate', '--help'], ['locat'], ['--profile', 'x', '--help']]) {
      const built = await watched(argv);
      expect(report(built.stderr)?.[1], argv.join(' ')).toBe('cli.js');
      expect({ ...built, stderr: withoutReport(built.stderr) }, argv.join(' ')).toEqual(await runCli(argv));
    }
  });
});
