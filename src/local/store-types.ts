/** The provenance record shape (store.ts writes it, store-ndjson.ts rebuilds it, exports read it). */
import type { GeolocateResponse } from '../api/schemas.js';
import type { Corroboration } from './corroborate.js';

export const RECORD_SCHEMA = 'geo.provenance/1';

/**
 * The geolocate body. It passed the client's schema when received, but records are files anyone
 * can edit and NDJSON may come from elsewhere: readers check isResultBody() and treat the arrays
 * and optional objects as possibly absent.
 */
export type ResultBody = GeolocateResponse;

export interface ProvenanceRecord {
  schema: typeof RECORD_SCHEMA;
  /** ISO-8601 UTC, when the CLI received the answer. */
  stored_at: string;
  /** Written by locate ('store'), or rebuilt from an NDJSON line ('ndjson') or a bare body ('response'). */
  origin: 'store' | 'ndjson' | 'response';
  cli?: { version: string; base_url: string };
  /**
   * accountFingerprint of the key that paid (never the key). Only records with the caller's own
   * account are reused (reuse.ts); records written before it existed have none and are not reused.
   */
  account?: string;
  input: { path: string; sha256: string; size?: number; mime?: string };
  /** The request body without image_b64 (see requestParams in store.ts). */
  request?: Record<string, unknown>;
  response: { status?: number; body: ResultBody; raw?: string };
  headers?: { idempotent_replayed: boolean; request_id?: string; rate_limit: Record<string, string> };
  idempotency_key?: string;
  timing?: { elapsed_ms?: number; attempts?: number; server_timing_ms?: number };
  /** The corroboration block (locate's NDJSON `exif`). */
  exif?: Corroboration;
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Enough of a geolocate body to place it on a map. */
export function isResultBody(v: unknown): v is ResultBody {
  if (typeof v !== 'object' || v === null) return false;
  const loc = (v as { location?: { latitude?: unknown; longitude?: unknown } }).location;
  return typeof loc === 'object' && loc !== null && finite(loc.latitude) && finite(loc.longitude) && Math.abs(loc.latitude) <= 90 && Math.abs(loc.longitude) <= 180;
}
