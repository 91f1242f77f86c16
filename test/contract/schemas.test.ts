/**
 * Geolocate request rules (api-spec.md "Geolocation request", "Error cases", "Limits"; issue 2
 * item 4): checkGeolocateRequest gives the code the server would give, before anything is sent.
 */
import { describe, expect, it } from 'vitest';
import { EFFORTS, IdempotencyKeySchema, checkGeolocateRequest } from '../../src/api/schemas.js';

const B64 = Buffer.from('\xff\xd8\xff\xe0 tiny jpeg-ish bytes', 'latin1').toString('base64');
const base = { image_b64: B64 };

/** The problem code for a body, or 'ok'. */
function code(body: unknown): string {
  const r = checkGeolocateRequest(body);
  if (r.ok) return 'ok';
  expect(r.problem.status).toBe(422);
  return r.problem.code;
}
const withScope = (scope: Record<string, unknown>) => ({ ...base, scope: { name: 'Paris', lat: 48.8566, lng: 2.3522, ...scope } });

describe('image: one of image_url / image_b64', () => {
  it('neither is invalid_request', () => expect(code({ depth: 1 })).toBe('invalid_request'));
  it('image_b64 alone, image_url alone, or both are accepted', () => {
    expect(code(base)).toBe('ok');
    expect(code({ image_url: 'https://example.com/a.jpg' })).toBe('ok');
    expect(code({ ...base, image_url: 'https://example.com/a.jpg' })).toBe('ok');
  });
  it('a body that is not a JSON object is invalid_request', () => {
    for (const b of [null, [], 'x', 42]) expect(code(b)).toBe('invalid_request');
  });
  it('image_url must be https (plain http only on loopback)', () => {
    expect(code({ image_url: 'http://example.com/a.jpg' })).toBe('invalid_request');
    expect(code({ image_url: 'not a url' })).toBe('invalid_request');
    expect(code({ image_url: 'http://127.0.0.1:4010/a.jpg' })).toBe('ok');
  });
});

describe('image_b64 is strict base64 (invalid_image_b64)', () => {
  it.each([
    ['data: prefix', `data:image/jpeg;base64,${B64}`],
    ['DATA: prefix, any case', `DATA:image/png;base64,${B64}`],
    ['missing padding', 'YWI'],
    ['too much padding', 'YQ==='],
    ['padding in the middle', 'YQ==YWJj'],
    ['a space', 'YWJj ZGVm'],
    ['a newline (MIME line wrap)', 'YWJj\nZGVm'],
    ['a trailing newline', 'YWJjZGVm\n'],
    ['url-safe alphabet', 'ab-_'],
    ['empty string', ''],
    ['not a string', 12345],
  ])('%s is rejected', (_, v) => expect(code({ image_b64: v })).toBe('invalid_image_b64'));
  it.each([['YQ=='], ['YWI='], ['YWJj'], ['+/+/'], [B64]])('%s is accepted', (v) => expect(code({ image_b64: v })).toBe('ok'));
});

describe('model is exactly orca-1.5', () => {
  it('omitted or exact is accepted', () => {
    expect(code(base)).toBe('ok');
    expect(code({ ...base, model: 'orca-1.5' })).toBe('ok');
  });
  it.each(['orca-1', 'ORCA-1.5', 'orca-1.5 ', 'orca-2', ''])('%j is invalid_request', (m) => expect(code({ ...base, model: m })).toBe('invalid_request'));
});

describe('depth is 1-3, default 1', () => {
  it.each([1, 2, 3])('%d is accepted', (d) => expect(code({ ...base, depth: d })).toBe('ok'));
  it.each([[0], [4], [-1], [2.5], ['2'], ['0x10'], [Number.NaN], [Number.POSITIVE_INFINITY], [null], [true]])('%j is invalid_request', (d) =>
    expect(code({ ...base, depth: d })).toBe('invalid_request'),
  );
  it('an omitted depth counts as 1 (medium effort exceeds it) and is not added to the body', () => {
    const r = checkGeolocateRequest({ ...base, effort: 'medium' });
    expect(r.ok ? undefined : r.problem).toMatchObject({ code: 'effort_exceeds_depth', max_effort: 'low' });
    const ok = checkGeolocateRequest(base);
    expect(ok.ok && ok.value.depth).toBeUndefined();
  });
});

describe('effort: known values, never above the depth normal level', () => {
  // Normal effort per depth: 1 low, 2 medium, 3 high (api-spec.md rule 2).
  const table: [number, string, string | undefined][] = [
    [1, 'instant', undefined], [1, 'low', undefined], [1, 'medium', 'low'], [1, 'high', 'low'],
    [2, 'instant', undefined], [2, 'low', undefined], [2, 'medium', undefined], [2, 'high', 'medium'],
    [3, 'instant', undefined], [3, 'low', undefined], [3, 'medium', undefined], [3, 'high', undefined],
  ];
  it.each(table)('depth %d, effort %s -> max_effort %s', (depth, effort, max) => {
    const r = checkGeolocateRequest({ ...base, depth, effort });
    if (max === undefined) expect(r.ok).toBe(true);
    else expect(r.ok ? undefined : r.problem).toMatchObject({ status: 422, code: 'effort_exceeds_depth', max_effort: max, field: 'effort' });
  });
  it('covers every effort value', () => expect(new Set(table.map((t) => t[1]))).toEqual(new Set(EFFORTS)));
  it.each(['extreme', 'LOW', 'High', '', 3, null])('unknown effort %j is invalid_effort (even at depth 1)', (e) => {
    const r = checkGeolocateRequest({ ...base, depth: 1, effort: e });
    expect(r.ok ? undefined : r.problem).toMatchObject({ code: 'invalid_effort' });
    expect(r.ok ? undefined : r.problem.max_effort).toBeUndefined();
  });
});

describe('scope (invalid_scope)', () => {
  it('name, lat, lng are required; radius_km and captured_at optional', () => {
    expect(code(withScope({}))).toBe('ok');
    expect(code({ ...base, scope: { lat: 1, lng: 2 } })).toBe('invalid_scope');
    expect(code({ ...base, scope: { name: 'X', lng: 2 } })).toBe('invalid_scope');
    expect(code({ ...base, scope: { name: 'X', lat: 1 } })).toBe('invalid_scope');
    expect(code(withScope({ name: '' }))).toBe('invalid_scope');
    expect(code({ ...base, scope: 'Paris' })).toBe('invalid_scope');
  });
  it.each([[-90.1], [90.1], [Number.NaN], ['48.8']])('lat %j is rejected', (lat) => expect(code(withScope({ lat }))).toBe('invalid_scope'));
  it.each([[-180.1], [180.1], ['0x10']])('lng %j is rejected', (lng) => expect(code(withScope({ lng }))).toBe('invalid_scope'));
  it.each([1, 60, 500, 1.5])('radius_km %d is accepted', (r) => expect(code(withScope({ radius_km: r }))).toBe('ok'));
  it.each([[0], [0.99], [501], [500.01], [-5], [Number.NaN], ['60']])('radius_km %j is rejected', (r) => expect(code(withScope({ radius_km: r }))).toBe('invalid_scope'));
  it.each(['2024-02-29', '2000-02-29', '2024-02-29T10:00:00Z', '2026-12-31 evening', '2025-01-31'])('captured_at %j begins with a real date', (d) =>
    expect(code(withScope({ captured_at: d }))).toBe('ok'),
  );
  it.each(['2026-02-30', '2025-02-29', '1900-02-29', '2025-04-31', '2025-13-01', '2025-00-10', '2025-01-00', '2025-1-5', '20250105', 'yesterday', ''])(
    'captured_at %j is rejected',
    (d) => expect(code(withScope({ captured_at: d }))).toBe('invalid_scope'),
  );
  it('captured_at is never rolled forward or rewritten', () => {
    const r = checkGeolocateRequest(withScope({ captured_at: '2024-02-29' }));
    expect(r.ok && r.value.scope?.captured_at).toBe('2024-02-29');
  });
});

describe('async and batch_id', () => {
  it('async is a boolean', () => {
    expect(code({ ...base, async: true })).toBe('ok');
    expect(code({ ...base, async: false })).toBe('ok');
    expect(code({ ...base, async: 'true' })).toBe('invalid_request');
    expect(code({ ...base, async: 1 })).toBe('invalid_request');
  });
  it('batch_id is a non-empty string', () => {
    expect(code({ ...base, batch_id: 'batch_sandbox' })).toBe('ok');
    expect(code({ ...base, batch_id: '' })).toBe('invalid_request');
    expect(code({ ...base, batch_id: 7 })).toBe('invalid_request');
  });
  it('unknown request fields are kept, not stripped', () => {
    const r = checkGeolocateRequest({ ...base, future_flag: 'x' });
    expect(r.ok && (r.value as Record<string, unknown>).future_flag).toBe('x');
  });
});

describe('Idempotency-Key is at most 256 characters', () => {
  it('256 is accepted, 257 rejected, empty rejected', () => {
    expect(IdempotencyKeySchema.safeParse('k'.repeat(256)).success).toBe(true);
    expect(IdempotencyKeySchema.safeParse('k'.repeat(257)).success).toBe(false);
    expect(IdempotencyKeySchema.safeParse('').success).toBe(false);
    expect(IdempotencyKeySchema.safeParse(crypto.randomUUID()).success).toBe(true);
  });
});
