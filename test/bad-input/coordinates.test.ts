/**
 * Text shaped like coordinates that is not a point on Earth (NaN, Infinity, a number too long for a
 * double, hex, an exponent, out of range) is refused wherever geo reads coordinates: claims check
 * --at, a claims file's at column, locate --center and --scope. Exit 2 (a row: not checked), one
 * line, and the sandbox's ledger shows nothing sent; searched as a place, "NaN,NaN" was the town of
 * Nan and was charged.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeDistinctJpegs } from '../helpers/distinct-images.js';
import { runCli } from '../helpers/run-cli.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';

const sb = withSandbox();
const state = mkdtempSync(join(tmpdir(), 'geo-coords-'));
const run = (argv: string[]) => runCli(argv, { env: { GEO_API_KEY: KEYS.pro, GEO_BASE_URL: sb.url, GEO_STATE_DIR: state, GEO_DATA_DIR: state } });
const requests = () => sb.ledger().keys[KEYS.pro]!.requests;

/** [how the test names it, the text]: a latitude of 400 nines is Infinity to Number(). */
const BAD: Array<[string, string]> = [['NaN,NaN', 'NaN,NaN'], [' nan , nan ', ' nan , nan '], ['Infinity,0', 'Infinity,0'], ['-Infinity,10', '-Infinity,10'], ['9…(400 nines),0', `${'9'.repeat(400)},0`], ['1e1,5', '1e1,5'], ['0x10,5', '0x10,5'], ['91,0', '91,0'], ['0,180.5', '0,180.5']];

describe('coordinates that are no point on Earth', () => {
  it.each(BAD)('claims check --at "%s": one line naming the coordinates, exit 2, nothing sent', async (_, at) => {
    const [img] = await writeDistinctJpegs(mkdtempSync(join(tmpdir(), 'geo-coords-at-')), 1, 'at');
    const before = requests();
    const r = await run(['claims', 'check', img!, '--at', at]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: --at ".*": (not LAT,LNG in decimal degrees|coordinates out of range)/)]);
    expect(requests()).toBe(before);
  });

  it('a claims file row at "NaN,NaN": not checked, nothing sent for it; the good row is checked (exit 7)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'geo-coords-file-'));
    const [a, b] = (await writeDistinctJpegs(dir, 2, 'file')).map((p) => basename(p));
    const csv = join(dir, 'claims.csv');
    writeFileSync(csv, `image,at\n${a},"NaN,NaN"\n${b},"49.99,36.23"\n`);
    const before = requests();
    const r = await run(['claims', 'check', csv]);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/^not checked: .*claims\.csv row 1 \(line 2\): "NaN,NaN": not LAT,LNG in decimal degrees.*; nothing sent for it$/m);
    expect(requests() - before).toBe(1);
  });

  it.each(BAD)('locate --scope Paris --center "%s": exit 2, nothing sent', async (_, center) => {
    const before = requests();
    const r = await run(['locate', 'sample:paris', '--scope', 'Paris', '--center', center]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: --center ".*": (not LAT,LNG in decimal degrees|coordinates out of range)/)]);
    expect(requests()).toBe(before);
  });

  it('locate --scope "NaN,NaN" (no --center): refused as coordinates, not searched as the town of Nan; exit 2, nothing sent', async () => {
    const before = requests();
    const r = await run(['locate', 'sample:paris', '--scope', 'NaN,NaN']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: --scope "NaN,NaN" looks like coordinates/)]);
    expect(requests()).toBe(before);
  });

  it('a town named Nan, and a good point, still work', async () => {
    expect((await run(['claims', 'check', 'sample:paris', '--at', 'Nan', '--dry-run'])).code).toBe(0);
    expect((await run(['claims', 'check', 'sample:paris', '--at', '-33.87,151.21', '--dry-run'])).code).toBe(0);
  });
});
