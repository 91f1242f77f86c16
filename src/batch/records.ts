/**
 * One job's outcome -> one record per input that named it (duplicates share the answer), each with
 * its `exif` block from the evidence hook. The hook gets the answer, so it can compare the image's
 * own GPS with the estimate, and the bytes when only memory holds them (stdin) or where they are
 * when no file of the user's holds them (a photo geo fetched).
 */
import type { Job } from './sources.js';
import type { BatchRecord, JobOutcome } from './types.js';

export interface ExifHookInput {
  input: string;
  /** Absolute path of a local file (the hook reads it again: files are streamed, not held). */
  path?: string;
  sha256: string | null;
  ok: boolean;
  /** The answer body, for successes. */
  result?: unknown;
  /** The image bytes when they are held in memory (stdin). */
  bytes?: Uint8Array;
  /** Whether the service received the image's metadata (undefined: unknown); see JobOutcome. */
  metadataSent?: boolean;
}
export type ExifHook = (input: ExifHookInput) => Promise<unknown>;

function heldBytes(job: Job): Uint8Array | undefined {
  const s = job.source;
  return s.kind === 'image' || s.kind === 'convert' ? s.image.bytes : undefined;
}

/** Where the hook reads input i again: its own file, or the run's copy of a photo geo fetched (url-inputs.ts). */
function readablePath(job: Job, i: number): string | undefined {
  const s = job.source;
  return job.paths[i] ?? (job.fetched?.[i] && (s.kind === 'image' || s.kind === 'convert') ? s.image.source : undefined);
}

/** The hook's block, or null: evidence is informational and never fails a record. */
async function exifOf(hook: ExifHook | undefined, job: Job, i: number, o: JobOutcome): Promise<unknown> {
  if (!hook) return null;
  const path = readablePath(job, i);
  const bytes = heldBytes(job);
  try {
    const sent = o.metadataSent !== undefined ? { metadataSent: o.metadataSent } : {};
    return (await hook({ input: job.inputs[i]!, ...(path ? { path } : {}), sha256: job.sha256, ok: o.ok, ...(o.ok ? { result: o.result } : {}), ...(bytes ? { bytes } : {}), ...sent })) ?? null;
  } catch {
    return null;
  }
}

export async function recordsFor(job: Job, o: JobOutcome, hook?: ExifHook): Promise<BatchRecord[]> {
  const recs: BatchRecord[] = [];
  for (let i = 0; i < job.inputs.length; i++) {
    const exif = await exifOf(hook, job, i, o);
    const { code, message, status } = o.ok ? ({} as Record<string, never>) : o.error;
    // An earlier result's answer taken for this copy says so on its line (evidence/copy-events.ts).
    const reused = o.ok && o.copyOf?.reused ? { reused_similar: { result: o.copyOf.result, analysis_id: o.copyOf.analysis_id, sha256: o.copyOf.sha256, distance: o.copyOf.distance } } : {};
    recs.push({ input: job.inputs[i]!, sha256: job.sha256, ok: o.ok, ...(o.ok ? { result: o.result } : { error: { code, message, ...(status !== undefined ? { status } : {}) } }), exif, ...reused });
  }
  return recs;
}
