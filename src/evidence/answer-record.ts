/**
 * One answer as geo prints it, one NDJSON line per input ({"input", "sha256", "ok", "result" |
 * "error", "exif"}, DESIGN.md): what a batch emits, what a stored provenance record is read back as
 * (media/scene-records.ts), what each frame of a scene carries. Here, below the batch engine that
 * makes it and media/ that reads it.
 */
import type { ReusedSimilar } from './copy-events.js';

/** One line of NDJSON output, one per input (duplicates share the result of their image). */
export interface BatchRecord {
  input: string;
  /** null for https URLs: the service fetches them, we never see the bytes. */
  sha256: string | null;
  ok: boolean;
  result?: unknown;
  error?: { code: string; message: string; status?: number };
  /** Filled by the evidence engine through deps.exif; null until then. */
  exif: unknown;
  /** `result` is an earlier result's answer, taken for this copy of its photo (--reuse-similar): not the service's answer for these bytes. */
  reused_similar?: ReusedSimilar;
}
