/** The provenance record shape (records.ts writes it, records-ndjson.ts rebuilds it, exports read it). */
import type { GeolocateResponse } from '../api/schemas.js';
import type { Corroboration } from './corroborate.js';
import type { SentImage } from '../image/without-metadata.js';
import type { ReusedSimilar } from './copy-events.js';

export const RECORD_SCHEMA = 'geo.provenance/1';

/**
 * The geolocate body. It passed the client's schema when received, but records are files anyone
 * can edit and NDJSON may come from elsewhere: readers check isResultBody() and treat the arrays
 * and optional objects as possibly absent.
 */
export type ResultBody = GeolocateResponse;

/** A frame of a video: which video (its path as given and sha256), when, which frame. */
export interface VideoOrigin {
  path: string;
  sha256: string;
  t_ms: number;
  index: number;
  /**
   * Why it was taken, the stretches of the clip it stands for ([from, to) ms) and the clip's length:
   * what `geo history show` and `geo export` need to give the consensus locate gave, time ranges
   * included. Absent in records written before geo kept them.
   */
  why?: 'first' | 'cut' | 'interval';
  spans_ms?: Array<[number, number]>;
  duration_ms?: number;
}

/** A photo located with others as one scene (`geo locate … --together`). */
export interface SetOrigin {
  /** `set-` and 16 hex digits of the sha256 over the photos' sorted sha256s: the same photos, the same set. */
  id: string;
  index: number;
  size: number;
}

/**
 * A photo geo fetched from the web itself (an https URL input): the URL as given, every redirect it
 * followed (the URL asked, the status, the Location header as sent), the URL the bytes came from,
 * when, and what that last answer said of them; `sha256` and `size` are those of the bytes as
 * received, before anything was done to them. Headers the host did not send are absent.
 */
export interface FetchedFrom {
  url: string;
  redirects: Array<{ url: string; status: number; location: string }>;
  final_url: string;
  /** ISO-8601 UTC, when the last answer's headers arrived. */
  retrieved_at: string;
  status: number;
  content_type?: string;
  /** The Content-Length header as a number of bytes (absent when the host sent none). */
  content_length?: number;
  etag?: string;
  last_modified?: string;
  sha256: string;
  size: number;
}

/** Where an image came from when it is part of something larger; provenance records carry it. */
export type RecordOrigin = { video: VideoOrigin } | { set: SetOrigin };

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
  /** The file: its path as given and the sha256 of its bytes (results are filed and reused by it). */
  input: { path: string; sha256: string; size?: number; mime?: string };
  /** The input was a URL geo fetched itself: each hop, when, and the sha256 of the bytes as received. */
  fetched?: FetchedFrom;
  /**
   * The bytes that went out when they differ from the file's or were kept on purpose:
   * their sha256 and size, and which metadata was removed. Absent in records written before geo
   * removed metadata, and for URLs.
   */
  sent?: SentImage;
  /** The request body without image_b64 (see requestParams in records.ts). */
  request?: Record<string, unknown>;
  /**
   * `body` is a usable result unless `unusable` says why not; `raw` is the text as received, and
   * `raw_b64` its bytes when the text alone does not give them back (not UTF-8, a BOM).
   * `masked`: the server echoed the API key and geo masked it (api/mask.ts) before keeping the
   * answer; `received_sha256` is then the sha256 of the bytes as received, `sha256` that of the
   * bytes as kept (`raw`, the store's BLOB, a bundle's answer: what custody logs and verifies).
   */
  response: { status?: number; body: ResultBody; raw?: string; raw_b64?: string; deviations?: string[]; masked?: true; received_sha256?: string; sha256?: string };
  headers?: { idempotent_replayed: boolean; request_id?: string; rate_limit: Record<string, string> };
  idempotency_key?: string;
  timing?: { elapsed_ms?: number; attempts?: number; server_timing_ms?: number };
  /** The corroboration block (locate's NDJSON `exif`). */
  exif?: Corroboration;
  /** The image is a frame of this video; `input.path` is then `<video>#t=<seconds>`. */
  video?: VideoOrigin;
  /** The image was located together with others as one scene (--together). */
  set?: SetOrigin;
  /**
   * Set when the paid answer had no usable coordinates: the record keeps it (raw body included),
   * and readers that need a place (exports, look-ups) skip it.
   */
  unusable?: string;
  /**
   * A copy's record of the answer it took from an earlier result instead of paying (geo locate
   * --reuse-similar; copy-events.ts): that result, its analysis id, the sha256 of its input and the
   * distance. The stored row holds no answer of its own (it points there, and is `unusable`); a
   * record shown or exported for it carries that result's answer with this mark.
   */
  reused_similar?: ReusedSimilar;
  /**
   * Answered by a geo sandbox (simulated, never evidence; evidence/simulated.ts): set from its
   * response header when the answer came, and by the store on every record it reads back.
   */
  sandbox?: boolean;
}

/** A coordinate within ±max; with `lenient`, a numeric string is read as its number. */
function coordinate(v: unknown, max: number, lenient: boolean): number | undefined {
  const n = typeof v === 'number' ? v : lenient && typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) && Math.abs(n) <= max ? n : undefined;
}

function locationOf(v: unknown): { latitude?: unknown; longitude?: unknown } | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const loc = (v as { location?: unknown }).location;
  return typeof loc === 'object' && loc !== null ? (loc as { latitude?: unknown; longitude?: unknown }) : undefined;
}

/**
 * What geo needs of a geolocate body, the one place that says it: coordinates it can put on a map
 * (finite, latitude within ±90, longitude within ±180). Everything else is shown as received.
 */
export function isResultBody(v: unknown): v is ResultBody {
  const loc = locationOf(v);
  return loc !== undefined && coordinate(loc.latitude, 90, false) !== undefined && coordinate(loc.longitude, 180, false) !== undefined;
}

/**
 * The body as a usable result, or undefined. Coordinates sent as numeric strings ("48.85") are
 * read as those numbers, in a copy: the same meaning, so the answer is usable; the caller reports
 * the deviation, and the raw body keeps what was sent.
 */
export function asResultBody(v: unknown): ResultBody | undefined {
  if (isResultBody(v)) return v;
  const loc = locationOf(v);
  const latitude = coordinate(loc?.latitude, 90, true);
  const longitude = coordinate(loc?.longitude, 180, true);
  if (latitude === undefined || longitude === undefined) return undefined;
  return { ...(v as ResultBody), location: { ...(loc as ResultBody['location']), latitude, longitude } };
}

/** What the store files a result under (history lists, search, exports ask by these columns). */
export interface ResultColumns {
  analysis_id: string | null;
  depth: number | null;
  city: string | null;
  neighborhood: string | null;
  country: string | null;
  address: string | null;
  latitude: number | null;
  longitude: number | null;
  confidence: number | null;
}

const textOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const finiteOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * The columns of a result, from its body (and the request's depth when the body has none): the one
 * derivation, so the store writes them and `geo cases verify` checks them against the raw answer
 * with the same code.
 */
export function resultColumns(body: unknown, request?: Record<string, unknown>): ResultColumns {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const loc = (typeof b.location === 'object' && b.location !== null ? b.location : {}) as Record<string, unknown>;
  return {
    analysis_id: textOrNull(b.analysis_id), depth: finiteOrNull(b.depth) ?? finiteOrNull(request?.depth),
    city: textOrNull(loc.city), neighborhood: textOrNull(loc.neighborhood), country: textOrNull(loc.country), address: textOrNull(loc.address),
    latitude: finiteOrNull(loc.latitude), longitude: finiteOrNull(loc.longitude), confidence: finiteOrNull(b.confidence),
  };
}
