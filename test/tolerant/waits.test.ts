/**
 * Waits that end, and say why (issue 30), against an independent server answering exactly the 429
 * headers an attacker (or a broken gateway) chooses. Each run's clock is virtual: the waits are
 * measured, not sat through. The bound of a run of 429s without a usable wait is the backoff's:
 * 4 retries of at most 1 + 2 + 4 + 8 s (api/retry.ts), then exit 5 with the reason and the time to
 * come back; a wait past a day (or past what geo sits through) ends at once.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { fastClock } from '../reliability/helpers.js';
import { type Answer, type FakeApi, ok, withFakeApi } from './fake-server.js';
import { D1, KEY, PARIS, TOKYO, errorLine, freshDirs } from './helpers.js';

let api: FakeApi;
withFakeApi((a) => (api = a));

const BODY429 = JSON.stringify({ success: false, error: 'Too Many Requests', code: 'rate_limited', message: 'slow down' });
const tooMany = (headers: Record<string, string>): Answer => ({ status: 429, body: BODY429, headers });
const CREDITS = (headers: Record<string, string> = {}): Answer => ok({ success: true, data: { balance: 500, api_balance: 500, total_available: 1000, total_purchased: null, total_used: null } }, 200, headers);

/** geo on a virtual clock: every wait it slept (ms of the clock) comes back with the run. */
async function timed(argv: string[]) {
  const clock = fastClock();
  const dirs = freshDirs();
  const r = await runCli(argv, { env: { GEO_API_KEY: KEY, GEO_BASE_URL: api.url, GEO_STATE_DIR: dirs.state, GEO_DATA_DIR: dirs.data }, now: clock.now, sleep: clock.sleep });
  return { ...r, waitedMs: clock.slept.reduce((a, b) => a + b, 0), slept: clock.slept };
}

/** The backoff's bound for 4 retries: 1 + 2 + 4 + 8 s. */
const BACKOFF_BOUND_MS = 15_000;
const HHMMSS = /\d\d:\d\d:\d\d/;

describe('429s whose waits say nothing usable end within the backoff bound, exit 5, and say why and until when', () => {
  it('Retry-After: 0 with RateLimit "default";r=0;t=0 (and a policy): 5 attempts, then exit 5', async () => {
    api.answers.geolocate = tooMany({ 'retry-after': '0', ratelimit: '"default";r=0;t=0', 'ratelimit-policy': '"default";q=30;w=60' });
    const r = await timed(['locate', PARIS]);
    expect(r.code, r.stderr).toBe(5);
    expect(api.count('geolocate')).toBe(5);
    expect(r.waitedMs).toBeLessThanOrEqual(BACKOFF_BOUND_MS);
    const line = errorLine(r.stderr)!;
    expect(line).toContain('rate limited after 5 attempts (429): the service said to retry at once (Retry-After: 0) and refused each resend');
    expect(line).toMatch(new RegExp(`try again after ${HHMMSS.source} \\(in 60 s: one window of its rate-limit policy\\)`));
  });

  it.each([
    ['-5', 'Retry-After "-5" is neither seconds nor an HTTP date, so geo ignored it'],
    ['soon', 'Retry-After "soon" is neither seconds nor an HTTP date, so geo ignored it'],
  ])('Retry-After: %s is ignored for the wait: backoff, 5 attempts, exit 5 naming the header', async (value, why) => {
    api.answers.geolocate = tooMany({ 'retry-after': value });
    const r = await timed(['locate', PARIS]);
    expect(r.code, r.stderr).toBe(5);
    expect(api.count('geolocate')).toBe(5);
    expect(r.waitedMs).toBeLessThanOrEqual(BACKOFF_BOUND_MS);
    const line = errorLine(r.stderr)!;
    expect(line).toContain(`rate limited after 5 attempts (429): ${why}`);
    expect(line).toMatch(new RegExp(`try again after ${HHMMSS.source} \\(in 60 s: the service counts requests per minute\\)`));
  });
});

describe('absurd waits are clamped and end the run at once: retry later, exit 5', () => {
  it('Retry-After: 99999999999999999999 -> one request, no wait, exit 5, "read as one day"', async () => {
    api.answers.geolocate = tooMany({ 'retry-after': '99999999999999999999' });
    const r = await timed(['locate', PARIS]);
    expect(r.code, r.stderr).toBe(5);
    expect(api.count('geolocate')).toBe(1);
    expect(r.slept).toEqual([]);
    expect(errorLine(r.stderr)).toMatch(/the service asks to retry after \d\d:\d\d \(in 86400 s\); Retry-After "99999999999999999999" is more than a day away, read as one day/);
  });

  it("the balance read's RateLimit says none left for an hour: nothing is sent, exit 5 with the time", async () => {
    api.answers.credits = CREDITS({ ratelimit: '"default";r=0;t=3600', 'ratelimit-policy': '"default";q=30;w=60' });
    api.answers.geolocate = ok(D1);
    // Two photos: a batch reads the balance (and its rate-limit headers) before it sends.
    const r = await timed(['locate', PARIS, TOKYO]);
    expect(r.code, r.stderr).toBe(5);
    expect(api.count('geolocate')).toBe(0);
    expect(r.slept).toEqual([]);
    expect(r.stderr).toMatch(/the service says none is left: the next request could start only after \d\d:\d\d \(in 360[01] s\)/);
  });
});

describe('a balance read that meets a 429 is not waited out', () => {
  it('GET /credits once, the plan at once (no balance), then the batch waits for the quota, said once, and sends', async () => {
    const policy = { 'ratelimit-policy': '"default";q=6;w=60' };
    api.answers.credits = tooMany({ 'retry-after': '47', ratelimit: '"default";r=0;t=47', ...policy });
    api.answers.geolocate = (n) => ok(D1, 200, { ratelimit: `"default";r=${6 - n};t=60`, ...policy });
    const r = await timed(['locate', PARIS, TOKYO, '--json', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    // Once: a retry would have held the plan 47 s and spent a request of the next window on it.
    expect(api.count('credits')).toBe(1);
    expect(api.count('geolocate')).toBe(2);
    const lines = r.stderr.split('\n');
    const plan = lines.findIndex((l) => l.startsWith('plan: '));
    const waits = lines.filter((l) => l.includes('waiting'));
    expect(lines[plan]).not.toContain('balance');
    expect(waits).toEqual([expect.stringMatching(new RegExp(`^rate limit: waiting until ${HHMMSS.source} \\(in 4[78] s\\): the service says none is left$`))]);
    expect(lines.indexOf(waits[0]!)).toBeGreaterThan(plan);
    expect(r.stderr).not.toMatch(/rate limited \(429\)|other client/);
    expect(r.waitedMs).toBeGreaterThanOrEqual(46_000);
  });
});

describe('a wait over 5 s is said on stderr with its reason and its end', () => {
  it('a 429 with Retry-After: 30, then the answer: "retrying until HH:MM:SS (in 30 s)"', async () => {
    api.answers.geolocate = (n) => (n === 1 ? tooMany({ 'retry-after': '30' }) : ok(D1));
    const r = await timed(['locate', PARIS, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`rate limited \\(429\\); retrying until ${HHMMSS.source} \\(in 30 s\\)`));
  });

  it('the balance read says the quota is spent for 20 s: "rate limit: waiting until HH:MM:SS (in 20 s)" and why, then the answer', async () => {
    api.answers.credits = CREDITS({ ratelimit: '"default";r=0;t=20', 'ratelimit-policy': '"default";q=30;w=60' });
    api.answers.geolocate = ok(D1);
    const r = await timed(['locate', PARIS, TOKYO, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`rate limit: waiting until ${HHMMSS.source} \\(in 2[01] s\\): the service says none is left`));
    expect(api.count('geolocate')).toBe(2);
  });
});
