import { describe, expect, it } from 'vitest';
import { Pacer } from '../../src/batch/pacer.js';

/** A clock that sleep() advances: acquire() calls are serialized, so virtual time is exact. */
function virtualClock(start = 1_000_000) {
  let t = start;
  return { now: () => t, sleep: async (ms: number) => void (t += ms), set: (ms: number) => void (t = ms) };
}

describe('pacer', () => {
  it('spreads starts evenly: no window of the server length holds more than the limit', async () => {
    const c = virtualClock();
    const p = new Pacer(c, { limit: 60, windowS: 10 });
    const starts: number[] = [];
    for (let i = 0; i < 120; i++) {
      await p.acquire();
      starts.push(c.now());
    }
    for (let i = 0; i < starts.length; i++) {
      const inWindow = starts.filter((s) => s >= starts[i]! && s < starts[i]! + 10_000).length;
      expect(inWindow).toBeLessThanOrEqual(60);
    }
    const span = starts.at(-1)! - starts[0]!;
    // 119 gaps of 10 s / 60 with a 2% margin: within 3% of the ideal (N-1)·W/R.
    expect(span).toBeGreaterThanOrEqual(119 * (10_000 / 60));
    expect(span).toBeLessThanOrEqual(119 * (10_000 / 60) * 1.03);
  });

  it('waits for the reset once the server says the quota is spent', async () => {
    const c = virtualClock();
    const p = new Pacer(c);
    const s1 = await p.acquire(); // the probe
    p.observe(s1, { limit: 100, windowS: 1, remaining: 1, resetAt: c.now() + 5000 });
    const t0 = c.now();
    await p.acquire(); // uses the last one
    expect(c.now() - t0).toBeLessThan(100);
    await p.acquire(); // none left until the reset
    expect(c.now()).toBeGreaterThanOrEqual(t0 + 5000);
  });

  it('a 429 closes the gate for every start', async () => {
    const c = virtualClock();
    const p = new Pacer(c, { limit: 1000, windowS: 1 });
    await p.acquire();
    p.pause(c.now() + 3000);
    const t0 = c.now();
    const waits = [p.acquire(), p.acquire(), p.acquire()].map(async (turn) => {
      const seq = await turn;
      const at = c.now();
      p.observe(seq, { limit: 1000, windowS: 1, remaining: 900, resetAt: c.now() + 1000 }, { status: 200 });
      return at;
    });
    for (const at of await Promise.all(waits)) expect(at - t0).toBeGreaterThanOrEqual(3000);
  });

  it('sends one probe until the limit is known', async () => {
    const c = virtualClock();
    const p = new Pacer(c);
    await p.acquire();
    let second = false;
    const pending = p.acquire().then(() => (second = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(second).toBe(false);
    p.observe(1, { limit: 30, windowS: 60 });
    await pending;
    expect(second).toBe(true);
  });

  it('a start that may happen now never sleeps, even when the clock ticks between two reads', async () => {
    let t = 0;
    const slept: number[] = [];
    const p = new Pacer({ now: () => ++t, sleep: async (ms: number) => void slept.push(ms) });
    await p.acquire();
    expect(slept).toEqual([]);
  });
});

describe('pacer: starts from the server count (issue 12)', () => {
  it('start-now: the balance read says 19 left, so 19 start at once; the 20th waits for the window, not longer', async () => {
    const c = virtualClock(0);
    const p = new Pacer(c, { limit: 20, windowS: 60, remaining: 19, resetAt: 60_000 }, 0);
    for (let i = 0; i < 19; i++) await p.acquire();
    expect(c.now()).toBe(0);
    await p.acquire();
    // Our own log: 20 starts (the balance read included) in the window; the first leaves at 60 s.
    expect(c.now()).toBeGreaterThanOrEqual(60_000);
    expect(c.now()).toBeLessThan(60_250);
  });

  it('start-now: r left until t, and nothing waits when r covers the batch', async () => {
    const c = virtualClock(0);
    const p = new Pacer(c, { limit: 30, windowS: 60, remaining: 29, resetAt: 60_000 }, 0);
    for (let i = 0; i < 10; i++) await p.acquire();
    expect(c.now()).toBe(0);
  });

  it('a token bucket: each answer says what is left, and starts follow it without waiting a window', async () => {
    const c = virtualClock(0);
    const p = new Pacer(c, { limit: 20, windowS: 3, remaining: 19, resetAt: 1000 }, 0);
    const seqs: number[] = [];
    for (let i = 0; i < 19; i++) seqs.push(await p.acquire());
    // 500 ms later the answers come: the bucket had 0 left at their arrival...
    c.set(500);
    p.observe(seqs.at(-1)!, { limit: 20, windowS: 3, remaining: 0, resetAt: 1000 });
    // ...and a fresh answer (a request that arrived at 500 ms) says 3 tokens are there now.
    const s = await p.acquire();
    expect(c.now()).toBeGreaterThanOrEqual(1000); // the 20th: one more at the reset
    p.observe(s, { limit: 20, windowS: 3, remaining: 3, resetAt: 2000 });
    const t0 = c.now();
    for (let i = 0; i < 3; i++) await p.acquire();
    expect(c.now()).toBe(t0);
  });

  it("trusts its own log only while the server's counts agree: a key spent elsewhere waits for the reset", async () => {
    const c = virtualClock(0);
    const p = new Pacer(c, { limit: 20, windowS: 60, remaining: 2, resetAt: 30_000 }, 0);
    await p.acquire();
    await p.acquire();
    expect(c.now()).toBe(0);
    await p.acquire();
    expect(c.now()).toBeGreaterThanOrEqual(30_000);
  });

  it('with a limit and no remaining count, even spacing is the fallback', async () => {
    const c = virtualClock(0);
    const p = new Pacer(c, { limit: 10, windowS: 10 }, 0);
    await p.acquire();
    await p.acquire();
    expect(c.now()).toBeGreaterThanOrEqual(1000);
  });
});

describe('pacer: other clients on the key (issue 21)', () => {
  it("a fixed window's reset bounds it: the burst of the window before is not taken for ours, and another client's two requests are seen", async () => {
    // Virtual time that also lets real timers run, so a start that waits for an answer can be seen waiting.
    let t = 0;
    const c = { now: () => t, sleep: async (ms: number) => { t += ms; await new Promise((r) => setImmediate(r)); } };
    const W = 3000;
    let end = W;
    // What the sandbox's fixed window says: r left, and its end rounded up to whole seconds from now.
    const rl = (remaining: number) => ({ limit: 20, windowS: 3, remaining, resetAt: t + 1000 * Math.ceil((end - t) / 1000) });
    const p = new Pacer(c, { limit: 20, windowS: 3, remaining: 19, resetAt: W }, 0);
    // Window A: 15 starts at 0-14 ms, answered 520 ms later with 20 ms of spread (the margin).
    const a: number[] = [];
    for (let i = 0; i < 15; i++) {
      t = i;
      a.push(await p.acquire());
    }
    t = 520;
    a.forEach((s, i) => p.observe(s, rl(18 - i), { status: 200, rttMs: 500 + (i % 5) * 5 }));
    expect(p.others).toBe(0);
    // Window B opens at 3010 with another client's request; it makes a second before geo starts at
    // 3030, a margin after its first burst left its log (so the end of that burst is 3 s + 16 ms back).
    end = 3010 + W;
    t = 3030;
    const b: number[] = [];
    for (;;) {
      const s = await Promise.race([p.acquire(), new Promise<number>((r) => setTimeout(() => r(-1), 50))]);
      if (s < 0 || t !== 3030) break;
      b.push(s);
    }
    expect(b.length).toBeGreaterThan(1);
    t = 3550;
    // The server counted the other client's 2, then ours: 17, 16, ... left.
    b.forEach((s, i) => p.observe(s, rl(17 - i), { status: 200, rttMs: 520 }));
    expect(p.others).toBe(2);
  });
});
