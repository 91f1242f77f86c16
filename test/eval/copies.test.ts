/**
 * The calibration set of copies (fixtures/make-copies.js) and `geo eval --copies` on it, run as
 * built: a small set of 20 originals made by the script (crops of ../shared/photos among them when
 * that folder is there), its layout and its determinism, the figures per kind of copy and the
 * threshold on the terminal and in --json, and a folder without the layout refused in one line.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import exifr from 'exifr';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnGeo } from '../helpers/run-cli.js';

const SCRIPT = new URL('../../fixtures/make-copies.js', import.meta.url).pathname;
const KINDS = ['bright+10', 'bright-10', 'crop-10', 'crop-5', 'jpeg-q30', 'jpeg-q50', 'jpeg-q70', 'jpeg-q90', 'resize-25', 'resize-50', 'screenshot', 'stripped', 'webp'];
const make = (dir: string, ...args: string[]) => promisify(execFile)(process.execPath, [SCRIPT, dir, ...args], { env: { ...process.env, NODE_EXTRA_CA_CERTS: '' } });
const sums = (dir: string) => Object.fromEntries(['originals', ...KINDS].flatMap((k) => readdirSync(join(dir, k)).map((f) => [`${k}/${f}`, createHash('sha256').update(readFileSync(join(dir, k, f))).digest('hex')])));
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let set: string;
beforeAll(async () => {
  set = mkdtempSync(join(tmpdir(), 'geo-copies-'));
  await make(set, '--count', '20', '--seed', '7');
}, 180_000);

describe('fixtures/make-copies.js', () => {
  it('makes 20 originals with EXIF GPS and one copy of each of the 13 kinds, named as its original', () => {
    const originals = readdirSync(join(set, 'originals')).sort();
    expect(originals).toHaveLength(20);
    expect(readdirSync(set).filter((f) => f !== 'set.json').sort()).toEqual(['originals', ...KINDS].sort());
    for (const k of KINDS) expect(readdirSync(join(set, k)).map((f) => f.replace(/\.[^.]+$/, '')).sort()).toEqual(originals.map((f) => f.replace(/\.jpg$/, '')));
    const families = JSON.parse(readFileSync(join(set, 'set.json'), 'utf8')).families as Record<string, number>;
    for (const f of ['shapes', 'text', 'noise', 'stripes', 'landscape']) expect(families[f]).toBeGreaterThanOrEqual(3);
  });

  it('the stripped copy is the original\'s pixels without its metadata; the screenshot is larger, with a border and bars', async () => {
    const name = readdirSync(join(set, 'originals')).sort()[0]!;
    const original = readFileSync(join(set, 'originals', name));
    const stripped = readFileSync(join(set, 'stripped', name));
    expect((await exifr.gps(original))?.latitude).toEqual(expect.any(Number));
    expect(await exifr.parse(stripped)).toBeUndefined();
    expect(await sharp(stripped).raw().toBuffer()).toEqual(await sharp(original).raw().toBuffer());
    const o = await sharp(original).metadata();
    const shot = await sharp(join(set, 'screenshot', name.replace(/\.jpg$/, '.png'))).metadata();
    expect(shot.format).toBe('png');
    expect(shot.width).toBeGreaterThan(o.width!);
    expect(shot.height).toBeGreaterThan(o.height!);
  });

  it('is deterministic: the same seed makes the same bytes, another seed other pictures', async () => {
    const [a, b, c] = [0, 1, 2].map(() => mkdtempSync(join(tmpdir(), 'geo-copies-')));
    await Promise.all([make(a!, '--count', '4', '--seed', '5'), make(b!, '--count', '4', '--seed', '5'), make(c!, '--count', '4', '--seed', '6')]);
    expect(sums(a!)).toEqual(sums(b!));
    const theirs = new Set(Object.values(sums(c!)));
    expect(Object.values(sums(a!)).filter((h) => theirs.has(h))).toEqual([]);
  }, 120_000);

  it('a bad count is one line and exit 2', async () => {
    const err = await make(mkdtempSync(join(tmpdir(), 'geo-copies-')), '--count', 'many').catch((e: { code: number; stderr: string }) => e);
    expect(err).toMatchObject({ code: 2 });
    expect((err as { stderr: string }).stderr).toMatch(/^make-copies: --count must be a whole number/);
  });
});

describe('geo eval --copies', () => {
  it('prints the threshold and one line per kind of copy, the required ones marked; nothing sent, no key', async () => {
    const r = await spawnGeo(['eval', '--copies', set]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^PDQ on 20 originals and 260 copies of 13 kinds in /);
    expect(r.stdout).toMatch(/^threshold: \d+ bits: [\d.]+% of jpeg-q30, .* together \(95(\.0)?% asked\), 0 of 190 distinct pairs/m);
    for (const k of KINDS) expect(r.stdout).toMatch(new RegExp(`^${k.replace('+', '\\+')}${/^(jpeg|resize|webp|stripped)/.test(k) ? ' \\*' : ''} +20 +\\d+\\.\\d% \\(\\d+\\)`, 'm'));
    expect(r.stdout).toMatch(/^stripped \* +20 +100\.0% \(20\) .* 0 +0 +0 +0 +0$/m);
    expect(r.stdout).toMatch(/^distinct pairs, bits apart: min \d+/m);
  }, 120_000);

  it('--json: the set, the rule, the threshold, per kind the figures, the distinct pairs and the curve', async () => {
    const r = await spawnGeo(['eval', '--copies', set, '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as Json;
    expect(j).toMatchObject({ set, hash: 'pdq', originals: 20, hashed: 20, rule: { max_false_match_rate: 0.0001, min_recall: 0.95 } });
    expect(j.rule.required_kinds).toEqual(['jpeg-q30', 'jpeg-q50', 'jpeg-q70', 'jpeg-q90', 'resize-25', 'resize-50', 'stripped', 'webp']);
    expect(j.threshold).toEqual({ bits: expect.any(Number), false_matches: 0, false_match_rate: 0, required_recall: expect.any(Number), together: expect.any(Number), met: true });
    expect((j.threshold.bits + 1) % 16).toBe(0);
    expect(j.default).toMatchObject({ bits: expect.any(Number) });
    expect(j.kinds.map((k: Json) => k.kind)).toEqual(KINDS);
    for (const k of j.kinds) {
      expect(k).toMatchObject({ copies: 20, unreadable: 0, cross_pairs: 20 * 19, distance: { p50: expect.any(Number), max: expect.any(Number) } });
      expect(k.recall).toBe(k.found / 20);
    }
    expect(j.kinds.find((k: Json) => k.kind === 'stripped')).toMatchObject({ recall: 1, distance: { max: 0 } });
    expect(j.distinct).toMatchObject({ pairs: 190, distance: { min: expect.any(Number), p50: expect.any(Number) } });
    expect(j.distinct.nearest).toHaveLength(10);
    expect(j.curve).toHaveLength(97);
  }, 120_000);

  it('a copy that cannot be decoded is named on stderr and counted as missed; a copy without an original is left out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'geo-copies-bad-'));
    for (const k of ['originals', 'jpeg-q90']) {
      mkdirSync(join(dir, k));
      for (const f of readdirSync(join(set, k))) writeFileSync(join(dir, k, f), readFileSync(join(set, k, f)));
    }
    const broken = readdirSync(join(dir, 'jpeg-q90')).sort()[0]!;
    writeFileSync(join(dir, 'jpeg-q90', broken), 'not a picture');
    writeFileSync(join(dir, 'jpeg-q90', 'stray.jpg'), readFileSync(join(dir, 'originals', broken)));
    const r = await spawnGeo(['eval', '--copies', dir, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`unreadable: ${join(dir, 'jpeg-q90', broken)}: `);
    expect(r.stderr).toContain('(a copy: counted as missed)');
    expect(r.stderr).toContain('1 copy has no original of the same name, left out: jpeg-q90/stray.jpg');
    const k = (JSON.parse(r.stdout) as Json).kinds[0];
    expect(k).toMatchObject({ kind: 'jpeg-q90', copies: 20, unreadable: 1 });
    expect(k.found).toBeLessThanOrEqual(19);
  }, 120_000);

  it('a folder without the layout, a missing folder, images beside --copies, or a flag of locating: one line, exit 2', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'geo-copies-bare-'));
    writeFileSync(join(bare, 'a.jpg'), readFileSync(join(set, 'originals', readdirSync(join(set, 'originals'))[0]!)));
    const lonely = mkdtempSync(join(tmpdir(), 'geo-copies-lonely-'));
    mkdirSync(join(lonely, 'originals'));
    for (const f of readdirSync(join(set, 'originals')).slice(0, 2)) writeFileSync(join(lonely, 'originals', f), readFileSync(join(set, 'originals', f)));
    const cases: Array<[string[], RegExp]> = [
      [['eval', '--copies', bare], /no originals\/ folder, so not a set of copies/],
      [['eval', '--copies', join(bare, 'nothing')], /no such folder/],
      [['eval', '--copies', join(bare, 'a.jpg')], /not a folder/],
      [['eval', '--copies', lonely], /no folder of copies beside originals\//],
      [['eval', '--copies', set, join(bare, 'a.jpg')], /--copies takes its set as its value, not images/],
      [['eval', '--copies', set, '--depth', '3'], /--copies does not take --depth/],
    ];
    for (const [argv, message] of cases) {
      const r = await spawnGeo(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
      expect(r.stderr).not.toMatch(/\bat .*\.js:\d+/);
    }
  }, 120_000);
});
