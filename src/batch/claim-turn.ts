/**
 * A job's turn at its claim (worker.ts): send now under the claim's key, wait while another
 * process holds the same request, or settle from what another process finished.
 */
import type { TaskResult } from './scheduler.js';
import type { Job } from './sources.js';
import type { JobOutcome } from './types.js';
import { otherKeyLine, waitForClaim } from './wait-claim.js';
import type { WorkerEnv } from './worker-env.js';

const NOT_SENT = (why: string): JobOutcome => ({ ok: false, error: { code: 'not_sent', message: `not sent: ${why}`, final: false } });

/** The claim decides: send now with a key, or settle from what another process finished. */
export async function claimTurn(w: WorkerEnv, job: Job, halted: AbortSignal): Promise<{ key: string; takeover: boolean } | { done: TaskResult }> {
  // The caller's own key meets its request held under another key: said once.
  let said = false;
  const other = (how: 'waiting' | 'resent' | 'reused', key: string) => {
    if (w.userKey === undefined || key === w.userKey || said) return;
    said = true;
    w.emit({ type: 'notice', message: otherKeyLine(job.inputs[0]!, how, key, w.userKey) });
  };
  for (;;) {
    if (halted.aborted) return { done: { kind: 'done' } };
    const acq = await w.ledger.acquire(job, w.userKey);
    if (acq.kind === 'send') {
      if (acq.takeover) other('resent', acq.key);
      return { key: acq.key, takeover: acq.takeover };
    }
    if (acq.kind === 'answered' || acq.kind === 'failed') {
      // Only a claim of this very request settles it: a caller's key used for another one (key_reused) names someone else's answer.
      const claim = await w.ledger.store.claim(acq.key);
      const held = claim && claim.fp === w.ledger.fingerprint(job) ? w.ledger.fromClaim(claim) : undefined;
      const outcome = held ? await w.ledger.settled(held) : undefined;
      if (held) other('reused', acq.key);
      await w.finish(job, outcome ?? { ok: false, error: acq.kind === 'failed' ? acq.error : { code: 'failed', message: 'the stored answer is missing', final: true } }, 'others');
      return { done: { kind: 'done' } };
    }
    if (w.userKey !== undefined && acq.key !== w.userKey) other('waiting', acq.key);
    else w.onWait?.(job);
    const waited = await waitForClaim(w.ledger.store, acq.key, { sleep: w.sleep, signal: halted });
    // The batch stopped (not Ctrl-C): the job is listed as not sent with the stop's reason (run.ts).
    if (waited === 'cancelled' && !w.signal?.aborted) return { done: { kind: 'done' } };
    if (waited === 'cancelled') {
      await w.finish(job, NOT_SENT('cancelled while another geo process was sending it'), 'not_sent');
      return { done: { kind: 'stop', stop: { reason: 'cancelled', error: w.signal?.reason } } };
    }
  }
}
