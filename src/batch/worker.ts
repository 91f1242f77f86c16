/**
 * Sends one job: claim the request in the store BEFORE it is sent (the claim holds the
 * idempotency key; another process that wants the same request waits for it instead of paying
 * again), send with that key, commit the answer with its claim, then hand it on. The order is what
 * makes kill -9 safe: a claim left open is resent with the same key, which the service replays
 * free; an answer is committed before anything shows it.
 *
 * If the store cannot take a paid answer (disk full, read-only, locked), the answer is still
 * handed on, with the store's error: the command prints it, says what it cost and which key
 * replays it free. It is never reported as "not sent".
 */
import type { Depth } from '../api/schemas.js';
import { StoreError } from '../errors.js';
import { claimTurn } from './claim-turn.js';
import type { TaskControl, TaskResult } from './scheduler.js';
import { sendClaimed } from './send-claimed.js';
import type { Job } from './sources.js';
import type { Spent } from './spend-guard.js';
import { holdCredits, settleCredits } from './team-budget.js';
import type { WorkerEnv } from './worker-env.js';

export type { BatchClient, WorkerEnv } from './worker-env.js';

export async function sendJob(w: WorkerEnv, job: Job, ctl: TaskControl): Promise<TaskResult> {
  if (w.stopSending?.aborted) return { kind: 'done' };
  const turn0 = await claimTurn(w, job, ctl.halted);
  if ('done' in turn0) return turn0.done;
  // The budget decides before anything is sent (spend-guard.ts). Not sent: the claim stays open
  // with its key, released when the store closes, so a rerun sends it with this key.
  const gate = await w.spend.enter(w.signal);
  if (gate.kind === 'cancelled') return { kind: 'stop', stop: { reason: 'cancelled', error: w.signal?.reason } };
  if (gate.kind === 'stop') return { kind: 'stop', stop: { reason: 'budget', error: new Error(gate.why) } };
  let spent: Spent = 'unsent';
  let keySpent: Spent = 'unsent';
  let answered: number | undefined;
  let held = false;
  try {
    // The store's budget (a team's cap, team-budget.ts): reserved before the send, whoever sends.
    const full = await holdCredits(w.ledger.store, turn0.key, (w.request.depth ?? 1) as Depth, w.caseId, { held: w.spend.held, halted: ctl.halted });
    if (full !== undefined) {
      // Let go at once (same key, still open): a process on another machine waiting for this
      // request takes it, meets the cap too and stops, instead of both waiting for each other.
      await w.ledger.store.release(turn0.key).catch(() => undefined);
      return { kind: 'stop', stop: { reason: 'budget', error: new Error(full) } };
    }
    held = true;
    return await sendClaimed(w, job, ctl, turn0, (credits, depth, keyCredits) => {
      spent = credits;
      keySpent = keyCredits ?? credits;
      answered = depth;
    });
  } catch (err) {
    if (err instanceof StoreError && !held) return { kind: 'stop', stop: { reason: 'store', error: err } };
    throw err;
  } finally {
    w.spend.leave(spent, answered);
    // The store's budget holds per key: a replay settles the key at what the service charged it
    // once; a key taken over from a process that died may have been charged by it, so not sending
    // it now lets nothing go (the rerun that sends it settles it).
    if (held) await settleCredits(w.ledger.store, turn0.key, keySpent === 'unsent' && turn0.takeover ? 'unknown' : keySpent, w.spend.held);
  }
}
