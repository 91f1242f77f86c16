/**
 * Provenance records (issue 6): every successful result, kept locally so an analyst can say later
 * exactly what was sent, what came back, when, from which server and with which CLI.
 *
 * Layout: one JSON file per result, <dataDir>/results/<sha256>/<UTC stamp>-<analysis id or
 * idempotency key>.json. One file each (not one growing NDJSON) because a record is written once
 * and never edited: concurrent batch workers cannot interleave lines, a crash cannot corrupt older
 * records, and "all runs of this image" is one directory listing. Files 0600, folders 0700: the
 * records hold what the user photographed and where.
 *
 * Never stored: the API key (not in the request body at all) and the image bytes (image_b64 is
 * replaced by its length; the sha256 names the image).
 */
import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { rawB64 } from '../api/decode.js';
import type { Corroboration } from './corroborate.js';
import type { SentImage } from './without-metadata.js';
import { type ProvenanceRecord, type ResultBody, RECORD_SCHEMA, isResultBody } from './store-types.js';

export { type ProvenanceRecord, type ResultBody, RECORD_SCHEMA, asResultBody, isResultBody } from './store-types.js';
export { parseNdjsonResults, readNdjsonResults } from './store-ndjson.js';

/** What client.ts's ApiResponse carries that a record needs (structural, so no import of api/). */
export interface ApiResponseLike {
  data: unknown;
  raw: string;
  /** The bytes as received, when known: kept as raw_b64 where `raw` does not give them back. */
  rawBytes?: Buffer;
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
    ...(a.sent ? { sent: a.sent } : {}),
    request: requestParams(a.request),
    response: { status: a.response.status, body, raw: a.response.raw, ...rawB64Of(a.response), ...(a.deviations?.length ? { deviations: a.deviations } : {}) },
    headers: {
      idempotent_replayed: a.response.replayed,
      ...(a.response.requestId ? { request_id: a.response.requestId } : {}),
      rate_limit: rate,
    },
    ...(a.response.idempotencyKey ? { idempotency_key: a.response.idempotencyKey } : {}),
    timing: { elapsed_ms: a.response.elapsedMs, attempts: a.response.attempts, ...(typeof body?.timing_ms === 'number' ? { server_timing_ms: body.timing_ms } : {}) },
    ...(a.exif ? { exif: a.exif } : {}),
    ...(a.unusable ? { unusable: a.unusable } : {}),
  };
}

/** <dataDir>/results: pass dataDir(env) from config/paths.ts. */
export function resultsDir(dataDirPath: string): string {
  return join(dataDirPath, 'results');
}

/** A results folder's name: a lowercase sha256. */
export const SHA = /^[0-9a-f]{64}$/;
const fileSafe = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80);

async function ensureDir(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: 0o700 });
  // mkdir's mode is filtered by the umask and ignored for folders that exist: enforce it.
  await chmod(path, 0o700);
}

/** Writes one record; returns its path. `dataDirPath` is dataDir(env). */
export async function saveRecord(dataDirPath: string, rec: ProvenanceRecord): Promise<string> {
  const sha = rec.input.sha256.toLowerCase();
  if (!SHA.test(sha)) throw new Error(`not a sha256: ${rec.input.sha256}`);
  const root = resultsDir(dataDirPath);
  await ensureDir(dataDirPath);
  await ensureDir(root);
  const folder = join(root, sha);
  await ensureDir(folder);
  // 2025-05-14T18:32:07.123Z -> 20250514T183207.123Z: sorts by time, no ':' (Windows, scp).
  const stamp = fileSafe(rec.stored_at.replace(/[-:]/g, ''));
  // analysis_id is whatever the server sent (a number, null, absent): only a string names the file.
  const aid = rec.response.body?.analysis_id;
  const id = fileSafe(typeof aid === 'string' && aid !== '' ? aid : (rec.idempotency_key ?? 'result'));
  const text = JSON.stringify(rec, null, 2) + '\n';
  // 'wx' never overwrites a record: a same-millisecond twin gets a suffix instead.
  for (let n = 0; ; n++) {
    const file = join(folder, `${stamp}-${id}${n ? `-${n}` : ''}.json`);
    try {
      await writeFile(file, text, { mode: 0o600, flag: 'wx' });
      return file;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || n > 100) throw e;
    }
  }
}

export interface RecordFilter {
  /** Full sha256 or a prefix (at least 4 hex digits). */
  sha256?: string;
  analysisId?: string;
  all?: boolean;
}

/** Records matching the filter, oldest first. Unreadable files are reported, not fatal. */
export async function listRecords(dataDirPath: string, filter: RecordFilter, onProblem?: (file: string, why: string) => void): Promise<ProvenanceRecord[]> {
  const root = resultsDir(dataDirPath);
  let folders: string[];
  try {
    folders = (await readdir(root)).filter((f) => SHA.test(f));
  } catch {
    return [];
  }
  const prefix = filter.sha256?.toLowerCase();
  if (prefix) folders = folders.filter((f) => f.startsWith(prefix));
  else if (!filter.all && !filter.analysisId) return [];
  const out: ProvenanceRecord[] = [];
  for (const folder of folders.sort()) {
    for (const name of (await readdir(join(root, folder))).filter((n) => n.endsWith('.json')).sort()) {
      const file = join(root, folder, name);
      try {
        const rec = JSON.parse(await readFile(file, 'utf8')) as ProvenanceRecord;
        // A paid answer without usable coordinates is kept on disk, not offered as a result.
        if (rec?.schema === RECORD_SCHEMA && typeof rec.unusable === 'string') continue;
        if (rec?.schema !== RECORD_SCHEMA || !isResultBody(rec.response?.body)) throw new Error('not a geo provenance record');
        if (filter.analysisId && rec.response.body.analysis_id !== filter.analysisId) continue;
        out.push(rec);
      } catch (e) {
        onProblem?.(file, e instanceof Error ? e.message : String(e));
      }
    }
  }
  return out.sort((a, b) => a.stored_at.localeCompare(b.stored_at));
}
