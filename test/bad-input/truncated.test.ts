/**
 * A truncated JPEG (JPEG magic, no end-of-image marker) is NOT bad input: the API may still read
 * it, so geo sends it like any JPEG and leaves the verdict to the server. What is checked instead:
 * `geo inspect` reads what is there (EXIF from the first half) without failing, and locate plans
 * to send it (--dry-run, exit 0). Decision recorded for issue 7.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { FIXTURES } from '../helpers/sandbox.js';

const TRUNCATED = FIXTURES + 'truncated.jpg';

describe('truncated JPEG: partial data, not bad input (2 cases)', () => {
  it('geo inspect reads the partial file: type, size, sha256 and the EXIF that survived', async () => {
    const r = await runCli(['inspect', TRUNCATED, '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { ok: boolean; type: string; size: number; sha256: string; exif: { gps?: { lat: number } } };
    expect(out).toMatchObject({ ok: true, type: 'jpeg', size: 497 });
    expect(out.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(out.exif.gps?.lat).toBeCloseTo(48.85837, 5);
  });
  it('geo inspect does not call it accepted: no image size can be read, so the service may refuse it (issue 22)', async () => {
    const r = await runCli(['inspect', TRUNCATED]);
    expect(r.stdout).toMatch(/^ {2}API +no image size can be read \(damaged or cut short\): geo locate sends it, and the service may refuse it$/m);
    expect(r.stdout).not.toContain('accepted as is');
  });
  // The balance read goes to a port where nothing listens and is retried as any GET is (~3 s).
  it('geo locate --dry-run would send it (a JPEG by its bytes)', { timeout: 20_000 }, async () => {
    const r = await runCli(['locate', TRUNCATED, '--dry-run'], { env: { GEO_API_KEY: 'orca_sandbox_pro', GEO_BASE_URL: 'http://127.0.0.1:9' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('dry run: nothing was sent');
  });
});
