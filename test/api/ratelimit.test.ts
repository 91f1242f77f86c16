/** parseRateLimit: every header generation of api-spec.md "Limits", and malformed values ignored. */
import { describe, expect, it } from 'vitest';
import { parseRateLimit } from '../../src/api/ratelimit.js';

const NOW = 1_700_000_000_000;

describe('parseRateLimit', () => {
  it('reads the structured-field RateLimit and RateLimit-Policy (sandbox form)', () => {
    expect(parseRateLimit({ ratelimit: '"default";r=29;t=42', 'ratelimit-policy': '"default";q=30;w=60' }, NOW)).toEqual({
      limit: 30, remaining: 29, resetAt: NOW + 42_000, windowS: 60,
    });
  });

  it('header names are case-insensitive; token item names work', () => {
    expect(parseRateLimit({ RateLimit: 'default;r=3;t=1', 'RateLimit-Policy': 'default;q=5;w=60' }, NOW)).toEqual({
      limit: 5, remaining: 3, resetAt: NOW + 1000, windowS: 60,
    });
  });

  it('with several policies, takes the one with the fewest remaining and its own quota', () => {
    const info = parseRateLimit({ ratelimit: '"burst";r=9;t=1, "daily";r=2;t=3600', 'ratelimit-policy': '"burst";q=10;w=1, "daily";q=1000;w=86400' }, NOW);
    expect(info).toEqual({ limit: 1000, remaining: 2, resetAt: NOW + 3_600_000, windowS: 86400 });
  });

  it('reads RateLimit-Limit/-Remaining/-Reset (Reset is a UNIX timestamp)', () => {
    const reset = NOW / 1000 + 30;
    expect(parseRateLimit({ 'ratelimit-limit': '30', 'ratelimit-remaining': '7', 'ratelimit-reset': String(reset) }, NOW)).toEqual({
      limit: 30, remaining: 7, resetAt: NOW + 30_000,
    });
  });

  it('reads X-RateLimit-* when nothing newer is present; newer headers win', () => {
    const reset = String(NOW / 1000 + 10);
    expect(parseRateLimit({ 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }, NOW)).toEqual({
      limit: 5, remaining: 0, resetAt: NOW + 10_000,
    });
    expect(parseRateLimit({ 'x-ratelimit-remaining': '4', ratelimit: '"default";r=1;t=2' }, NOW).remaining).toBe(1);
  });

  it('a small RateLimit-Reset is read as seconds from now', () => {
    expect(parseRateLimit({ 'ratelimit-reset': '12' }, NOW).resetAt).toBe(NOW + 12_000);
  });

  it('reads Retry-After as seconds or as an HTTP-date', () => {
    expect(parseRateLimit({ 'retry-after': '17' }, NOW).retryAfterS).toBe(17);
    const date = new Date(NOW + 90_000).toUTCString();
    expect(parseRateLimit({ 'retry-after': date }, NOW).retryAfterS).toBe(90);
    expect(parseRateLimit({ 'retry-after': new Date(NOW - 5000).toUTCString() }, NOW).retryAfterS).toBe(0);
  });

  it('reads the older draft forms (combined RateLimit, RateLimit-Limit with ;w=)', () => {
    expect(parseRateLimit({ ratelimit: 'limit=30, remaining=4, reset=9' }, NOW)).toMatchObject({ limit: 30, remaining: 4 });
    expect(parseRateLimit({ 'ratelimit-limit': '30, 30;w=60' }, NOW)).toEqual({ limit: 30, windowS: 60 });
  });

  it.each([
    ['ratelimit', 'garbage'],
    ['ratelimit', '"default";r=abc;t=-4'],
    ['ratelimit', '"default";r=1e3;t=NaN'],
    ['ratelimit', ';;;,,,=;'],
    ['ratelimit-policy', '"default";q=;w=sixty'],
    ['ratelimit-limit', '30abc'],
    ['ratelimit-remaining', '-1'],
    ['ratelimit-reset', 'tomorrow'],
    ['x-ratelimit-limit', '0x10'],
  ])('ignores malformed %s: %j (never throws)', (name, value) => {
    expect(parseRateLimit({ [name]: value }, NOW)).toEqual({});
  });

  // Issue 30: ignored for the wait, but named, so the line that ends the run can say why.
  it.each(['1.5', 'soon', '-5', 'Mon, 99 Foo 2026 99:99:99 GMT', ''])('ignores a malformed Retry-After %j and notes it (never throws)', (value) => {
    expect(parseRateLimit({ 'retry-after': value }, NOW)).toEqual({ note: `Retry-After ${JSON.stringify(value)} is neither seconds nor an HTTP date, so geo ignored it` });
  });

  it('keeps the good fields when others are malformed', () => {
    expect(parseRateLimit({ ratelimit: '"default";r=oops;t=5', 'ratelimit-remaining': '3', 'retry-after': 'x' }, NOW)).toEqual({
      remaining: 3, resetAt: NOW + 5000, note: 'Retry-After "x" is neither seconds nor an HTTP date, so geo ignored it',
    });
  });

  it('clamps a wait or a reset more than a day away to a day, and says so (issue 30)', () => {
    expect(parseRateLimit({ 'retry-after': '99999999999999999999' }, NOW)).toEqual({ retryAfterS: 86_400, note: 'Retry-After "99999999999999999999" is more than a day away, read as one day' });
    expect(parseRateLimit({ 'retry-after': '86400' }, NOW)).toEqual({ retryAfterS: 86_400 });
    expect(parseRateLimit({ 'retry-after': new Date(NOW + 400 * 86_400_000).toUTCString() }, NOW).retryAfterS).toBe(86_400);
    expect(parseRateLimit({ ratelimit: '"default";r=0;t=999999999999999' }, NOW)).toEqual({ remaining: 0, resetAt: NOW + 86_400_000, note: 'the rate-limit reset is more than a day away, read as one day' });
    expect(parseRateLimit({ 'ratelimit-reset': '99999999999999' }, NOW).resetAt).toBe(NOW + 86_400_000);
  });
});
