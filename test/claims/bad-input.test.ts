/**
 * Issue 33, "Must show" 4: bad input is one line naming the row, nothing is sent for it, and the
 * rest are checked: an unknown place, coordinates out of range, a row naming a missing file, a
 * tolerance that is no distance, a CSV without an image column. Against the sandbox, whose ledger
 * shows what was sent and charged.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeDistinctJpegs } from '../helpers/distinct-images.js';
import { type RunOptions, runCli } from '../helpers/run-cli.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';

const sb = withSandbox();
const state = mkdtempSync(join(tmpdir(), 'geo-claims-bad-'));
const run = (argv: string[], opts: RunOptions = {}) => runCli(argv, { ...opts, env: { GEO_API_KEY: KEYS.pro, GEO_BASE_URL: sb.url, GEO_STATE_DIR: state, GEO_DATA_DIR: state, ...opts.env } });
const ledger = () => sb.ledger().keys[KEYS.pro]!;

describe('geo claims check: bad input', () => {
  it('each bad row of a claims CSV is one line naming the row, nothing is sent for it, and the other rows are checked (exit 7)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'geo-claims-badrows-'));
    const [a, b, c, d, e] = (await writeDistinctJpegs(dir, 5, 'bad')).map((p) => basename(p));
    const csv = join(dir, 'claims.csv');
    writeFileSync(csv, [
      'image,at,within',
      `${a},"Kharkiv, UA",`,
      `${b},Narnia,`, // an unknown place
      `${c},"95.5,30.1",`, // latitude out of range
      'gone.jpg,"Kyiv, UA",', // a missing file
      `${d},"Lviv, UA",far`, // a tolerance that is no distance
      `${e},"49.99,36.23",5`,
    ].join('\n') + '\n');
    const before = ledger().debits;
    const r = await run(['claims', 'check', csv, '--json']);
    expect(r.code).toBe(7);
    const notChecked = r.stderr.split('\n').filter((l) => l.startsWith('not checked:'));
    expect(notChecked).toEqual([
      expect.stringMatching(/^not checked: .*claims\.csv row 2 \(line 3\): "Narnia": no such place in the offline index .*; nothing sent for it$/),
      expect.stringMatching(/^not checked: .*claims\.csv row 3 \(line 4\): "95\.5,30\.1": coordinates out of range .*; nothing sent for it$/),
      expect.stringMatching(/^not checked: .*claims\.csv row 4 \(line 5\): gone\.jpg: no such file .*; nothing sent for it$/),
      expect.stringMatching(/^not checked: .*claims\.csv row 5 \(line 6\): within "far" is not a distance in km .*; nothing sent for it$/),
    ]);
    expect(r.stderr).not.toMatch(/error:/);
    // Only the two good rows' images were sent (and charged): nothing for the four bad ones.
    expect(ledger().debits - before).toBe(2);
    const out = JSON.parse(r.stdout) as Array<{ row: number; verdict: string | null; error: { code: string; message: string } | null }>;
    expect(out.map((x) => [x.row, x.verdict === null ? 'not checked' : 'checked'])).toEqual([[1, 'checked'], [2, 'not checked'], [3, 'not checked'], [4, 'not checked'], [5, 'not checked'], [6, 'checked']]);
    expect(out[1]!.error).toMatchObject({ code: 'bad_input', message: expect.stringContaining('row 2 (line 3)') });
  });

  it('a claims CSV without an image column: one line naming it, exit 2, nothing sent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'geo-claims-nocol-'));
    const csv = join(dir, 'claims.csv');
    writeFileSync(csv, 'photo_name,place\na.jpg,Kyiv\n');
    const before = ledger().requests;
    const r = await run(['claims', 'check', csv]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: .*claims\.csv line 1: no image column \(the header names: photo_name, place\)/);
    expect(ledger().requests).toBe(before);
  });

  it('one image with an unknown place, or coordinates out of range: one line, exit 2, nothing sent', async () => {
    const [img] = await writeDistinctJpegs(mkdtempSync(join(tmpdir(), 'geo-claims-one-')), 1, 'one');
    const before = ledger().requests;
    for (const at of ['Atlantis, ZZ', '12.5,190']) {
      const r = await run(['claims', 'check', img!, '--at', at]);
      expect(r.code, at).toBe(2);
      expect(r.stderr.trim().split('\n'), at).toHaveLength(1);
      expect(r.stderr).toMatch(at === '12.5,190' ? /^error: --at "12\.5,190": coordinates out of range/ : /^error: --at "Atlantis, ZZ": no such place in the offline index/);
    }
    const missing = await run(['claims', 'check', join(tmpdir(), 'no-such-photo.jpg'), '--at', 'Kyiv']);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: .*no-such-photo\.jpg: no such file or folder; nothing was sent/)]);
    expect(ledger().requests).toBe(before);
  });
});
