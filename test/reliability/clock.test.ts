/**
 * The fault suite's clock (helpers.ts fastClock): a sleep of `ms` moves now() by at least `ms`, also
 * when its short real timer fires early by the wall clock, as Node's timers may by up to 1 ms. When
 * it did not, a 429's gate (until now + 1000) found 1 ms left after the retry's 1000 ms sleep and
 * slept it, and the persistent-429 case counted five sleeps where the retry table allows four.
 */
import { afterEach, expect, it, vi } from 'vitest';
import { fastClock } from './helpers.js';

afterEach(() => vi.restoreAllMocks());

it('sleep(1000) moves now() by 1000 ms even when its 2 ms timer fires after 1 ms of Date.now()', async () => {
  let wall = 5_000_000;
  vi.spyOn(Date, 'now').mockImplementation(() => wall);
  vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void) => {
    wall += 1; // the timer asked for 2 ms; the wall clock says 1 passed
    queueMicrotask(fn);
    return 0 as unknown as NodeJS.Timeout;
  }) as unknown as typeof setTimeout);
  const clock = fastClock();
  const before = clock.now();
  await clock.sleep(1000);
  expect(clock.now() - before).toBeGreaterThanOrEqual(1000);
  expect(clock.slept).toEqual([1000]);
});
