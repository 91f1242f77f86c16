/**
 * Damaged JPEGs. One the local decoder (sharp) cannot read at all (truncated.jpg: the first half of
 * paris.jpg, cut before its frame header, as odd_truncated_fuzz.jpg was) is refused locally with
 * the reason and never sent: exit 2 alone, a failed input without a request in a batch, the others
 * sent. One cut in its pixel data still decodes in part, so it is sent like any JPEG and the
 * service gives the verdict. `geo inspect` reads what is there and says which of the two it is.
 * The sandbox's ledger shows what was sent.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { FIXTURES, KEYS, withSandbox } from '../helpers/sandbox.js';

const TRUNCATED = FIXTURES + 'truncated.jpg';
const sb = withSandbox();
const run = (argv: string[], stdin?: Buffer) => runCli(argv, { env: { GEO_API_KEY: KEYS.pro, GEO_BASE_URL: sb.url, GEO_DATA_DIR: mkdtempSync(join(tmpdir(), 'geo-trunc-')) }, ...(stdin ? { stdin } : {}) });
/** Geolocate requests the sandbox received (each carries an idempotency key; balance reads do not). */
const requests = () => Object.values(sb.ledger().keys[KEYS.pro]!.idempotency).reduce((n, k) => n + k.requests, 0);
/** paris.jpg cut 95 bytes before its end: the header whole, the last rows of pixels missing. */
function cutInPixels(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'geo-cut-')), 'cut.jpg');
  const paris = readFileSync(FIXTURES + 'paris.jpg');
  writeFileSync(file, paris.subarray(0, paris.length - 95));
  return file;
}
const REFUSED = /truncated\.jpg: damaged: the local decoder cannot read it \(Input file has corrupt header: VipsJpeg: premature end of JPEG image\); nothing was sent/;

describe('a JPEG the local decoder cannot read at all', () => {
  it('geo inspect reads the partial file: type, size, sha256 and the EXIF that survived', async () => {
    const r = await runCli(['inspect', TRUNCATED, '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { ok: boolean; type: string; size: number; sha256: string; exif: { gps?: { lat: number } } };
    expect(out).toMatchObject({ ok: true, type: 'jpeg', size: 497 });
    expect(out.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(out.exif.gps?.lat).toBeCloseTo(48.85837, 5);
  });

  it('geo inspect says the decoder cannot read it and geo locate refuses it', async () => {
    const r = await runCli(['inspect', TRUNCATED]);
    expect(r.stdout).toMatch(/^ {2}API +not as is: damaged: the local decoder cannot read it \(Input buffer has corrupt header: VipsJpeg: premature end of JPEG image\): geo locate refuses it$/m);
  });

  it('geo locate truncated.jpg: one line with the reason, exit 2, nothing sent', async () => {
    const before = requests();
    const r = await run(['locate', TRUNCATED]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n').filter((l) => l.startsWith('error:'))).toEqual([expect.stringMatching(REFUSED)]);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(requests()).toBe(before);
  });

  it('the same bytes on stdin: exit 2, nothing sent', async () => {
    const before = requests();
    const r = await run(['locate', '-'], readFileSync(TRUNCATED));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: -: damaged: the local decoder cannot read it \(Input buffer has corrupt header: VipsJpeg: premature end of JPEG image\); nothing was sent/m);
    expect(requests()).toBe(before);
  });

  it('in a batch: that input fails without a request, the other is sent (exit 7)', async () => {
    const before = requests();
    const r = await run(['locate', TRUNCATED, FIXTURES + 'tokyo.jpg', '--format', 'ndjson']);
    expect(r.code).toBe(7);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { input: string; ok: boolean; error?: { code: string; message: string } });
    expect(lines.find((l) => l.input.endsWith('truncated.jpg'))).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringMatching(REFUSED) } });
    expect(lines.find((l) => l.input.endsWith('tokyo.jpg'))).toMatchObject({ ok: true });
    expect(requests() - before).toBe(1);
  });
});

describe('a JPEG cut in its pixel data: partial data, not bad input', () => {
  it('geo inspect calls it accepted (its header reads), and geo locate sends it', async () => {
    const file = cutInPixels();
    expect((await runCli(['inspect', file])).stdout).toMatch(/^ {2}API +accepted as is$/m);
    const before = requests();
    const r = await run(['locate', file, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ success: true });
    expect(requests() - before).toBe(1);
  });
});
