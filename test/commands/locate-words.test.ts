/**
 * Issue 22's smaller locate items, as a user meets them: the missing file is named before the
 * missing key; --depth out of range is said with the flag's own words; --keep-metadata says, before
 * anything is sent, that the photo's GPS and serial numbers go with it.
 */
import { describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { FIXTURES, KEYS, withSandbox } from '../helpers/sandbox.js';

const sb = withSandbox();
const dirs = () => ({ GEO_STATE_DIR: tempConfigDir(), GEO_DATA_DIR: tempConfigDir() });

describe('geo locate, in words a user can act on', () => {
  it('without a key, a missing file is exit 2 naming the file, not exit 3 naming the key', async () => {
    const r = await runCli(['locate', 'missing.jpg'], { env: dirs() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: missing.jpg: no such file or folder — hint: check the path; geo takes image files, folders, - (stdin) and https URLs\n');
    // With the file there, the key is what is missing.
    expect((await runCli(['locate', `${FIXTURES}paris.jpg`], { env: dirs() })).code).toBe(3);
  });

  it('--depth 5 is refused with the flag\'s own words, nothing sent', async () => {
    const r = await runCli(['locate', `${FIXTURES}paris.jpg`, '--depth', '5'], { env: { ...dirs(), GEO_BASE_URL: sb.url, GEO_API_KEY: KEYS.pro } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: --depth must be 1, 2 or 3, got "5" \(invalid_request; nothing was sent\) — hint: --depth takes 1, 2 or 3/);
    expect(r.stderr).not.toMatch(/Too big|expected number/);
  });

  it('--keep-metadata names the GPS it sends, before the answer', async () => {
    const r = await runCli(['locate', `${FIXTURES}paris.jpg`, '--keep-metadata'], { env: { ...dirs(), GEO_BASE_URL: sb.url, GEO_API_KEY: KEYS.pro } });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^--keep-metadata: paris\.jpg is sent as it is, with its GPS position \(48\.85\d+, 2\.29\d+\), camera serial numbers and every other EXIF\/XMP field; the service can read where/m);
    const without = await runCli(['locate', `${FIXTURES}tokyo.jpg`], { env: { ...dirs(), GEO_BASE_URL: sb.url, GEO_API_KEY: KEYS.pro } });
    expect(without.stderr).not.toMatch(/--keep-metadata/);
  });

  it('a failed input of a batch is named on stderr as it fails', async () => {
    const { mkdtempSync, copyFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'geo-fail-'));
    for (const f of ['blocked.png', 'tokyo.jpg']) copyFileSync(`${FIXTURES}${f}`, join(dir, f));
    const r = await runCli(['locate', dir], { env: { ...dirs(), GEO_BASE_URL: sb.url, GEO_API_KEY: KEYS.pro } });
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/^failed: blocked\.png: the image failed content-safety screening; nothing was charged \(content_blocked\)$/m);
    expect(r.stderr).toMatch(/2 inputs: 1 ok, 1 failed/);
  });
});
