/**
 * The batch engine's one way to wait for "news or a time" (the pacer for an answer or its next
 * start, the scheduler for a free slot): whichever comes first ends the wait, and the sleep's
 * timer is cancelled either way, so no timer outlives a batch and keeps the process alive.
 */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Until `news` settles, `ms` pass (never, when undefined) or `signal` aborts. */
export async function newsOrTimeout(news: Promise<void>, ms: number | undefined, sleep: Sleep, signal?: AbortSignal): Promise<void> {
  const ac = new AbortController();
  let onAbort = () => {};
  const aborted = new Promise<void>((r) => (onAbort = () => r()));
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const timer = ms === undefined ? [] : [sleep(ms, signal ? AbortSignal.any([signal, ac.signal]) : ac.signal).catch(() => undefined)];
    await Promise.race([news, aborted, ...timer]);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    ac.abort();
  }
}
