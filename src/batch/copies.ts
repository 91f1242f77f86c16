/**
 * What a batch does with a copy of a photo located before (similar.ts found it). Paid for (the
 * default), its result is linked to the nearest earlier result (linkPaidCopy). Reused
 * (--reuse-similar), nothing is sent: the store gets a row of the copy's own that holds no answer
 * and points at the earlier result (copyRecord: `reused_similar`, `unusable`; the store's charge
 * column says reused_similar), linked to it; the run shows the earlier answer marked as that, never
 * as the service's answer for these bytes (evidence/copy-events.ts).
 */
import { NOT_FOR_THESE_BYTES } from '../evidence/copy-events.js';
import { RECORD_SCHEMA, type ProvenanceRecord, type ResultBody } from '../evidence/record-types.js';
import { LIKE_DISTANCE, MIN_QUALITY, type Pdq } from '../image/pdq.js';
import type { StoreApi, StoredResult } from '../store/index.js';
import type { Ledger } from './ledger.js';
import type { SimilarAnswer } from './similar.js';
import { NEAREST, candidates, copyCandidate } from './similar.js';
import type { Job } from './sources.js';
import type { CopyOf, JobOutcome } from './types.js';

/**
 * The row a reuse is stored as: the copy's input, this account, service and request fields, and
 * where its answer is; no response of its own (a null body), so nothing reads it as one.
 */
function copyRecord(job: Job, s: SimilarAnswer, of: StoredResult, ledger: Ledger, now: number, version: string): ProvenanceRecord {
  const { input: _input, ...reused } = s;
  return {
    schema: RECORD_SCHEMA, stored_at: new Date(now).toISOString(), origin: 'store', cli: { version, base_url: of.record.cli?.base_url ?? ledger.o.origin },
    ...(ledger.o.account !== undefined ? { account: ledger.o.account } : {}),
    input: { path: job.paths[0] ?? job.inputs[0]!, sha256: job.sha256! }, request: ledger.o.request,
    response: { body: null as unknown as ResultBody },
    reused_similar: reused,
    unusable: `the answer of result ${s.result} (${s.input}), reused for this copy at ${s.distance} bits: ${NOT_FOR_THESE_BYTES}`,
    ...(of.sandbox ? { sandbox: true } : {}),
  };
}

/** The earlier answer as shown for the copy: that result's record under the copy's input, marked reused_similar. */
function shownRecord(job: Job, s: SimilarAnswer, of: StoredResult): ProvenanceRecord {
  const { input: _input, ...reused } = s;
  return { ...of.record, input: { path: job.paths[0] ?? job.inputs[0]!, sha256: job.sha256! }, reused_similar: reused };
}

export interface ReuseContext {
  ledger: Ledger;
  /** false (--no-store): nothing is written; the earlier answer is still shown, marked. */
  listed: boolean;
  hashes: ReadonlyMap<string, Pdq>;
  now: () => number;
  version: string;
}

/**
 * A copy's outcome from the earlier answer: read from the store, the reuse recorded once (a rerun
 * finds its row: CopyLinksApi.reuseOf) with the copy's hash, and marked. Undefined when that
 * answer is gone from the store.
 */
export async function reuseAnswer(c: ReuseContext, job: Job, s: SimilarAnswer): Promise<JobOutcome | undefined> {
  const store = c.ledger.store;
  const of = await store.result(s.result);
  if (!of) return undefined;
  const base = c.ledger.outcomeOf(of);
  if (!base.ok) return undefined;
  let id = of.id;
  if (c.listed) {
    const h = c.hashes.get(job.id);
    if (h) await store.perceptual.put(job.sha256!, { pdq: h.hash, quality: h.quality });
    id = (await store.copies.reuseOf(job.sha256!, of.id, c.ledger.o.account ?? '')) ?? (await storeReuse(store, copyRecord(job, s, of, c.ledger, c.now(), c.version), of, c.ledger));
    await store.copies.link({ result: id, of_result: of.id, distance: s.distance, reused: true });
  }
  const copyOf: CopyOf = { ...s, reused: true };
  return { ...base, credits: 0, stored: { id, record: shownRecord(job, s, of) }, copyOf };
}

function storeReuse(store: StoreApi, record: ProvenanceRecord, of: StoredResult, ledger: Ledger): Promise<number> {
  return store.insertResult({ record, origin: ledger.o.origin, sandbox: of.sandbox, listed: true, ...(ledger.o.batch ? { batch: ledger.o.batch } : {}) });
}

/**
 * A paid answer of a copy linked to the nearest earlier result of the same service whose image lies
 * within LIKE_DISTANCE: earlier meaning stored before it, so two copies answered at once link one
 * way, never to each other. Undefined when it is no copy (or the store could not say).
 */
export async function linkPaidCopy(store: StoreApi, job: Job, resultId: number, hash: Pdq | undefined, origin: string): Promise<CopyOf | undefined> {
  if (!hash || hash.quality < MIN_QUALITY || !copyCandidate(job)) return undefined;
  const { rows } = await store.perceptual.near(hash.hash, LIKE_DISTANCE, NEAREST);
  const of = candidates(rows, job.sha256!).find((r) => r.row.id < resultId && r.row.origin === origin && r.row.latitude !== null);
  if (!of) return undefined;
  await store.copies.link({ result: resultId, of_result: of.row.id, distance: of.distance, reused: false });
  return { result: of.row.id, analysis_id: of.row.analysis_id, sha256: of.row.sha256!, distance: of.distance, input: of.row.input_path, reused: false };
}
