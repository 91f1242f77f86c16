/**
 * Progress runs on a clock (issue 12): on a terminal the batch line is redrawn at least once a
 * second from the start, while nothing has finished (a slow sandbox: 3 s per analysis), and one
 * image has a spinner with its elapsed seconds; piped, nothing of it is written. The elapsed
 * seconds come from the injected clock.
 */
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestSandbox, startTestSandbox } from '../helpers/sandbox.js';
import { IMG, runner } from './locate-helpers.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ latencyMs: 3000 });
});
afterAll(() => sb.close());

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'geo-progress-'));
  for (const n of ['tokyo.jpg', 'nogps.jpg']) copyFileSync(`${IMG}${n}`, join(dir, n));
  return dir;
}

// The injected clock runs ten times faster than the wall: elapsed seconds show it is the one read.
const start = Date.now();
const fast = () => start + (Date.now() - start) * 10;

describe('batch progress on a clock', () => {
  it('on a terminal: redrawn every second while nothing has finished, elapsed from ctx.now', async () => {
    const r = await runner(sb)(['locate', folder()], { tty: true, now: fast });
    expect(r.code).toBe(0);
    const frames = r.stderr.replace(/\u001b\[[0-9;]*m/g, '').split('\r\u001b[2K');
    const waiting = frames.filter((f) => f.includes(' 0/2 · ') && f.includes('2 in flight'));
    // 3 s with nothing finished: the first draw and at least one tick.
    expect(waiting.length).toBeGreaterThanOrEqual(2);
    const elapsed = waiting.map((f) => Number(/elapsed (\d+) s/.exec(f)?.[1]));
    expect(Math.max(...elapsed)).toBeGreaterThanOrEqual(10);
    expect(waiting.at(-1)).toMatch(/0 ok · 0 failed · 2 in flight · elapsed \d+ s · 0 credits · 0\.0\/min · ETA …/);
  });

  it("one image on a terminal: a spinner with the elapsed seconds and the depth's typical time", async () => {
    const r = await runner(sb)(['locate', `${IMG}tokyo.jpg`], { tty: true, now: fast });
    expect(r.code).toBe(0);
    const seconds = [...r.stderr.matchAll(/locating tokyo\.jpg · depth 1 · 1 credit · usually 10-24 s · (\d+) s/g)].map((m) => Number(m[1]));
    expect(Math.max(...seconds)).toBeGreaterThanOrEqual(10);
  });

  it('piped: no progress line at all', async () => {
    const r = await runner(sb)(['locate', folder()], { tty: false });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('\r');
    expect(r.stderr).not.toContain('in flight');
  });
});
