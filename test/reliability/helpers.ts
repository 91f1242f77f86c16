/**
 * Shared pieces of the fault suite (issue 7): seeds that make the sandbox's `--faults kind:rate`
 * fault exactly the first k geolocate requests, a clock whose waits are instant, and ledger
 * arithmetic per idempotency key.
 *
 * Why seeds and not a new sandbox knob: the sandbox draws one number per geolocate request from
 * mulberry32(seed) (src/sandbox/faults.ts), so "the first k attempts fault, the next succeeds" is
 * just a seed whose first k draws fall under the rate and whose (k+1)-th does not. The CLI sends no
 * Sandbox-Fault header, so the seeded plan is the only way to fault it through the real command.
 */
import { mulberry32 } from '../../src/sandbox/faults.js';
import type { Ledger } from '../../src/sandbox/server.js';
import { DEFAULT_RETRY_POLICY, type RetryReason } from '../../src/api/retry.js';

/** The smallest seed whose first `k` draws are < rate and whose next one is not. */
export function seedFaultingFirst(k: number, rate = 0.5): number {
  for (let seed = 1; seed < 1_000_000; seed++) {
    const r = mulberry32(seed);
    let ok = true;
    for (let i = 0; i < k && ok; i++) ok = r() < rate;
    if (ok && r() >= rate) return seed;
  }
  throw new Error(`no seed faults exactly the first ${k} draws at rate ${rate}`);
}

/** How many of the first n draws of this seed fault at this rate: proof that a storm really hit. */
export function faultsInFirst(seed: number, n: number, rate: number): number {
  const r = mulberry32(seed);
  let k = 0;
  for (let i = 0; i < n; i++) if (r() < rate) k++;
  return k;
}

/** Each sandbox fault kind, the retry-table row it lands in, and its exit code when it persists. */
export interface KindCase {
  kind: string;
  /** The --faults entry ("stall:<ms>" carries its ms). */
  fault: string;
  reason: RetryReason;
  exit: number;
}

/** Stall well past the --timeout the stall cases pass, so that attempt surely times out. */
export const STALL_MS = 1200;
export const TIMEOUT_S = '0.5';

/**
 * The --timeout for a kind's runs: short only where the timeout is the fault under test. Other
 * kinds get 5 s, so a slow answer on a loaded CI machine (the sandbox's first analysis also loads
 * the geocoder, about 0.3 s) is never mistaken for a stall and retried.
 */
export const timeoutFor = (kind: string): string => (kind === 'stall' ? TIMEOUT_S : '5');

export const KINDS: readonly KindCase[] = [
  { kind: '429', fault: '429', reason: 'rate_limited', exit: 5 },
  { kind: '500', fault: '500', reason: 'server_error', exit: 6 },
  { kind: '502', fault: '502', reason: 'unavailable', exit: 6 },
  { kind: '503', fault: '503', reason: 'unavailable', exit: 6 },
  { kind: '504', fault: '504', reason: 'gateway_timeout', exit: 6 },
  { kind: 'reset-before', fault: 'reset-before', reason: 'reset', exit: 6 },
  { kind: 'reset-after', fault: 'reset-after', reason: 'reset', exit: 6 },
  { kind: 'truncate', fault: 'truncate', reason: 'truncated', exit: 6 },
  { kind: 'stall', fault: `stall:${STALL_MS}`, reason: 'timeout', exit: 6 },
];

/** Attempts the client makes before it gives up on a fault that persists (1 + the table's retries). */
export const attemptsFor = (reason: RetryReason): number => 1 + DEFAULT_RETRY_POLICY.max[reason];

/**
 * A clock whose sleeps last at most 2 ms but move time forward by what they asked for, so backoff,
 * 429 waits and the pacer's gate pass at once while every deadline computed from now() stays
 * consistent. Not zero: the scheduler polls for a free slot with sleep(50), and a sleep that never
 * yields to timers would spin, racing virtual time past every deadline while a request is in
 * flight. Per-attempt timeouts are real timers and are not affected.
 */
export function fastClock(): { now: () => number; sleep: (ms: number) => Promise<void>; slept: number[] } {
  let skew = 0;
  const slept: number[] = [];
  return {
    now: () => Date.now() + skew,
    sleep: async (ms: number) => {
      slept.push(ms);
      const real = Math.min(Math.max(0, ms), 2);
      skew += Math.max(0, ms) - real;
      const t0 = Date.now();
      await new Promise((r) => setTimeout(r, real));
      // A timer may fire up to 1 ms early by Date.now() (libuv compares with the loop's cached
      // time): time still moves by all of `ms`, or a wait until then finds 1 ms left and sleeps it
      // (a 429's gate, which the test then counted as one more retry).
      const short = real - (Date.now() - t0);
      if (short > 0) skew += short;
    },
    slept,
  };
}

export interface KeyFigures {
  debits: number;
  refunds: number;
  /** Credits debited minus refunded. */
  net: number;
  modelCalls: number;
  /** Net credits per idempotency key (a key above the depth cost was charged twice). */
  netByKey: Map<string, number>;
  /** Requests that reached the idempotency check, per key. */
  requestsByKey: Map<string, number>;
  analysisIds: string[];
}

export function figures(l: Ledger, key: string): KeyFigures {
  const k = l.keys[key]!;
  const netByKey = new Map<string, number>();
  let net = 0;
  for (const e of k.entries) {
    const d = e.kind === 'debit' ? e.amount : -e.amount;
    net += d;
    const ik = e.idempotency_key ?? '(none)';
    netByKey.set(ik, (netByKey.get(ik) ?? 0) + d);
  }
  const requestsByKey = new Map(Object.entries(k.idempotency).map(([ik, v]) => [ik, v.requests]));
  const analysisIds = k.entries.filter((e) => e.kind === 'debit' && e.analysis_id).map((e) => e.analysis_id!);
  return { debits: k.debits, refunds: k.refunds, net, modelCalls: k.model_calls, netByKey, requestsByKey, analysisIds };
}

/** stderr lines that are errors (the sandbox banner and notices are other lines). */
export const errorLines = (stderr: string): string[] => stderr.split('\n').filter((l) => l.startsWith('error:'));

/** No stack trace leaked: no "    at fn (file:line)" frames. */
export const hasStack = (s: string): boolean => /^\s+at .+:\d+:\d+\)?$/m.test(s);
