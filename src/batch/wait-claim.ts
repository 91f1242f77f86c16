/**
 * Waiting for another process's answer: a claim held by a live process is polled until
 * it is answered or failed, or until its holder is gone (the claim is then free to take over; the
 * caller acquires it again). Polling an indexed row every quarter second costs microseconds; the
 * answers being waited for take seconds.
 */
import type { StoreApi } from '../store/index.js';

export const POLL_MS = 250;

export async function waitForClaim(store: StoreApi, key: string, o: { sleep: (ms: number, signal?: AbortSignal) => Promise<void>; signal?: AbortSignal }): Promise<'settled' | 'free' | 'cancelled'> {
  for (;;) {
    if (o.signal?.aborted) return 'cancelled';
    const c = await store.claim(key);
    if (!c || c.state !== 'open') return 'settled';
    if (!store.heldElsewhere(c)) return 'free';
    try {
      await o.sleep(POLL_MS, o.signal);
    } catch {
      return 'cancelled';
    }
  }
}

/**
 * What a caller's own key (--idempotency-key) meets when its request is held under another key
 * (a claim is found by what is sent, store/claims.ts acquire): the one line that says the
 * request was already claimed under another key and what geo does instead of sending the caller's.
 */
export function otherKeyLine(input: string, how: 'waiting' | 'resent' | 'reused', key: string | undefined, userKey: string): string {
  const other = `another idempotency key (${key ?? 'not recorded'})`;
  switch (how) {
    case 'waiting':
      return `${input}: this request was already claimed under ${other} by another geo process: waiting for its answer; your key ${userKey} is not sent, so it is not paid twice`;
    case 'resent':
      return `${input}: this request was already claimed under ${other} by a run that did not finish: resent with that key, which the service replays free if it finished; your key ${userKey} is not sent`;
    case 'reused':
      return `${input}: this request was already answered under ${other}: that answer is reused; your key ${userKey} was not sent, nothing charged`;
  }
}
