/**
 * geo locate with many inputs against a real sandbox: NDJSON lines, duplicates sent once, a 422
 * recorded while the rest go on (exit 7), a 402 stop (exit 4, not_sent), dry-run, --max-credits,
 * the TTY progress line and table, and the confirmation. Ledger figures are the proof.
 */
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GeolocateResponseSchema } from '../../src/api/schemas.js';
import { ledgerFigures } from '../batch/helpers.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';
import { ANSI, IMG, footprint, runner } from './locate-helpers.js';

const sb = withSandbox();
const run = (argv: string[], opts = {}) => runner(sb)(argv, opts);

/** paris, tokyo, nogps, plain, blocked (422) and a copy of paris: 6 inputs, 5 unique images. */
function folder(names = ['paris.jpg', 'tokyo.jpg', 'nogps.jpg', 'plain.png', 'blocked.png']): string {
  const dir = mkdtempSync(join(tmpdir(), 'geo-locate-batch-'));
  for (const n of names) copyFileSync(`${IMG}${n}`, join(dir, n));
  if (names.includes('paris.jpg')) copyFileSync(`${IMG}paris.jpg`, join(dir, 'paris-copy.jpg'));
  return dir;
}
const lines = (stdout: string) => stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

describe('geo locate <folder>, piped', () => {
  it('one NDJSON line per input, duplicates sent once, a 422 recorded and the rest go on: exit 7', async () => {
    const dir = folder();
    const before = ledgerFigures(sb.ledger(), KEYS.pro);
    const r = await run(['locate', dir, '--depth', '2']);
    const after = ledgerFigures(sb.ledger(), KEYS.pro);
    console.log('[folder] ledger delta', { requests: after.geolocateRequests - before.geolocateRequests, credits: after.netCredits - before.netCredits });
    expect(r.code).toBe(7);
    expect(r.stdout).not.toMatch(ANSI);
    const recs = lines(r.stdout);
    expect(recs).toHaveLength(6);
    for (const rec of recs) expect(Object.keys(rec)).toEqual(rec.ok ? ['input', 'sha256', 'ok', 'result', 'exif'] : ['input', 'sha256', 'ok', 'error', 'exif']);
    const blocked = recs.find((x) => String(x.input).endsWith('blocked.png'))!;
    expect(blocked).toMatchObject({ ok: false, error: { code: 'content_blocked', status: 422 }, exif: null });
    const ok = recs.filter((x) => x.ok);
    expect(ok).toHaveLength(5);
    for (const x of ok) expect(GeolocateResponseSchema.parse(x.result).depth).toBe(2);
    const paris = recs.filter((x) => /paris(-copy)?\.jpg$/.test(String(x.input)));
    expect(paris[0]!.result).toEqual(paris[1]!.result);
    // The sandbox never saw the GPS (removed before upload): its synthetic answer is contradicted, independently.
    expect(paris[0]!.exif).toMatchObject({ verdict: 'contradicts', independent: true });
    // 5 unique images sent once each; the blocked one is not charged.
    expect(after.geolocateRequests - before.geolocateRequests).toBe(5);
    expect(after.netCredits - before.netCredits).toBe(4 * 2);
    expect(r.stderr).toMatch(/6 inputs: 5 ok, 1 failed · 8 credits spent/);
  });

  it('a broken file found in a folder is skipped with its reason and record (exit 7); a named one is a usage error (exit 2, nothing sent)', async () => {
    const dir = folder(['tokyo.jpg', 'empty.jpg', 'not-image.jpg']);
    const r = await run(['locate', dir]);
    expect(r.code).toBe(7);
    expect(lines(r.stdout).map((x) => [String(x.input).replace(/.*\//, ''), x.ok])).toEqual([['empty.jpg', false], ['not-image.jpg', false], ['tokyo.jpg', true]]);
    expect(r.stderr).toMatch(/skipped \S*empty\.jpg: is empty \(0 bytes\)/);
    expect(r.stderr).toMatch(/skipped \S*not-image\.jpg: is not an image/);
    const before = footprint(sb);
    const named = await run(['locate', join(dir, 'tokyo.jpg'), join(dir, 'empty.jpg')]);
    expect(named.code).toBe(2);
    expect(named.stderr).toMatch(/empty\.jpg is empty/);
    expect(footprint(sb)).toEqual(before);
  });

  it('the balance is read once for a batch, and not at all for one image (each GET uses the rate limit)', async () => {
    const credits = (stderr: string) => stderr.split('\n').filter((l) => /> GET \S*\/api\/v1\/credits attempt 1/.test(l)).length;
    const one = await run(['--debug', 'locate', `${IMG}tokyo.jpg`, '--fresh']);
    expect(one.code).toBe(0);
    expect(credits(one.stderr)).toBe(0);
    const two = await run(['--debug', 'locate', `${IMG}tokyo.jpg`, `${IMG}paris.jpg`, '--fresh']);
    expect(two.code).toBe(0);
    expect(credits(two.stderr)).toBe(1);
  });

  it('--json with many inputs is NDJSON too; --from-file reads a list', async () => {
    const dir = folder(['tokyo.jpg', 'nogps.jpg']);
    const list = join(dir, 'list.txt');
    (await import('node:fs')).writeFileSync(list, '# two images\ntokyo.jpg\nnogps.jpg\n');
    const r = await run(['locate', '--from-file', list, '--json']);
    expect(r.code).toBe(0);
    // Lines come as each input finishes, in whatever order that is.
    expect(lines(r.stdout).map((x) => [x.input, x.ok]).sort()).toEqual([['nogps.jpg', true], ['tokyo.jpg', true]]);
  });

  it('402 (a key without credits) stops the batch: exit 4, the rest not_sent, nothing charged', async () => {
    const dir = folder(['tokyo.jpg', 'nogps.jpg', 'plain.png']);
    const before = footprint(sb, KEYS.broke);
    const r = await runner(sb, KEYS.broke)(['locate', dir, '--concurrency', '1']);
    expect(r.code).toBe(4);
    const recs = lines(r.stdout);
    expect(recs).toHaveLength(3);
    expect(recs[0]).toMatchObject({ ok: false, error: { status: 402 } });
    expect(recs.slice(1).map((x) => (x.error as { code: string }).code)).toEqual(['not_sent', 'not_sent']);
    expect(r.stderr).toMatch(/stopped: the batch stopped after 402/);
    expect(footprint(sb, KEYS.broke).debits).toBe(before.debits);
  });
});

describe('cost before spending', () => {
  it('--dry-run prints the plan and redacted previews, and sends nothing', async () => {
    const dir = folder(['tokyo.jpg', 'nogps.jpg']);
    const before = footprint(sb);
    const r = await run(['locate', dir, '--depth', '3', '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^plan: 2 inputs · 2 to send × depth 3 \(10 credits\) = up to 20 credits · balance \d+/);
    expect(r.stdout.match(/authorization: Bearer \[REDACTED\]/g)).toHaveLength(2);
    expect(r.stdout).not.toContain(KEYS.pro);
    expect(r.stdout).toMatch(/"image_b64": "<\d+ base64 characters elided>"/);
    expect(r.stdout).toContain('dry run: nothing was sent (2 requests previewed)');
    const j = await run(['locate', dir, '--dry-run', '--json']);
    expect(JSON.parse(j.stdout)).toMatchObject({ inputs: 2, toSend: 2, credits: 2, sent: false, requests: [{ method: 'POST' }, { method: 'POST' }] });
    expect(footprint(sb)).toEqual(before);
  });

  it('--max-credits refuses a larger plan: exit 2, nothing sent', async () => {
    const dir = folder(['tokyo.jpg', 'nogps.jpg', 'plain.png']);
    const before = footprint(sb);
    const r = await run(['locate', dir, '--depth', '2', '--max-credits', '5']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('the plan needs up to 6 credits (3 images × 2 at depth 2), above --max-credits 5; nothing was sent');
    expect(footprint(sb)).toEqual(before);
  });

  // Without --yes and without a TTY, this plan is refused: locate-consent.test.ts.
  it('--yes skips the question on a TTY, and consents on a pipe', async () => {
    for (const opts of [{ tty: true, yes: true }, { tty: false, yes: true }]) {
      const dir = folder(['tokyo.jpg', 'nogps.jpg', 'plain.png']);
      const r = await run(['locate', dir, '--depth', '3', ...(opts.yes ? ['--yes'] : [])], { tty: opts.tty });
      expect(r.code).toBe(0);
      expect(r.stderr).not.toContain('Spend up to');
    }
  });
});

describe('geo locate <folder> on a terminal', () => {
  it('a live progress line on stderr, the results table on stdout, a summary on stderr', async () => {
    const dir = folder();
    const r = await run(['locate', dir], { tty: true });
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('\r\u001b[2K');
    const stderr = r.stderr.replace(/\u001b\[[0-9;]*m/g, '');
    const stdout = r.stdout.replace(/\u001b\[[0-9;]*m/g, '');
    expect(stderr).toMatch(/6\/6 · 5 ok · 1 failed · 0 in flight · elapsed \d+ s · 4 credits · [\d.]+\/min · ETA/);
    expect(stdout).toMatch(/│ input +│ place +│ coordinates +│ confidence │ EXIF +│/);
    expect(stdout).toMatch(/blocked\.png +│ failed: content_bloc(ked|…)/);
    expect(stdout).toMatch(/paris\.jpg +│ [^│]+│ -?\d+\.\d+, -?\d+\.\d+ +│ +0\.\d\d │ contradicts/);
    expect(stdout).toMatch(/plain\.png .*│ none +│/);
    expect(stderr).toMatch(/6 inputs: 5 ok, 1 failed · 4 credits spent/);
    expect(stderr).toMatch(/5 results stored \(geo history lists them\)/);
  });
});
