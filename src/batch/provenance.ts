/**
 * The provenance record of an answer, built when the answer arrives so it is committed
 * with its claim (ledger.ts, worker.ts): what was sent (request fields, the sha256 of the file and
 * of the bytes that went out), what came back (status, body, raw text, headers), when, from which
 * service, for which account, with which geo. Never the key, never the image bytes.
 */
import { buildRecord } from '../evidence/records.js';
import type { ProvenanceRecord } from '../evidence/record-types.js';
import { isUrlInput } from './inputs.js';
import type { Job } from './sources.js';
import type { ResponseMeta } from './types.js';

/** The parsed raw body (it parsed once already, in the client), else the text itself. */
export function bodyOf(raw: string | undefined): unknown {
  try {
    return raw === undefined ? null : (JSON.parse(raw) as unknown);
  } catch {
    return raw;
  }
}

export interface AnswerFacts {
  response: ResponseMeta;
  replayed: boolean;
  /** The usable result; absent when the answer is kept but unusable. */
  result?: unknown;
  /** Why the paid answer is not a usable result (kept all the same). */
  unusable?: string;
}

export interface RecordContext {
  /** The request fields every image is sent with (plan.request). */
  request: Record<string, unknown>;
  baseUrl: string;
  account?: string;
  version: string;
  now: () => number;
}

export function answerRecord(c: RecordContext, job: Pick<Job, 'inputs' | 'sha256'> & { paths?: Job['paths']; origin?: Job['origin']; fetched?: Job['fetched'] }, f: AnswerFacts): ProvenanceRecord {
  const m = f.response;
  const input = job.inputs[0]!;
  // A URL the service fetched (--service-fetch) has no sha256: image_url is what was sent.
  const url = job.sha256 === null && isUrlInput(input);
  const fetched = job.fetched?.find((x) => x !== undefined);
  return buildRecord({
    input: { path: job.paths?.[0] ?? input, sha256: job.sha256 ?? '' },
    ...(fetched ? { fetched } : {}),
    request: { ...(url ? { image_url: input } : {}), ...c.request },
    response: {
      data: f.unusable === undefined ? f.result : bodyOf(m.raw), raw: m.raw ?? JSON.stringify(f.result), ...(m.rawBytes ? { rawBytes: m.rawBytes } : {}), status: m.status ?? 200, headers: m.headers ?? {}, replayed: f.replayed,
      ...(m.receivedSha256 ? { receivedSha256: m.receivedSha256 } : {}),
      ...(m.requestId ? { requestId: m.requestId } : {}), ...(m.idempotencyKey ? { idempotencyKey: m.idempotencyKey } : {}),
      ...(m.attempts !== undefined ? { attempts: m.attempts } : {}), ...(m.elapsedMs !== undefined ? { elapsedMs: m.elapsedMs } : {}),
    },
    baseUrl: c.baseUrl,
    ...(c.account !== undefined ? { account: c.account } : {}),
    cliVersion: c.version,
    ...(m.deviations?.length ? { deviations: m.deviations } : {}),
    ...(f.unusable !== undefined ? { unusable: f.unusable } : {}),
    ...(m.sent ? { sent: m.sent } : {}),
    // A video's frame or a photo of a set: the record says which.
    ...(job.origin ? { origin: job.origin } : {}),
    now: c.now(),
  });
}
