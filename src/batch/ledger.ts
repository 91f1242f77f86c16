/**
 * The batch's side of the store: what the store already holds for each job, the claim
 * that decides who sends it, and the answer committed with its claim before anyone shows it.
 *
 * Order of look-ups for a job (what its fingerprint names: image, upload, fields, service, account):
 *  1. an open claim: a request sent (or about to be) with no final outcome. It always goes first,
 *     before any stored answer: another live process is waited for; an orphaned key (its process
 *     is gone: Ctrl-C, kill -9, a full disk) is resent, which the service replays free.
 *  2. a stored usable answer for the same image bytes, fields, service and account (whatever
 *     command stored it, metadata removed or not: the same image is never paid twice);
 *  3. this request's own answered or failed claim (an unusable paid answer, a final 422);
 *  4. nothing: a new claim, a new key.
 * A --fresh batch counts only what was answered since it started (`since`).
 */
import { canonicalRequest } from '../store/canonical.js';
import { type Acquired, type ClaimRow, type ReuseQuery, type ReuseRef, type StoreApi, type StoredResult, fingerprint, parseError } from '../store/index.js';
import { classifyAnswer } from './outcome.js';
import type { Job } from './sources.js';
import type { BatchError, JobOutcome, ReusedFrom } from './types.js';

export interface LedgerOptions {
  /** The local file or a team's server: claims decide across every process that uses it. */
  store: StoreApi;
  account?: string;
  /** The client's base URL (normalized): results and claims are per service. */
  origin: string;
  /** The batch id (its head is in the store): answers of this batch read "from an earlier run". */
  batch?: string;
  keepMetadata: boolean;
  downscale: boolean;
  /** The request fields every job is sent with (plan.ts requestParams). */
  request: Record<string, unknown>;
  async: boolean;
  /** A --fresh batch: only answers from this time on (ms) count. */
  since?: number;
}

/** What the ledger needs of a job: a batch's, or the one request of `geo api`. */
export type LedgerJob = Pick<Job, 'id' | 'sha256' | 'inputs'> & { source: { kind: string; url?: string } };

/**
 * What the store holds for a job before anything is sent. An answer is only named here (its row,
 * where it came from): it is read when the batch settles it (settled()), so planning a thousand
 * reused images reads a thousand index rows, not a thousand answers.
 */
export type Held =
  /** `legacy`: the key of a journal from before account fingerprints, adopted by this account (resent, never re-emitted). */
  | { kind: 'open'; key: string; elsewhere: boolean; legacy?: boolean }
  /** Settled without sending: a stored result (resultId), or a final failure (error). */
  | { kind: 'answer'; how: 'journal' | 'results'; resultId?: number; from?: ReusedFrom; error?: BatchError }
  | { kind: 'damaged'; files: string[] }
  | { kind: 'none' };

/** Jobs looked up together: the store's IN lists take 500 at a time. */
const HELD_CHUNK = 500;

export class Ledger {
  /** The request fields as fingerprint() and reuse compare them, computed once per batch. */
  private readonly request: string;
  constructor(readonly o: LedgerOptions) {
    this.request = canonicalRequest(o.request);
  }

  get store(): StoreApi {
    return this.o.store;
  }

  /**
   * Made anew on each call (a hash of a few hundred bytes, microseconds) rather than kept: a batch
   * of 100,000 jobs would hold 11 MB of them for its whole run.
   */
  fingerprint(job: LedgerJob): string {
    return this.fingerprintFor(job, this.o.account);
  }

  private fingerprintFor(job: LedgerJob, account: string | undefined): string {
    const image = job.sha256 ?? job.source.url ?? job.id;
    return fingerprint({ account, origin: this.o.origin, image, upload: { keepMetadata: this.o.keepMetadata, downscale: this.o.downscale }, request: this.request });
  }

  /**
   * held() for every job, the store read in a few queries for each 500 of them (a plan of
   * thousands); each job's fingerprint is made once here, 500 at a time. Only the jobs that hold
   * something are in the map (missing means none): a new batch of 100,000 images is not a map of
   * 100,000 nothings, nor an array of 100,000 fingerprints.
   */
  async heldMany(jobs: readonly LedgerJob[]): Promise<Map<string, Exclude<Held, { kind: 'none' }>>> {
    const out = new Map<string, Exclude<Held, { kind: 'none' }>>();
    const reusing = this.reusing;
    for (let at = 0; at < jobs.length; at += HELD_CHUNK) {
      const chunk = jobs.slice(at, at + HELD_CHUNK);
      const fps = chunk.map((j) => this.fingerprint(j));
      const claims = await this.o.store.currentClaims(fps);
      const shas = reusing ? chunk.flatMap((j) => (j.sha256 !== null ? [j.sha256] : [])) : [];
      const reuse = shas.length ? await this.o.store.reusableMany(shas, this.reuseQuery()) : new Map<string, ReuseRef>();
      for (const [i, j] of chunk.entries()) {
        const h = await this.held(j, { fp: fps[i]!, claim: claims.get(fps[i]!) ?? null, reuse: (j.sha256 !== null && reuse.get(j.sha256)) || null });
        if (h.kind !== 'none') out.set(j.id, h);
      }
    }
    return out;
  }

  /** Whether stored answers may answer jobs at all: with an account, and not --async (which asks for a new analysis). */
  get reusing(): boolean {
    return this.o.account !== undefined && !this.o.async;
  }

  /** What a stored answer must match to be reused: this account, service and request fields (and, --fresh, its time). */
  reuseQuery(): Omit<ReuseQuery, 'sha256'> {
    return { request: this.request, origin: this.o.origin, account: this.o.account!, ...(this.o.since !== undefined ? { since: new Date(this.o.since).toISOString() } : {}) };
  }

  /** `known`: the fingerprint, claim and reusable answer already read (heldMany); null means "there is none". */
  async held(job: LedgerJob, known?: { fp: string; claim: ClaimRow | null; reuse: ReuseRef | null }): Promise<Held> {
    const s = this.o.store;
    const fp = known?.fp ?? this.fingerprint(job);
    const cur = known ? (known.claim ?? undefined) : await s.currentClaim(fp);
    if (cur?.state === 'open') return { kind: 'open', key: cur.key, elsewhere: s.heldElsewhere(cur) };
    if (job.sha256 !== null && this.reusing) {
      const r = known ? (known.reuse ?? undefined) : await s.reusable({ sha256: job.sha256, ...this.reuseQuery() });
      if (r && this.accepts(r)) {
        const from: ReusedFrom = {
          storedAt: r.stored_at, depth: r.depth ?? Number(this.o.request.depth ?? 1), analysisId: r.analysis_id, resultId: r.id,
          // Records from before geo removed metadata do not say: the service may have read it.
          ...(r.sent_metadata === 'removed' || r.sent_metadata === 'none' ? {} : { withMetadata: true }),
          ...(r.paid_by ? { paidBy: r.paid_by } : {}),
        };
        return { kind: 'answer', how: r.batch !== null && r.batch === this.o.batch ? 'journal' : 'results', resultId: r.id, from };
      }
    }
    if (cur && (this.o.since === undefined || cur.created_at >= this.o.since)) {
      const done = this.fromClaim(cur);
      if (done) return done;
    }
    if (!cur && this.o.account !== undefined) {
      // A journal of a geo from before account fingerprints was imported without one:
      // its key is adopted and resent, which the service replays free if it was this account's,
      // and runs as an ordinary request if it was not. Its answer is never re-emitted as ours.
      const key = await s.adoptLegacyClaim(this.fingerprintFor(job, undefined), fp);
      if (key !== undefined) return { kind: 'open', key, elsewhere: false, legacy: true };
    }
    if (job.sha256 !== null) {
      const files = await s.damagedFor(job.sha256);
      if (files.length) return { kind: 'damaged', files };
    }
    return { kind: 'none' };
  }

  /**
   * --keep-metadata asks for an answer made from the photo's metadata too: one made without it
   * (geo removed it) answers another question, so the image is sent (it was reused silently).
   */
  accepts(r: ReuseRef): boolean {
    return !(this.o.keepMetadata && r.sent_metadata === 'removed');
  }

  /** An answered or failed claim, settled without sending (free: it was paid when it arrived). */
  fromClaim(c: ClaimRow): Extract<Held, { kind: 'answer' }> | undefined {
    if (c.state === 'answered' && c.result_id !== null) return { kind: 'answer', how: 'journal', resultId: c.result_id };
    if (c.state === 'failed') return { kind: 'answer', how: 'journal', error: parseError(c.error) };
    return undefined;
  }

  /** The outcome a held answer settles as, its stored answer read now; undefined if that row is gone. */
  async settled(h: Extract<Held, { kind: 'answer' }>): Promise<JobOutcome | undefined> {
    if (h.error) return { ok: false, error: h.error };
    const r = h.resultId === undefined ? undefined : await this.o.store.result(h.resultId);
    return r ? this.outcomeOf(r) : undefined;
  }

  /** A stored answer as the outcome of a job: what it said, as received, and where it is kept. */
  outcomeOf(r: StoredResult): JobOutcome {
    const rec = r.record;
    const response = {
      ...(rec.response.raw !== undefined ? { raw: rec.response.raw } : {}), ...(r.raw ? { rawBytes: r.raw } : {}),
      ...(rec.response.status !== undefined ? { status: rec.response.status } : {}),
      ...(rec.idempotency_key ? { idempotencyKey: rec.idempotency_key } : {}), ...(rec.headers?.request_id ? { requestId: rec.headers.request_id } : {}),
      ...(rec.response.deviations?.length ? { deviations: rec.response.deviations } : {}),
    };
    const metadataSent = rec.sent ? { metadataSent: rec.sent.metadata === 'kept' } : {};
    const stored = { stored: { id: r.id, record: rec } };
    const a = classifyAnswer(rec.response.body, rec.response.status ?? 200, this.o.async);
    return a.ok ? { ok: true, result: a.result, replayed: false, credits: 0, response, ...metadataSent, ...stored } : { ok: false, error: a.error, response, ...metadataSent, ...stored };
  }

  /** `key`: the caller's own (it names the request); `newKey`: what a new claim gets instead of a fresh UUID. */
  acquire(job: LedgerJob, key?: string, newKey?: string): Promise<Acquired> {
    return this.o.store.acquire(this.fingerprint(job), {
      ...(this.o.batch !== undefined ? { batch: this.o.batch } : {}), input: job.inputs[0]!,
      ...(this.o.since !== undefined ? { since: this.o.since } : {}), ...(key !== undefined ? { key } : {}), ...(newKey !== undefined ? { newKey } : {}),
    });
  }
}
