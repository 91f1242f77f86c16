/**
 * Waiting for another process's answer (issue 19): a claim held by a live process is polled until
 * it is answered or failed, or until its holder is gone (the claim is then free to take over; the
 * caller acquires it again). Polling an indexed row every quarter second costs microseconds; the
 * answers being waited for take seconds.
 */
import type { Store } from '../store/index.js';

export const POLL_MS = 250;

export async function waitForClaim(store: Store, key: string, o: { sleep: (ms: number, signal?: AbortSignal) => Promise<void>; signal?: AbortSignal }): Promise<'settled' | 'free' | 'cancelled'> {
  for (;;) {
    if (o.signal?.aborted) return 'cancelled';
    const c = store.claim(key);
    if (!c || c.state !== 'open') return 'settled';
    if (!store.heldElsewhere(c)) return 'free';
    try {
      await o.sleep(POLL_MS, o.signal);
    } catch {
      return 'cancelled';
    }
  }
}
