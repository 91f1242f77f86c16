/**
 * Copies of photos located before, found when a batch is planned: every image to send is hashed
 * (PDQ, image/pdq.ts) once, here, and that hash is the one the store keeps for it when it is sent
 * (perceptual.ts keepPerceptual) and a case's input_hashed entry carries. Each hash is looked up in
 * the store's near-duplicate index (store/pdq-index.ts): an image whose nearest stored image within
 * LIKE_DISTANCE has an answer this account could reuse for it (the same terms as an exact reuse:
 * account, service, request fields; ledger.ts reuseQuery) "looks like a photo located before".
 * The plan counts them; with --reuse-similar they take that answer instead of being sent
 * (copies.ts). A featureless image (PDQ quality below MIN_QUALITY) matches nothing: its hash says
 * too little. A video's frames and a set's photos are left to their scene, as they are.
 */
import type { ReusedSimilar } from '../evidence/copy-events.js';
import { LIKE_DISTANCE, MIN_QUALITY, type Pdq } from '../image/pdq.js';
import type { NearResult, StoreApi } from '../store/index.js';
import type { Ledger } from './ledger.js';
import { originalOf, pdqIfSame } from './perceptual.js';
import type { Job } from './sources.js';

/** An earlier result a copy may take the answer of: the reference the record keeps, and the input it names. */
export interface SimilarAnswer extends ReusedSimilar {
  input: string;
}

/** Images hashed at once: sharp decodes on its own threads, so a few at a time keep both cores busy. */
const AT_ONCE = 4;
/**
 * Stored results kept per look-up, nearest first. The index reads every result within the distance
 * whatever this is (store/pdq-index.ts), so it costs nothing to keep enough that the rows passed
 * over (a copy's reuses, other accounts' answers) never hide the one wanted.
 */
export const NEAREST = 200;

/** Whether a job is one image of its own (not a frame, not part of a set) whose bytes geo reads. */
export function copyCandidate(job: Job): boolean {
  return job.origin === undefined && job.sha256 !== null && originalOf(job) !== undefined;
}

/**
 * The PDQ hash of each job's image that could be one (job id -> hash); one that cannot be decoded
 * has none. An image the store holds a hash for (located before, at another depth or by another
 * account) is not decoded again.
 */
export async function hashJobs(store: StoreApi, jobs: readonly Job[]): Promise<Map<string, Pdq>> {
  const out = new Map<string, Pdq>();
  const todo = jobs.filter(copyCandidate);
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      const job = todo[next++]!;
      const had = await store.perceptual.get(job.sha256!);
      const p = had ? { hash: had.pdq, quality: had.quality } : await pdqIfSame(originalOf(job)!, job.sha256!).catch(() => undefined);
      if (p) out.set(job.id, p);
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, todo.length) }, worker));
  return out;
}

/** Stored results that could be an earlier photo of this image: not the same bytes, not a copy's reuse, with a hash worth matching. */
export function candidates(rows: readonly NearResult[], sha256: string): NearResult[] {
  return rows.filter((r) => r.row.sha256 !== null && r.row.sha256 !== sha256 && r.row.charge !== 'reused_similar' && r.perceptual.quality >= MIN_QUALITY);
}

/**
 * For each job with a hash: the nearest stored result this account could reuse for it, within
 * LIKE_DISTANCE (job id -> that result); jobs with none are not in the map.
 */
export async function similarAnswers(jobs: readonly Job[], hashes: ReadonlyMap<string, Pdq>, ledger: Ledger): Promise<Map<string, SimilarAnswer>> {
  const out = new Map<string, SimilarAnswer>();
  if (!ledger.reusing) return out;
  const store: StoreApi = ledger.store;
  for (const job of jobs) {
    const h = hashes.get(job.id);
    if (!h || h.quality < MIN_QUALITY) continue;
    const near = candidates((await store.perceptual.near(h.hash, LIKE_DISTANCE, NEAREST)).rows, job.sha256!);
    if (near.length === 0) continue;
    const refs = await store.reusableMany([...new Set(near.map((r) => r.row.sha256!))], ledger.reuseQuery());
    // Nearest first (near() sorts them): the first whose image has a reusable answer.
    for (const r of near) {
      const ref = refs.get(r.row.sha256!);
      if (!ref || !ledger.accepts(ref)) continue;
      out.set(job.id, { result: ref.id, analysis_id: ref.analysis_id, sha256: r.row.sha256!, distance: r.distance, input: r.row.input_path });
      break;
    }
  }
  return out;
}
