/**
 * Jobs the provenance store already answers (issue 11, "paid once, across commands"): the same
 * image bytes, request fields, service and account, stored by any earlier command. They are
 * settled from the store, never sent, and left out of the plan's cost. URLs have no sha256 (the
 * service fetches them; we never see the bytes), so they are never reused.
 */
import { findReusable } from '../local/reuse.js';
import { journalForAccount } from './account.js';
import { type DoneLine, type JournalState, isFinished } from './journal.js';
import { requestParams } from './plan.js';
import type { Prepared } from './prepare.js';
import type { Job } from './sources.js';
import type { BatchParams, ReusedFrom } from './types.js';
import type { JobOutcome } from './worker.js';

/**
 * An earlier run's journaled answer as the outcome the batch settles (re-emitted, never resent):
 * free this time, with the raw body as received when the journal kept it (a deviating or unusable
 * answer keeps it too).
 */
export function journalOutcome(d: DoneLine): JobOutcome {
  const kept = d.ok || d.raw !== undefined;
  const response = kept
    ? { idempotencyKey: d.key, ...(d.raw !== undefined ? { raw: d.raw } : {}), ...(d.raw_b64 !== undefined ? { rawBytes: Buffer.from(d.raw_b64, 'base64') } : {}), ...(d.status !== undefined ? { status: d.status } : {}), ...(d.deviations ? { deviations: d.deviations } : {}) }
    : undefined;
  return d.ok ? { ok: true, result: d.result, replayed: false, credits: 0, ...(response ? { response } : {}) } : { ok: false, error: d.error, ...(response ? { response } : {}) };
}

export interface StoredAnswer {
  outcome: Extract<JobOutcome, { ok: true }>;
  from: ReusedFrom;
}

export interface ReuseScope {
  /** dataDir(env): where the records are; undefined, nothing is reused. */
  dataDir: string | undefined;
  /** accountFingerprint of the key; undefined (no key), nothing is reused. */
  account: string | undefined;
  baseUrl: string;
  params: BatchParams;
}

/** Look-ups in flight at once: enough to hide disk latency, few enough for a small fd limit. */
const PARALLEL = 16;

export async function storedAnswers(jobs: readonly Job[], s: ReuseScope): Promise<Map<string, StoredAnswer>> {
  const out = new Map<string, StoredAnswer>();
  const { dataDir, account } = s;
  if (dataDir === undefined || account === undefined) return out;
  const request = requestParams(s.params);
  const local = jobs.filter((j) => j.sha256 !== null);
  for (let i = 0; i < local.length; i += PARALLEL) {
    await Promise.all(local.slice(i, i + PARALLEL).map(async (job) => {
      const hit = await findReusable(dataDir, { sha256: job.sha256!, request, baseUrl: s.baseUrl, account });
      if (!hit) return;
      const { record: rec, file } = hit;
      const body = rec.response.body;
      out.set(job.id, {
        outcome: {
          ok: true, result: body, replayed: false, credits: 0,
          // Records from before geo removed metadata do not say: the service may have read it.
          ...(rec.sent ? { metadataSent: rec.sent.metadata === 'kept' } : {}),
          response: {
            ...(rec.response.raw !== undefined ? { raw: rec.response.raw } : {}), ...(rec.response.raw_b64 !== undefined ? { rawBytes: Buffer.from(rec.response.raw_b64, 'base64') } : {}),
            ...(rec.response.status !== undefined ? { status: rec.response.status } : {}),
            ...(rec.idempotency_key ? { idempotencyKey: rec.idempotency_key } : {}), ...(rec.headers?.request_id ? { requestId: rec.headers.request_id } : {}),
          },
        },
        from: { storedAt: rec.stored_at, depth: typeof body.depth === 'number' ? body.depth : s.params.depth, analysisId: body.analysis_id ?? null, file, ...(rec.sent?.metadata === 'removed' || rec.sent?.metadata === 'none' ? {} : { withMetadata: true }) },
      });
    }));
  }
  return out;
}

export interface Held {
  /** The journal's state as far as this account may use it (account.ts); undefined with --fresh. */
  state?: JournalState;
  /** Jobs the journal does not answer but a stored result does. */
  stored: Map<string, StoredAnswer>;
  notice?: string;
}

/** The BatchDeps this needs. */
export interface HeldDeps {
  client: { baseUrl: string };
  account?: string;
  dataDir?: string;
}

/** What this account already holds for the batch: its journal first, then the store. --fresh: nothing. */
export async function answersHeld(prep: Prepared, deps: HeldDeps, fresh: boolean): Promise<Held> {
  if (fresh) return { stored: new Map() };
  const { state, notice } = journalForAccount(prep.state, deps.account, prep.stateFrom ?? prep.journalPath ?? '');
  const open = prep.jobs.filter((j) => !isFinished(state?.done.get(j.id)));
  const stored = await storedAnswers(open, { dataDir: deps.dataDir, account: deps.account, baseUrl: deps.client.baseUrl, params: prep.params });
  return { ...(state ? { state } : {}), stored, ...(notice ? { notice } : {}) };
}
