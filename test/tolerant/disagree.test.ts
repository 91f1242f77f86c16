/**
 * Issue 21, "raw means raw" and "answers that disagree with the request are named", through the
 * real `geo locate` against the independent fake API: bytes that are not UTF-8 kept byte for byte
 * and shown escaped; a 2xx carrying an error kept with its deviation; depth answered ≠ asked
 * shown, stored and counted at the answer's depth; a replay header on a key's first send counted
 * as charged; a 409 for another payload final, with its own words and the way out; 304 in its own
 * words; and any command that waits on a 429 says so.
 */
import { describe, expect, it } from 'vitest';
import { type FakeApi, ok, withFakeApi } from './fake-server.js';
import { D1, PARIS, TOKYO, doneLines, errorLine, freshDirs, geo, records, warnings } from './helpers.js';

let api: FakeApi;
withFakeApi((a) => (api = a));

/** D1 with city "Saint-Étienne" written in Latin-1: the byte 0xE9 is not UTF-8. */
const TEXT = JSON.stringify({ ...D1, location: { ...D1.location, city: 'Saint-@tienne' } });
const LATIN1 = Buffer.concat([Buffer.from(TEXT.slice(0, TEXT.indexOf('@'))), Buffer.from([0xe9]), Buffer.from(TEXT.slice(TEXT.indexOf('@') + 1))]);

describe('raw means raw', () => {
  it('a 200 body that is not UTF-8: kept byte for byte (journal and record raw_b64), shown with \\udcXX escapes, named', async () => {
    api.answers.geolocate = { status: 200, body: LATIN1 };
    const dirs = freshDirs();
    const r = await geo(api, ['locate', PARIS, '--json'], dirs);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('"Saint-\\udce9tienne"');
    expect((JSON.parse(r.stdout) as typeof D1).location.city).toBe('Saint-\udce9tienne');
    expect(warnings(r.stderr).join('\n')).toMatch(/body: not valid UTF-8 \(1 byte/);
    const [done] = doneLines(dirs) as Array<{ raw_b64?: string }>;
    expect(Buffer.from(done!.raw_b64!, 'base64').equals(LATIN1)).toBe(true);
    const [rec] = records(dirs) as Array<{ response: { raw_b64?: string } }>;
    expect(Buffer.from(rec!.response.raw_b64!, 'base64').equals(LATIN1)).toBe(true);
    // The rerun, from the journal, shows the same escaped text.
    const again = await geo(api, ['locate', PARIS, '--json'], dirs);
    expect(again.stdout).toBe(r.stdout);
    expect(api.count('geolocate')).toBe(1);
    // The human view shows the byte escaped too, where a terminal would have drawn U+FFFD.
    const view = await geo(api, ['locate', PARIS], dirs);
    expect(view.stdout).toContain('Saint-\\udce9tienne');
  });

  it('valid UTF-8 keeps today\'s files: raw only, no raw_b64', async () => {
    api.answers.geolocate = ok(D1);
    const dirs = freshDirs();
    await geo(api, ['locate', PARIS, '--json'], dirs);
    expect(doneLines(dirs)[0]).not.toHaveProperty('raw_b64');
    expect(records(dirs)[0]!.response).not.toHaveProperty('raw_b64');
  });

  it('a 200 carrying an error body: read as that error, and kept in the store with the deviation that names it', async () => {
    const body = JSON.stringify({ success: false, code: 'payment_required', message: 'no credits' });
    api.answers.geolocate = ok(body);
    const dirs = freshDirs();
    const r = await geo(api, ['locate', PARIS, '--json'], dirs);
    expect(r.code).toBe(4);
    // Kept as received, marked unusable and not filed under its key (a rerun resends the same key).
    expect(records(dirs)).toMatchObject([{ unusable: expect.any(String), response: { raw: body, status: 200, deviations: [expect.stringMatching(/status: 200 carrying an error body "payment_required", read as 402/)] } }]);
  });
});

describe('answers that disagree with the request', () => {
  it('--depth 3 answered at depth 1: shown in the view and as a warning, stored, counted as 1 credit', async () => {
    api.answers.geolocate = ok(D1);
    const dirs = freshDirs();
    const r = await geo(api, ['locate', PARIS, '--depth', '3'], dirs);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/depth 1 \(Surface, asked 3\)/);
    expect(warnings(r.stderr).join('\n')).toMatch(/depth: answered 1 where 3 was asked; counted as depth 1 \(1 credit\)/);
    expect(doneLines(dirs)).toMatchObject([{ ok: true, credits: 1, deviations: [expect.stringMatching(/answered 1 where 3/)] }]);
    expect(records(dirs)[0]!.response.deviations).toEqual([expect.stringMatching(/answered 1 where 3/)]);
    api.reset();
    api.answers.geolocate = ok(D1);
    const batch = await geo(api, ['locate', PARIS, TOKYO, '--depth', '3', '--format', 'ndjson', '--yes']);
    expect(batch.stderr).toContain('2 inputs: 2 ok, 0 failed · 2 credits spent');
  });

  it('Idempotent-Replayed: true on a new key\'s first send is a deviation, not a free answer', async () => {
    api.answers.geolocate = ok(D1, 200, { 'idempotent-replayed': 'true' });
    const dirs = freshDirs();
    const r = await geo(api, ['locate', PARIS], dirs);
    expect(r.code, r.stderr).toBe(0);
    expect(warnings(r.stderr).join('\n')).toMatch(/Idempotent-Replayed: true on the first send of a new key/);
    expect(r.stdout).not.toMatch(/no credits charged/);
    expect(doneLines(dirs)).toMatchObject([{ ok: true, credits: 1 }]);
    expect(doneLines(dirs)[0]).not.toHaveProperty('replayed');
    const batch = await geo(api, ['locate', PARIS, TOKYO, '--format', 'ndjson']);
    expect(batch.stderr).toContain('2 credits spent');
  });

  it('a replay of a key the caller gave (--idempotency-key) is still an earlier charge: free, no deviation', async () => {
    api.answers.geolocate = ok(D1, 200, { 'idempotent-replayed': 'true' });
    const r = await geo(api, ['locate', PARIS, '--idempotency-key', 'case-2026-11-001']);
    expect(r.code).toBe(0);
    expect(warnings(r.stderr)).toEqual([]);
    expect(r.stdout).toMatch(/replayed: the stored response for this Idempotency-Key, no credits charged/);
  });

  it('409 for a different payload: its own message and hint (--fresh for geo\'s own key), final, and --fresh is the way out', async () => {
    api.answers.geolocate = ok({ success: false, error: 'Conflict', message: 'key reused with a different payload' }, 409);
    const dirs = freshDirs();
    const r = await geo(api, ['locate', PARIS], dirs);
    expect(r.code).toBe(2);
    const line = errorLine(r.stderr)!;
    expect(line).toMatch(/its Idempotency-Key was used before for a different request \(409\), and resending cannot change that — hint: the key is geo's own for this image, first sent with other bytes or fields; add --fresh/);
    expect(line).not.toMatch(/nothing was sent|drop --idempotency-key/);
    expect(api.count('geolocate')).toBe(1);
    expect(doneLines(dirs)).toMatchObject([{ ok: false, error: { status: 409, final: true } }]);
    // Final: the rerun sends nothing and says how to get out.
    const again = await geo(api, ['locate', PARIS], dirs);
    expect(again.code).toBe(2);
    expect(errorLine(again.stderr)).toMatch(/recorded by an earlier run — hint: add --fresh/);
    expect(api.count('geolocate')).toBe(1);
    // --fresh: a new key.
    api.answers.geolocate = ok(D1);
    const fresh = await geo(api, ['locate', PARIS, '--fresh'], dirs);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(new Set(api.keys).size).toBe(2);
  });

  it('409 for a key the caller gave: the hint asks for a new key, not --fresh', async () => {
    api.answers.geolocate = ok({ success: false, error: 'Conflict', message: 'key reused' }, 409);
    const r = await geo(api, ['locate', PARIS, '--idempotency-key', 'mine-1']);
    expect(r.code).toBe(2);
    expect(errorLine(r.stderr)).toMatch(/\(409\).* — hint: an Idempotency-Key names one request: give a new --idempotency-key/);
  });

  it('304 has its own words: not a redirect', async () => {
    api.answers.geolocate = { status: 304, body: '' };
    const r = await geo(api, ['locate', PARIS]);
    expect(r.code).toBe(6);
    expect(errorLine(r.stderr)).toMatch(/304 Not Modified, which answers a conditional request; geo sent none/);
    expect(errorLine(r.stderr)).not.toMatch(/redirect/);
  });
});

describe('a command that waits on a 429 says so', () => {
  it('geo credits: one line on stderr with the wait, then the answer', async () => {
    const credits = JSON.stringify({ success: true, data: { balance: 5, api_balance: 5, total_available: 5, total_purchased: null, total_used: null } });
    api.answers.credits = (n) => (n === 1 ? { status: 429, body: JSON.stringify({ success: false, code: 'rate_limited', message: 'slow down' }), headers: { 'retry-after': '42' } } : ok(credits));
    const r = await geo(api, ['credits', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(credits + '\n');
    expect(r.stderr).toMatch(/rate limited \(429\) on GET \/api\/v1\/credits: waiting until \d\d:\d\d:\d\d \(in 42 s\), then retrying/);
  });

  it('-q keeps it quiet', async () => {
    api.answers.credits = (n) => (n === 1 ? { status: 429, body: '{}', headers: { 'retry-after': '1' } } : ok({ success: true, data: { balance: 1, api_balance: 1, total_available: 1, total_purchased: null, total_used: null } }));
    const r = await geo(api, ['credits', '--json', '-q']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});
