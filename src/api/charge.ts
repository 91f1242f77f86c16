/**
 * What one answer to POST /geolocate charged, by what the answer itself says, and the ways it
 * disagrees with the request. api-spec.md "Limits": a successful call costs 1, 2 or 10
 * credits by depth, and the response's `depth` is the "Depth used"; "States and transitions": a
 * completed key replays its stored response with `Idempotent-Replayed: true`, no debit.
 *
 * - Depth answered ≠ depth asked: the answer is what was run, so it is counted at its own depth,
 *   and the difference is named (a deviation: shown, journaled, stored).
 * - A replay header is proof of a free answer only when the key can have been answered before:
 *   on a key geo made for this very request, sent once, nothing can have completed under it, so
 *   the header is itself a deviation and the answer is counted as charged.
 */
import { DEPTH_COST, type Depth } from './schemas.js';

export interface ChargeInput {
  /** The depth the request asked for (default 1). */
  askedDepth: Depth;
  /** The body as parsed (it may deviate from the contract). */
  data: unknown;
  /** The answer carried `Idempotent-Replayed: true`. */
  replayed: boolean;
  /** Attempts the request took; a replay after a retry answers this run's own first attempt. */
  attempts: number;
  /** The key was made for this request now (not a journal's, not the caller's own). */
  firstSend: boolean;
}

export interface Charge {
  /** What this answer cost: 0 for a replay of an earlier charge. */
  credits: number;
  /**
   * What the key cost, once, whichever request of it the service charged: a replay answers a key
   * charged before (by a process that died in flight, say), so a budget that holds per key
   * (batch/team-budget.ts) settles it at this, not at 0.
   */
  keyCredits: number;
  /** The answer replays an earlier charge (free now). */
  replayed: boolean;
  deviations: string[];
}

/** The depth an answer reports, when it is one of the spec's (1-3); anything else is already a schema deviation. */
export function answeredDepth(data: unknown): Depth | undefined {
  const d = (data as { depth?: unknown } | null)?.depth;
  return d === 1 || d === 2 || d === 3 ? d : undefined;
}

export function chargeOf(a: ChargeInput): Charge {
  const deviations: string[] = [];
  const answered = answeredDepth(a.data);
  const depth = answered ?? a.askedDepth;
  if (answered !== undefined && answered !== a.askedDepth) {
    deviations.push(`depth: answered ${answered} where ${a.askedDepth} was asked; counted as depth ${answered} (${DEPTH_COST[answered]} credit${DEPTH_COST[answered] === 1 ? '' : 's'})`);
  }
  const earlier = a.replayed && a.attempts === 1;
  if (earlier && a.firstSend) deviations.push('Idempotent-Replayed: true on the first send of a new key, which nothing answered before: counted as charged');
  const free = earlier && !a.firstSend;
  return { credits: free ? 0 : DEPTH_COST[depth], keyCredits: DEPTH_COST[depth], replayed: free, deviations };
}
