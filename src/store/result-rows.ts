/**
 * Results, their reuse, the marks of scenes, files already hashed and what originals said about
 * themselves, in the shapes the store's interface (api.ts) gives and takes them: each engine
 * (sqlite/, postgres/) reads its own tables into these, so the interface owns them.
 */
import type { ProvenanceRecord, ResultColumns } from '../evidence/record-types.js';
import type { EmbeddedProvenance } from '../image/embedded.js';

export interface NewResult {
  record: ProvenanceRecord;
  /** The service's identity that reuse and claims match on (default the record's base URL). */
  origin?: string;
  /** The body's bytes as received; default the record's raw text as UTF-8. */
  rawBytes?: Buffer;
  /** The answer carried the sandbox's header: simulated, never evidence. */
  sandbox: boolean;
  /** false (--no-store): kept only so its claim replays; not in history, exports or reuse. */
  listed: boolean;
  batch?: string;
  importedFrom?: string;
  /**
   * Not filed under its idempotency key: a body that could not be read is kept, but the key's real
   * answer (its replay, on a rerun) must still find the key free to be stored under it.
   */
  unkeyed?: boolean;
}

/** A stored result as the commands see it. */
export interface StoredResult {
  id: number;
  record: ProvenanceRecord;
  sandbox: boolean;
  batch: string | null;
  listed: boolean;
  /** The raw body's bytes (as received). */
  raw: Buffer | null;
}

/** The columns `geo history` lists (no JSON is parsed to list a row). */
export interface ResultRow extends ResultColumns {
  id: number;
  stored_at: string;
  input_path: string;
  sha256: string | null;
  charge: string;
  origin: string;
  sandbox: number;
}

export interface ReuseQuery {
  sha256: string;
  /** The request fields, or their canonicalRequest() text. */
  request: Record<string, unknown> | string;
  /** The normalized base URL (records keep it as cli.base_url). */
  origin: string;
  account: string;
  /** ISO time: only answers stored at or after it (a --fresh batch being resumed). */
  since?: string;
}

/** What reuse needs to decide and to say where an answer came from, without reading the answer itself. */
export interface ReuseRef {
  id: number;
  batch: string | null;
  stored_at: string;
  depth: number | null;
  analysis_id: string | null;
  /** The record's sent.metadata: removed, kept or none (absent: before geo removed metadata). */
  sent_metadata: string | null;
  /**
   * A team store's only: who paid for it when that is not the role asking (its database role, or
   * the OS user@host of a result stored before roles were recorded); null when it is the asker's.
   */
  paid_by?: string | null;
}

/** A result's batch and its scene mark: the frame of a video or the photo of a set it is. */
export interface Tag {
  id: number;
  batch: string | null;
  /** The record's `video` / `set` field as JSON text, or null. */
  video_json: string | null;
  set_json: string | null;
}

export type TaggedRow = ResultRow & Tag;

/** A file as it was when hashed: its hash is trusted only while all of these are unchanged. */
export interface FileStamp {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
}

/** A file's sha256 and image type, remembered under its path. */
export interface FileHash {
  sha256: string;
  kind: string;
}

/** What an original said about itself before geo stripped it, and when geo first read it. */
export interface StoredEmbedded extends EmbeddedProvenance {
  sha256: string;
  read_at: string;
}
