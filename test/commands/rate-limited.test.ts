/**
 * A 429 whose wait geo will not sit through (issue 12): the real program against a sandbox whose
 * quota is one request a day, on an injected clock. Exit 5 at once, the time to come back, and no
 * request sent before it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS, type TestSandbox, startTestSandbox } from '../helpers/sandbox.js';
import { runner } from './locate-helpers.js';

const START = Date.UTC(2026, 10, 23, 9, 30, 0);
let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ rateLimit: 1, rateWindowS: 86_400, now: () => START });
});
afterAll(() => sb.close());

describe('a 429 that asks for a day', () => {
  it('ends at once with exit 5 and "the service asks to retry after HH:MM (in N s)"; nothing resent', async () => {
    const run = runner(sb, KEYS.free);
    const slept: number[] = [];
    const opts = { now: () => START, sleep: async (ms: number) => void slept.push(ms) };
    expect((await run(['credits'], opts)).code).toBe(0);
    const r = await run(['usage'], opts);
    expect(r.code).toBe(5);
    const at = new Date(START + 86_400_000);
    const hhmm = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
    expect(r.stderr).toContain(`the service asks to retry after ${hhmm} (in 86400 s)`);
    expect(slept).toEqual([]);
  });
});
