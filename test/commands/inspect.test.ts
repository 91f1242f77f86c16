import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const FIX = new URL('../../fixtures/images/', import.meta.url).pathname;
const f = (name: string) => FIX + name;
const ANSI = /\u001b\[/;

describe('geo inspect', () => {
  it('--json with one file prints one object: hash, type, size, dimensions, EXIF, place', async () => {
    const r = await runCli(['inspect', '--json', f('paris.jpg')]);
    expect(r.code, r.stderr).toBe(0);
    const o = JSON.parse(r.stdout);
    expect(o).toMatchObject({ input: f('paris.jpg'), ok: true, type: 'jpeg', mime: 'image/jpeg', size: 995, width: 32, height: 24, api: { accepted: true } });
    expect(o.sha256).toBe('868735296a0bd351a2afca9abc7ee9683183a56d097dc3fc87607e1bb724618a');
    expect(o.exif).toMatchObject({ dateTimeOriginal: '2024:05:14 18:32:07', offsetTime: '+02:00', make: 'Apple', model: 'iPhone 13', errors: [] });
    expect(o.exif.gps.lat).toBeCloseTo(48.85837, 6);
    expect(o.place).toMatchObject({ countryCode: 'FR', region: 'Île-de-France' });
    expect(o.place.text).toMatch(/France$/);
    // What geo locate would upload: the file without its EXIF, orientation kept (issue 14).
    expect(o.upload).toMatchObject({ metadata: 'removed', size: 591, removed: [{ what: 'EXIF (GPS, camera, capture details)', bytes: 440 }], orientation: 1 });
    const text = await runCli(['inspect', f('paris.jpg'), f('plain.png')]);
    expect(text.stdout).toContain('upload  without EXIF (GPS, camera, capture details; 440 bytes); orientation (1) kept (591 bytes; --keep-metadata sends the file as it is)');
    expect(text.stdout).toContain('upload  sent as it is: no metadata to remove');
  });

  it('several files (or --format ndjson) print one line per file', async () => {
    const r = await runCli(['inspect', '--json', f('tokyo.jpg'), f('plain.png'), f('zero.jpg')]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.type)).toEqual(['jpeg', 'png', 'jpeg']);
    expect(lines[0].place.countryCode).toBe('JP');
    expect(lines[1].exif.gps).toBeUndefined();
    expect(lines[2].exif.gps).toMatchObject({ lat: 0, lng: 0, suspect: 'zero' });
    expect(lines[2].place).toBeUndefined();
    const nd = await runCli(['inspect', '--format', 'ndjson', f('sydney.jpg')]);
    expect(nd.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(nd.stdout).place.countryCode).toBe('AU');
  });

  it('piped: plain aligned key/value text, no ANSI; 0,0 flagged as suspect', async () => {
    const r = await runCli(['inspect', f('zero.jpg'), f('newyork.jpg')]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(ANSI);
    expect(r.stdout).toMatch(/^ {2}sha256 +[0-9a-f]{64}$/m);
    expect(r.stdout).toMatch(/GPS +0, 0 \(suspect/);
    expect(r.stdout).toMatch(/GPS +40\.689247, -74\.044502/);
    expect(r.stdout).toMatch(/taken +2022-07-04 21:40 local \(UTC-04:00\), 2022-07-05 01:40 UTC/);
    expect(r.stdout).toMatch(/United States/);
  });

  it('on a colour terminal the same rows, styled', async () => {
    const r = await runCli(['inspect', f('paris.jpg')], { tty: true, env: { FORCE_COLOR: '1' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/sha256/);
  });

  it('reads stdin with -', async () => {
    const r = await runCli(['inspect', '--json', '-'], { stdin: readFileSync(f('tokyo.jpg')) });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ input: '-', type: 'jpeg', exif: { make: 'SONY' } });
    const tty = await runCli(['inspect', '-'], { tty: { stdin: true } });
    expect(tty.code).toBe(2);
    expect(tty.stderr).toMatch(/stdin is a terminal/);
  });

  it('one missing or non-image file: exit 2, one line with a hint, nothing on stdout', async () => {
    const missing = await runCli(['inspect', f('nope.jpg')]);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toMatch(/no such file.*hint/);
    const text = await runCli(['inspect', f('not-image.jpg')]);
    expect(text.code).toBe(2);
    expect(text.stderr).toMatch(/not an image \(text\)/);
    expect((await runCli(['inspect', f('empty.jpg')])).stderr).toMatch(/empty/);
  });

  it('some of many fail: the rest is printed, one stderr line per failure, exit 7', async () => {
    const r = await runCli(['inspect', '--json', f('paris.jpg'), f('nope.jpg'), f('truncated.jpg')]);
    expect(r.code).toBe(7);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.ok)).toEqual([true, false, true]);
    expect(lines[1].error.message).toMatch(/no such file/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a truncated JPEG still yields what can be read', async () => {
    const r = await runCli(['inspect', '--json', f('truncated.jpg')]);
    expect(r.code).toBe(0);
    const o = JSON.parse(r.stdout);
    expect(o).toMatchObject({ ok: true, type: 'jpeg', size: 497 });
    expect(Array.isArray(o.exif.errors)).toBe(true);
  });

  it('--help shows examples that run anywhere (the shipped samples; test/install runs them)', async () => {
    const r = await runCli(['inspect', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Examples \(/);
    expect(r.stdout).toMatch(/\$ geo inspect --json sample:tokyo/);
  });

  it('sample:NAME is a photo shipped with geo; an unknown name is one line with the list', async () => {
    const r = await runCli(['inspect', 'sample:paris', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, sha256: expect.stringMatching(/^868735296a0b/) });
    const all = await runCli(['inspect', 'sample:all', '--format', 'ndjson']);
    expect(all.stdout.trimEnd().split('\n')).toHaveLength(5);
    const bad = await runCli(['inspect', 'sample:rome']);
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr).toMatch(/^error: unknown sample "rome" — hint: built-in samples: sample:paris, .*sample:all\n$/);
  });

  it('the sun at the photo\'s own GPS and capture time: in the block and in --json; none without GPS', async () => {
    const r = await runCli(['inspect', f('paris.jpg'), f('nogps.jpg')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('  sun     269° az, 26° elev at the photo\'s GPS (Paris 16 Passy, Île-de-France, France), 2024-05-14 18:32 there and on the photo\'s clock (UTC+02:00, EXIF OffsetTimeOriginal): shadows point E (89°), about 2.0× the height of what casts them\n');
    expect(r.stdout.split('nogps.jpg')[1]).not.toMatch(/\n {2}sun /);
    const j = JSON.parse((await runCli(['inspect', '--json', f('sydney.jpg')])).stdout);
    expect(j.sun).toMatchObject({ point: 'photo GPS', lat: -33.856784, time: { local: '2024-01-26 20:05:10', offset: '+11:00', basis: 'exif' }, phase: 'civil twilight' });
    expect(j.sun).not.toHaveProperty('shadow');
    expect(j.exif.offsetTimeTag).toBe('OffsetTimeOriginal');
  });

  // Issue 21: a device or a pipe is judged by its first bytes, so an endless one is refused at once.
  // /proc/self/io counts the bytes this process read: /dev/zero's were 256 MiB before.
  it.skipIf(process.platform !== 'linux')('geo inspect /dev/zero refuses after a bounded prefix, not 256 MiB of zeros', async () => {
    const rchar = () => Number(/^rchar: (\d+)/m.exec(readFileSync('/proc/self/io', 'utf8'))![1]);
    const before = rchar();
    const r = await runCli(['inspect', '/dev/zero']);
    const read = rchar() - before;
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\/dev\/zero: a device, not an image/);
    expect(read).toBeLessThan(4 * 1024 * 1024);
  });
});
