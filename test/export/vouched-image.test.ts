/**
 * Issue 20, item 3 outside geo mcp: `geo export untrusted.ndjson --format html|kmz` embeds a
 * photo only when the file's sha256 equals the record's. A crafted results file that names a local
 * photo with an empty sha256, or with another image's, gets no picture and a line saying why; the
 * record whose sha256 is the photo's own is the control.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { FIXTURES } from '../helpers/sandbox.js';
import { forensicBody } from './fixtures.js';
import { unzip } from './unzip.js';

const dir = mkdtempSync(join(tmpdir(), 'geo-vouch-'));
const PHOTO = join(dir, 'private.jpg');
copyFileSync(join(FIXTURES, 'paris.jpg'), PHOTO);
const SHA = createHash('sha256').update(readFileSync(PHOTO)).digest('hex');
const line = (sha: string, id: string) => JSON.stringify({ input: PHOTO, sha256: sha, ok: true, result: forensicBody({ analysis_id: id }), exif: null });
const file = (name: string, lines: string[]) => {
  const p = join(dir, name);
  writeFileSync(p, lines.join('\n') + '\n');
  return p;
};
const env = { GEO_DATA_DIR: join(dir, 'data') };
const figures = (html: string) => (html.match(/<figure class="img">/g) ?? []).length;

describe('geo export embeds only the photo a record vouches for', () => {
  it('html: an empty sha256 and another image\'s sha256 give no picture and say why; the true sha256 embeds it', async () => {
    const crafted = await runCli(['export', file('crafted.ndjson', [line('', 'an_empty'), line('ab'.repeat(32), 'an_other')]), '--format', 'html'], { env });
    expect(crafted.code, crafted.stderr).toBe(0);
    expect(figures(crafted.stdout)).toBe(0);
    expect(crafted.stdout).toContain(`left out: the record carries no sha256, so no file can be shown to be its image (${PHOTO})`);
    expect(crafted.stdout).toContain(`left out: ${PHOTO} is not the image this result was made from (its sha256 differs)`);
    const honest = await runCli(['export', file('honest.ndjson', [line(SHA, 'an_true')]), '--format', 'html'], { env });
    expect(figures(honest.stdout)).toBe(1);
  });

  it('kmz: the same, with no files/ entry for the crafted records', async () => {
    const out = join(dir, 'crafted.kmz');
    const r = await runCli(['export', file('crafted2.ndjson', [line('', 'an_empty'), line('ab'.repeat(32), 'an_other')]), '--out', out], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(unzip(readFileSync(out)).map((e) => e.name)).toEqual(['doc.kml']);
    const ok = join(dir, 'honest.kmz');
    await runCli(['export', file('honest2.ndjson', [line(SHA, 'an_true')]), '--out', ok], { env });
    expect(unzip(readFileSync(ok)).map((e) => e.name)).toEqual(['doc.kml', `files/${SHA.slice(0, 16)}.jpg`]);
  });
});
