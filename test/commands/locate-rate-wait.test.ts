/**
 * A rate-limit wait on the progress line (issue 34: the line looked frozen while geo waited for the
 * window): the real program on a terminal against a sandbox allowing one request per 8 s. While the
 * second image waits, each redraw says "waiting for the rate-limit window, N s", N counting down.
 */
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type TestSandbox, startTestSandbox } from '../helpers/sandbox.js';
import { IMG, runner } from './locate-helpers.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ rateLimit: 1, rateWindowS: 8 });
});
afterAll(() => sb.close());

it('while the batch waits for the rate-limit window, the progress line says so and counts the seconds down', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'geo-rate-wait-'));
  for (const n of ['tokyo.jpg', 'nogps.jpg']) copyFileSync(`${IMG}${n}`, join(dir, n));
  const r = await runner(sb)(['locate', dir], { tty: true });
  expect(r.code).toBe(0);
  const frames = r.stderr.replace(/\u001b\[[0-9;]*m/g, '').split('\r\u001b[2K');
  const left = frames.map((f) => /^\S+ 1\/2 · waiting for the rate-limit window, (\d+) s · 1 ok/.exec(f)?.[1]).filter((s) => s !== undefined).map(Number);
  // Redrawn each second during the wait of about 8 s: several frames, counting down.
  expect(left.length).toBeGreaterThanOrEqual(3);
  expect(left[0]!).toBeGreaterThan(left.at(-1)!);
  expect(left.every((s, i) => i === 0 || s <= left[i - 1]!)).toBe(true);
  // Once the wait is over the line no longer says it.
  const last = frames.filter((f) => f.includes('2/2')).at(-1) ?? '';
  expect(last).not.toContain('waiting');
}, 30_000);
