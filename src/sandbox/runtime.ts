/** What every handler of one running sandbox shares. */
import { randomBytes } from 'node:crypto';
import type { FaultPlan } from './faults.js';
import type { KnownModel } from './known.js';
import type { SandboxTsa } from './tsa.js';
import type { RateLimiter } from './ratelimit.js';
import type { SandboxState } from './state.js';

export interface SandboxRuntime {
  state: SandboxState;
  limiter: RateLimiter;
  /** --rate-limit: one quota for every tier (else the tier's). */
  rateLimit?: number;
  latencyMs: number;
  faults: FaultPlan;
  now: () => number;
  /** Aborted by close(): stops latency waits, stalls and queued jobs. */
  signal: AbortSignal;
  /** Background work (async jobs) close() waits for. */
  pending: Set<Promise<unknown>>;
  /** --truth: images answered by the model of known skill (known.ts). */
  known?: KnownModel;
  /** The test time-stamp authority and its throwaway CA (tsa-http.ts): one for the run, made when first asked for. */
  tsa?: Promise<SandboxTsa>;
}

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}

export function isoAt(now: () => number): string {
  return new Date(now()).toISOString();
}
