/**
 * What the store already holds for a batch's jobs, read once before the plan (ledger.ts says in
 * which order): answers are settled without sending and left out of the plan's cost; open claims
 * are sent again with their keys (or waited for, when another process holds them); images whose
 * only record was damaged make the plan ask before paying again.
 */
import type { Held, Ledger } from './ledger.js';
import type { Job } from './sources.js';

export interface HeldAnswers {
  answers: Map<string, Extract<Held, { kind: 'answer' }>>;
  /** Job id -> the key of its open claim, and whether a live process holds it. */
  open: Map<string, { key: string; elsewhere: boolean }>;
  /** Jobs whose key came from a journal of before account fingerprints (resent, not re-emitted). */
  legacy: number;
  /** Job id -> the damaged legacy files that named its image. */
  damaged: Map<string, string[]>;
}

export async function heldAnswers(jobs: readonly Job[], ledger: Ledger): Promise<HeldAnswers> {
  const out: HeldAnswers = { answers: new Map(), open: new Map(), damaged: new Map(), legacy: 0 };
  const all = await ledger.heldMany(jobs);
  for (const job of jobs) {
    const h = all.get(job.id);
    if (h === undefined) continue;
    if (h.kind === 'answer') out.answers.set(job.id, h);
    else if (h.kind === 'open') {
      out.open.set(job.id, { key: h.key, elsewhere: h.elsewhere });
      if (h.legacy) out.legacy++;
    }
    else if (h.kind === 'damaged') out.damaged.set(job.id, h.files);
  }
  return out;
}
