/** geo locate: strict flags, contract checks before sending, --dry-run, --max-credits, --min-confidence. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GeolocateResponseSchema } from '../../src/api/schemas.js';
import { withSandbox } from '../helpers/sandbox.js';
import { IMG, footprint, runner } from './locate-helpers.js';

const sb = withSandbox();
const run = (argv: string[], opts = {}) => runner(sb)(argv, opts);
const PARIS = `${IMG}paris.jpg`;

/** Runs and asserts exit 2 with the given text on stderr, and that the sandbox saw nothing. */
async function refused(argv: string[], text: string | RegExp) {
  const before = footprint(sb);
  const r = await run(argv);
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(typeof text === 'string' ? new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : text);
  expect(footprint(sb)).toEqual(before);
  return r;
}

describe('strict flag parsing (exit 2, same code as the server, nothing sent)', () => {
  it.each([['2.5'], ['0x10'], [''], ['4'], ['0'], ['two']])('--depth %j is invalid_request', async (v) => {
    await refused(['locate', PARIS, '--depth', v], /invalid_request; nothing was sent/);
  });
  it('an unknown effort is invalid_effort', async () => {
    await refused(['locate', PARIS, '--effort', 'max'], /\(invalid_effort; nothing was sent\) — hint: --effort takes instant, low, medium or high/);
  });
  it('effort above the depth is effort_exceeds_depth with the max effort', async () => {
    await refused(['locate', PARIS, '--depth', '1', '--effort', 'high'], /effort_exceeds_depth; nothing was sent\) — hint: the highest effort for this depth is low/);
  });
  it.each([
    [['--scope', 'Paris', '--center', 'NaN,2.35']],
    [['--scope', 'Paris', '--center', '48.8']],
    [['--scope', 'Paris', '--center', '95,2']],
    [['--scope', ' ']], // blank; a name alone is valid (centre from the offline index: locate-scope-name.test.ts)
    [['--center', '48.85,2.35']],
    [['--scope', 'Paris', '--center', '48.85,2.35', '--radius', '900']],
    [['--scope', 'Paris', '--center', '48.85,2.35', '--radius', 'ten']],
    [['--scope', 'Paris', '--center', '48.85,2.35', '--captured-at', '2025-02-29']],
  ])('scope flags %j are invalid_scope', async (flags) => {
    await refused(['locate', PARIS, ...flags], /invalid_scope; nothing was sent/);
  });
  it('a model other than orca-1.5 is invalid_request', async () => {
    await refused(['locate', PARIS, '--model', 'orca-2'], /model: only orca-1\.5 is accepted/);
  });
  it('a plain http URL is refused (https only)', async () => {
    await refused(['locate', 'http://example.org/a.jpg'], /image_url: must be an https URL/);
  });
  it('an idempotency key over 256 characters is refused', async () => {
    await refused(['locate', PARIS, '--idempotency-key', 'k'.repeat(257)], /1 to 256 characters/);
  });
  it('--min-confidence outside 0-1 and --max-credits that is not a count are usage errors', async () => {
    await refused(['locate', PARIS, '--min-confidence', '1.5'], /--min-confidence must be a number from 0 to 1/);
    await refused(['locate', PARIS, '--max-credits', '-1'], /--max-credits must be a whole number/);
  });
  it('a missing file, a folder without images and a non-image are usage errors', async () => {
    await refused(['locate', `${IMG}nope.jpg`], /nope\.jpg/);
    await refused(['locate', mkdtempSync(join(tmpdir(), 'geo-empty-'))], /holds no images/);
    await refused(['locate', `${IMG}not-image.jpg`], /not-image\.jpg/);
  });
  it('--idempotency-key names one request: refused with several inputs', async () => {
    await refused(['locate', PARIS, `${IMG}tokyo.jpg`, '--idempotency-key', 'k1'], /--idempotency-key names one request/);
  });
  it('an unknown --format is refused before sending', async () => {
    await refused(['locate', PARIS, '--format', 'yaml'], /--format yaml is not available here/);
  });
  it('--concurrency must be a whole number', async () => {
    await refused(['locate', PARIS, '--concurrency', '0'], /--concurrency must be a whole number from 1 to 256/);
  });
  it('no inputs at all', async () => {
    await refused(['locate'], /no inputs given/);
  });
});

describe('--dry-run and --max-credits', () => {
  it('--dry-run prints the request, key redacted and image elided, with its cost, and sends nothing', async () => {
    const before = footprint(sb);
    const r = await run(['locate', PARIS, '--depth', '3', '--effort', 'medium', '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^POST ${sb.url}/api/v1/geolocate\\n`));
    expect(r.stdout).toContain('authorization: Bearer [REDACTED]');
    expect(r.stdout).not.toContain('orca_sandbox_pro');
    // paris.jpg is 995 bytes; without its 440-byte EXIF and with a 36-byte orientation EXIF, 591: 788 base64 characters.
    expect(r.stdout).toMatch(/"image_b64": "<788 base64 characters elided>"/);
    expect(r.stdout).toMatch(/\nmetadata removed before upload: EXIF \(GPS, camera, capture details; 440 bytes\); orientation \(1\) kept \(sends 591 bytes, sha256 [0-9a-f]{12}…; --keep-metadata sends the file as it is\)\n/);
    const kept = await run(['locate', PARIS, '--depth', '3', '--dry-run', '--keep-metadata']);
    expect(kept.stdout).toMatch(/"image_b64": "<1328 base64 characters elided>"/);
    expect(kept.stdout).toContain('metadata: sent as it is (--keep-metadata)');
    const json = JSON.parse((await run(['locate', PARIS, '--dry-run', '--json'])).stdout);
    expect(json).toMatchObject({ sent: false, image: { metadata: 'removed', size: 591, removed: [{ what: 'EXIF (GPS, camera, capture details)', bytes: 440 }], orientation: 1 } });
    expect(r.stdout).toContain('"effort": "medium"');
    expect(r.stdout).toContain('cost: depth 3 · 10 credits · usually 70-150 s; charged only on success');
    expect(r.stdout).toContain('dry run: nothing was sent');
    expect(footprint(sb)).toEqual(before);
  });
  it('--dry-run with the service unreachable reads the balance once, says so in a notice, and prints the plan', async () => {
    const r = await run(['--debug', 'locate', PARIS, '--dry-run'], { env: { GEO_BASE_URL: 'http://127.0.0.1:9' } });
    expect(r.code).toBe(0);
    expect(r.stderr.match(/> GET \S+\/api\/v1\/credits attempt/g)).toHaveLength(1);
    expect(r.stderr).not.toContain('retry GET');
    expect(r.stderr).toMatch(/could not read the credit balance \(cannot connect to 127\.0\.0\.1:9/);
    expect(r.stdout).toContain('dry run: nothing was sent');
  });
  it('--dry-run --json is a JSON preview', async () => {
    const r = await run(['locate', 'https://example.org/street.jpg', '--service-fetch', '--dry-run', '--json']);
    expect(r.code).toBe(0);
    const p = JSON.parse(r.stdout);
    expect(p).toMatchObject({ method: 'POST', body: { image_url: 'https://example.org/street.jpg' }, cost: { depth: 1, credits: 1 }, sent: false });
  });
  it('--max-credits below the cost refuses with exit 2 and sends nothing', async () => {
    await refused(['locate', PARIS, '--depth', '3', '--max-credits', '5'], 'the plan needs up to 10 credits (1 image × 10 at depth 3), above --max-credits 5; nothing was sent');
  });
  it('--max-credits at the cost goes ahead', async () => {
    const r = await run(['locate', PARIS, '--depth', '2', '--max-credits', '2', '--json']);
    expect(r.code).toBe(0);
    expect(GeolocateResponseSchema.parse(JSON.parse(r.stdout)).depth).toBe(2);
  });
});

describe('--min-confidence', () => {
  it('exits 8 below the bar, after printing the result', async () => {
    const r = await run(['locate', `${IMG}nogps.jpg`, '--min-confidence', '0.99']);
    expect(r.code).toBe(8);
    expect(r.stdout).toContain('coordinates');
    expect(r.stderr).toMatch(/error: confidence 0\.\d+ is below --min-confidence 0\.99/);
  });
  it('exits 0 at or above the bar', async () => {
    const r = await run(['locate', PARIS, '--min-confidence', '0.1', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).confidence).toBeGreaterThanOrEqual(0.1);
  });
  it('cannot be combined with --async', async () => {
    await refused(['locate', PARIS, '--async', '--min-confidence', '0.5'], /--min-confidence needs the result/);
  });
});

describe('scope and async', () => {
  it('warns on stderr when the image overrides the scope', async () => {
    // paris.jpg carries EXIF GPS in Paris, which the sandbox reads when it is sent: a Tokyo scope is contradicted.
    const r = await run(['locate', PARIS, '--keep-metadata', '--scope', 'Tokyo', '--center', '35.68,139.69']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('scope        overridden: the image contradicts the given scope');
    expect(r.stderr).toContain('warning: the image contradicts the --scope');
  });
  it('--async prints the 202 body as received (json) or a short summary', async () => {
    const j = await run(['locate', PARIS, '--async', '--json']);
    expect(j.code).toBe(0);
    expect(JSON.parse(j.stdout)).toMatchObject({ success: true });
    const t = await run(['locate', PARIS, '--async']);
    expect(t.code).toBe(0);
    expect(t.stdout).toContain('Accepted for asynchronous analysis (202)');
  });
});
