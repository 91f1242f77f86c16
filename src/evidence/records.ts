/**
 * Provenance records: every successful result, kept locally so an analyst can say later
 * exactly what was sent, what came back, when, from which server and with which CLI. They live in
 * the store (src/store/, one SQLite database); this file builds them.
 *
 * Never stored: the API key (not in the request body at all) and the image bytes (image_b64 is
 * replaced by its length; the sha256 names the image).
 */
import { rawB64 } from '../api/decode.js';
import type { Corroboration } from './corroborate.js';
import type { SentImage } from '../image/without-metadata.js';
import { sha256Hex } from './custody.js';
import { type FetchedFrom, type ProvenanceRecord, type RecordOrigin, type ResultBody, RECORD_SCHEMA } from './record-types.js';
import { headersSaySandbox } from './simulated.js';

export { type FetchedFrom, type ProvenanceRecord, type RecordOrigin, type ResultBody, RECORD_SCHEMA, asResultBody, isResultBody } from './record-types.js';
export { parseNdjsonResults, readNdjsonResults } from './records-ndjson.js';

/** What client.ts's ApiResponse carries that a record needs (structural, so no import of api/). */
export interface ApiResponseLike {
  data: unknown;
  raw: string;
  /** The bytes as received (the key masked), when known: kept as raw_b64 where `raw` does not give them back. */
  rawBytes?: Buffer;
  /** The key was masked out of the body (api/secret.ts): the sha256 of the bytes as received. */
  receivedSha256?: string;
  status: number;
  headers: Record<string, string>;
  replayed: boolean;
  requestId?: string;
  idempotencyKey?: string;
  attempts?: number;
  elapsedMs?: number;
}

export interface BuildRecordArgs {
  input: { path: string; sha256: string; size?: number; mime?: string };
  /** The input was a URL geo fetched itself: how (record-types.ts). */
  fetched?: FetchedFrom;
  /** The geolocate request body as sent (image_b64 is dropped here). */
  request: Record<string, unknown>;
  response: ApiResponseLike;
  baseUrl: string;
  /** accountFingerprint of the key that paid; absent when unknown. */
  account?: string;
  cliVersion: string;
  exif?: Corroboration;
  /** ms since epoch (ctx.now()). */
  now: number;
  /** How the answer deviated from the contract (kept beside the raw body). */
  deviations?: string[];
  /** Why the answer is not a usable result (the record is kept all the same). */
  unusable?: string;
  /** The bytes that went out (without-metadata.ts). */
  sent?: SentImage;
  /** A video's frame, or a photo of a set. */
  origin?: RecordOrigin;
}

const RATE_HEADER = /^(x-)?ratelimit(-|$)|^retry-after$/;

/** Request parameters worth keeping: everything but the image bytes and anything key-like. */
export function requestParams(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (k === 'image_b64') out.image_b64_chars = typeof v === 'string' ? v.length : undefined;
    else if (!/key|token|secret|authorization/i.test(k)) out[k] = v;
  }
  return out;
}

/** A masked answer says so, with the sha256 of the bytes as received beside that of the bytes as kept. */
function maskedOf(r: ApiResponseLike): { masked?: true; received_sha256?: string; sha256?: string } {
  if (r.receivedSha256 === undefined) return {};
  return { masked: true, received_sha256: r.receivedSha256, sha256: sha256Hex(r.rawBytes ?? Buffer.from(r.raw, 'utf8')) };
}

/** raw_b64 when the text alone does not give the bytes back (the same rule as the journal's: api/decode.ts). */
function rawB64Of(r: ApiResponseLike): { raw_b64?: string } {
  const b64 = rawB64(r.raw, r.rawBytes);
  return b64 ? { raw_b64: b64 } : {};
}

export function buildRecord(a: BuildRecordArgs): ProvenanceRecord {
  const h = a.response.headers;
  const rate: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (RATE_HEADER.test(k.toLowerCase())) rate[k.toLowerCase()] = v;
  const body = a.response.data as ResultBody;
  return {
    schema: RECORD_SCHEMA,
    stored_at: new Date(a.now).toISOString(),
    origin: 'store',
    cli: { version: a.cliVersion, base_url: a.baseUrl },
    ...(a.account !== undefined ? { account: a.account } : {}),
    input: a.input,
    ...(a.fetched ? { fetched: a.fetched } : {}),
    ...(a.sent ? { sent: a.sent } : {}),
    request: requestParams(a.request),
    response: { status: a.response.status, body, raw: a.response.raw, ...rawB64Of(a.response), ...(a.deviations?.length ? { deviations: a.deviations } : {}), ...maskedOf(a.response) },
    headers: {
      idempotent_replayed: a.response.replayed,
      ...(a.response.requestId ? { request_id: a.response.requestId } : {}),
      rate_limit: rate,
    },
    ...(a.response.idempotencyKey ? { idempotency_key: a.response.idempotencyKey } : {}),
    timing: { elapsed_ms: a.response.elapsedMs, attempts: a.response.attempts, ...(typeof body?.timing_ms === 'number' ? { server_timing_ms: body.timing_ms } : {}) },
    ...(a.exif ? { exif: a.exif } : {}),
    ...(a.unusable ? { unusable: a.unusable } : {}),
    ...(a.origin ?? {}),
    // The sandbox's header, not the base URL, says a sandbox answered (simulated.ts).
    ...(headersSaySandbox(h) ? { sandbox: true } : {}),
  };
}
