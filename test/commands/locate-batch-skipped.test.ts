/**
 * Every input accounted (issue 11): a file found in a folder that cannot be sent (a PDF named .jpg,
 * empty, a text file named .png, too large) gets its own NDJSON record, ok:false with code "skipped" and
 * the reason, counts in the summary, and makes the exit 7; --dry-run lists it; nothing is sent
 * for it. A folder with nothing usable stays a usage error (exit 2).
 */
import { copyFileSync, mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ledgerFigures } from '../batch/helpers.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';
import { IMG, footprint, runner } from './locate-helpers.js';

const sb = withSandbox();
const run = runner(sb);
const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

/** tokyo.jpg and four files that cannot be sent. */
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'geo-skipped-'));
  copyFileSync(`${IMG}tokyo.jpg`, join(dir, 'tokyo.jpg'));
  writeFileSync(join(dir, 'scan.jpg'), '%PDF-1.4\n%\u00e2\u00e3\n1 0 obj\n');
  writeFileSync(join(dir, 'empty.jpg'), '');
  writeFileSync(join(dir, 'notes.png'), 'not a picture, just text\n');
  writeFileSync(join(dir, 'huge.jpg'), '');
  truncateSync(join(dir, 'huge.jpg'), 15_000_001); // sparse: above the 20 MB base64 limit, never read whole
  return dir;
}
const REASONS: Array<[string, RegExp]> = [
  ['empty.jpg', /is empty \(0 bytes\)/],
  ['huge.jpg', /above the 20 MB limit.*--downscale/],
  ['notes.png', /not an image/],
  ['scan.jpg', /not an image \(a PDF document\)/],
];

describe('inputs skipped in a folder', () => {
  it('one record each (ok:false, code skipped, the reason), counted in the summary, exit 7; only the image is sent', async () => {
    const dir = folder();
    const sent = ledgerFigures(sb.ledger(), KEYS.pro).geolocateRequests;
    const r = await run(['locate', dir]);
    expect(r.code).toBe(7);
    const recs = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(recs).toHaveLength(5);
    const skipped = recs.filter((x) => !x.ok);
    expect(skipped.map((x) => String(x.input).replace(/.*\//, '')).sort()).toEqual(REASONS.map(([n]) => n));
    for (const x of skipped) {
      expect(Object.keys(x)).toEqual(['input', 'sha256', 'ok', 'error', 'exif']);
      expect(x).toMatchObject({ sha256: null, ok: false, exif: null, error: { code: 'skipped' } });
      const [, why] = REASONS.find(([n]) => String(x.input).endsWith(n))!;
      expect((x.error as { message: string }).message).toMatch(why);
    }
    // Known before anything is sent, so their lines come first.
    expect(recs.slice(0, 4).every((x) => !x.ok)).toBe(true);
    expect(recs[4]).toMatchObject({ ok: true });
    expect(String(recs[4]!.input)).toMatch(/tokyo\.jpg$/);
    expect(plain(r.stderr)).toMatch(/5 inputs: 1 ok, 0 failed, 4 skipped · 1 credit spent/);
    expect(r.stderr).toContain('4 inputs skipped, never sent');
    // One image to send and below the threshold: the balance is not read (plan line without it).
    expect(r.stderr).toMatch(/^plan: 5 inputs, 4 skipped · 1 to send × depth 1 \(1 credit\) = up to 1 credit$/m);
    expect(ledgerFigures(sb.ledger(), KEYS.pro).geolocateRequests).toBe(sent + 1);
  });

  it('on a terminal: rows in the results table, and the summary counts them', async () => {
    const r = await run(['locate', folder()], { tty: true });
    expect(r.code).toBe(7);
    expect(plain(r.stdout)).toMatch(/empty\.jpg +│ failed: skipped/);
    expect(plain(r.stderr)).toMatch(/5 inputs: 1 ok, 0 failed, 4 skipped/);
  });

  it('--dry-run lists them, in text and in JSON; nothing is sent', async () => {
    const dir = folder();
    const before = footprint(sb);
    const r = await run(['locate', dir, '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^plan: 5 inputs, 4 skipped · 1 to send/);
    for (const [n, why] of REASONS) expect(r.stdout).toMatch(new RegExp(`skipped \\S*${n.replace('.', '\\.')}: .*${why.source}`));
    const j = JSON.parse((await run(['locate', dir, '--dry-run', '--json'])).stdout) as { inputs: number; skipped: Array<{ input: string; reason: string }> };
    expect(j.inputs).toBe(5);
    expect(j.skipped.map((s) => s.input.replace(/.*\//, '')).sort()).toEqual(REASONS.map(([n]) => n));
    expect(footprint(sb)).toEqual(before);
  });

  it('a folder with nothing usable is a usage error: exit 2, nothing sent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'geo-skipped-none-'));
    writeFileSync(join(dir, 'empty.jpg'), '');
    writeFileSync(join(dir, 'IMG_0002.heic'), 'x');
    const before = footprint(sb);
    const r = await run(['locate', dir]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/error: no usable image among the inputs \(2 skipped/);
    expect(footprint(sb)).toEqual(before);
  });
});
