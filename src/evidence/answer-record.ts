/**
 * One answer as geo prints it, one NDJSON line per input ({"input", "sha256", "ok", "result" |
 * "error", "exif"}, DESIGN.md): what a batch emits, what a stored provenance record is read back as
 * (media/scene-records.ts), what each frame of a scene carries. Here, below the batch engine that
 * makes it and media/ that reads it.
 */

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
}
