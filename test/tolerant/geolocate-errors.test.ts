/**
 * The geolocate answers that are not results: a 2xx carrying an error body is that error (its
 * exit code, retried only as that error would be; its body kept, unusable); an unreadable 2xx is the one deviation still
 * retried, and its body is kept in the journal; a 409 in progress past the deadline exits 6 with a
 * hint naming the journal, and the rerun replays the result with the same key.
 */
import { describe, expect, it } from 'vitest';
import { type FakeApi, ok, withFakeApi } from './fake-server.js';
import { D1, PARIS, doneLines, errorLine, freshDirs, geo, records } from './helpers.js';

let api: FakeApi;
withFakeApi((a) => (api = a));

const ARGV = ['locate', PARIS, '--json', '--timeout', '2'];

describe('a 2xx carrying an error body is that error', () => {
  it.each([
    { name: 'success:false payment_required without a status -> 402 by its code', body: { success: false, code: 'payment_required', message: 'no credits' }, exit: 4, requests: 1, line: /not enough credits \(402\)/ },
    { name: 'problem+json 422 invalid_scope -> 422', body: { type: 'https://e/x', title: 'Invalid scope', status: 422, detail: 'scope broken', code: 'invalid_scope' }, exit: 2, requests: 1, line: /scope broken/ },
    { name: 'success:false unauthorized -> 401', body: { success: false, error: 'Unauthorized', code: 'unauthorized', message: 'bad key' }, exit: 3, requests: 1, line: /API key was refused \(401\)/ },
    { name: 'success:false analysis_failed -> 502, retried as a 502 is', body: { success: false, code: 'analysis_failed', message: 'upstream' }, exit: 6, requests: 4, line: /failed upstream \(502\)/ },
  ])('$name', async (c) => {
    api.answers.geolocate = ok(c.body);
    const dirs = freshDirs();
    const r = await geo(api, ARGV, dirs);
    expect(r.code, r.stderr).toBe(c.exit);
    expect(r.stdout).toBe('');
    expect(errorLine(r.stderr)).toMatch(c.line);
    expect(api.count('geolocate')).toBe(c.requests);
    expect(new Set(api.keys).size).toBe(1);
    // An error is not a paid answer: no charge on its claim, nothing usable stored; its body is
    // kept as received, marked unusable with the deviation that names it (issue 21: raw means raw).
    expect(records(dirs)).toMatchObject([{ unusable: expect.any(String), response: { status: 200, deviations: [expect.stringMatching(/carrying an error body/)] } }]);
    expect(doneLines(dirs).every((d) => !d.ok && (d.credits ?? 0) === 0)).toBe(true);
  });
});

describe('an unreadable 2xx', () => {
  it('not JSON: retried twice with the same key, exit 6, the body kept in the store; a rerun resends the same key', async () => {
    api.answers.geolocate = ok('<html>gateway says hi</html>');
    const dirs = freshDirs();
    const r = await geo(api, ARGV, dirs);
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('');
    expect(errorLine(r.stderr)).toMatch(/could not be read: the 200 response body is not JSON — hint: .*rerun/);
    expect(api.count('geolocate')).toBe(3);
    // Kept as received, marked unusable; its claim stays open (no final outcome) for the rerun.
    expect(doneLines(dirs)).toEqual([]);
    expect(records(dirs)).toMatchObject([{ unusable: expect.stringMatching(/not JSON/), response: { raw: '<html>gateway says hi</html>', status: 200 } }]);
    // Unknown outcome: the rerun sends the same key, and the server's replay settles it.
    api.answers.geolocate = ok(D1, 200, { 'idempotent-replayed': 'true' });
    const r2 = await geo(api, ARGV, dirs);
    expect(r2.code).toBe(0);
    expect(r2.stdout).toBe(JSON.stringify(D1) + '\n');
    expect(new Set(api.keys).size).toBe(1);
  });

  it('a gzip body that does not inflate: unreadable, retried', async () => {
    api.answers.geolocate = { status: 200, body: Buffer.from([0x1f, 0x8b, 1, 2, 3, 4]), headers: { 'content-encoding': 'gzip' } };
    const r = await geo(api, ARGV);
    expect(r.code).toBe(6);
    expect(errorLine(r.stderr)).toMatch(/could not be decompressed \(gzip\)/);
    expect(api.count('geolocate')).toBe(3);
  });
});

describe('409 idempotency_in_progress until the deadline', () => {
  it('exits 6 (not 2) with a hint naming the batch to resume; the resume replays it with the same key', async () => {
    api.answers.geolocate = ok({ success: false, error: 'busy', code: 'idempotency_in_progress', message: 'still running' }, 409);
    const dirs = freshDirs();
    const r = await geo(api, [...ARGV.slice(0, -1), '1'], dirs);
    expect(r.code, r.stderr).toBe(6);
    expect(r.stdout).toBe('');
    const line = errorLine(r.stderr)!;
    expect(line).toMatch(/still running on the server \(409\) when the deadline passed — hint: the analysis may still finish on the server; `geo locate --resume [0-9a-f]{24}` replays it free/);
    expect(line).not.toMatch(/--idempotency-key|invalid input/);
    const polls = api.count('geolocate');
    expect(polls).toBeGreaterThan(2);
    const journal = /--resume ([0-9a-f]{24})/.exec(line)![1]!;
    expect(doneLines(dirs)).toEqual([]); // no final outcome: the claim is open, its key kept
    api.answers.geolocate = ok(D1, 200, { 'idempotent-replayed': 'true' });
    const r2 = await geo(api, ['locate', '--resume', journal, '--json'], dirs);
    expect(r2.code, r2.stderr).toBe(0);
    expect(JSON.parse(r2.stdout)).toMatchObject({ ok: true, result: D1 }); // --resume prints one record per input
    expect(api.count('geolocate')).toBe(polls + 1);
    expect(new Set(api.keys).size).toBe(1);
  });
});

describe('an unusable answer asked for as an export', () => {
  it('--format geojson: nothing on stdout (no feature without coordinates), exit 6, the raw body kept', async () => {
    const body = { ...D1, location: { ...D1.location, latitude: 95 } };
    api.answers.geolocate = ok(body);
    const dirs = freshDirs();
    const r = await geo(api, ['locate', PARIS, '--format', 'geojson'], dirs);
    expect(r.code, r.stderr).toBe(6);
    expect(r.stdout).toBe('');
    expect(errorLine(r.stderr)).toMatch(/no usable coordinates/);
    expect(doneLines(dirs)[0]).toMatchObject({ ok: false, raw: JSON.stringify(body) });
    expect(records(dirs)[0]).toMatchObject({ unusable: expect.stringMatching(/latitude 95/), response: { raw: JSON.stringify(body) } });
  });
});
