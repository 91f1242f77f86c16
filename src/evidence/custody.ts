/**
 * The custody log's format: one entry per event that touches a case, each
 * sealed to the one before it by sha256, so that altering, removing or reordering any entry breaks
 * the chain. Pure code: storage is custody-log.ts's interface, verification custody-verify.ts.
 *
 * An entry is a JSON object:
 *   schema "geo.custody/1", case (the case id), seq (1, 2, ...), at (ISO-8601 UTC),
 *   user, host (the OS user and host name), geo (geo's version),
 *   role (on a team store only: the database role its server authenticated, which the server
 *   checks is the role that appends the entry: store/postgres/schema-roles.ts),
 *   event (one of CustodyEvents' names), data (that event's fields),
 *   prev (the previous entry's hash; 64 zeros for seq 1), hash.
 * hash = sha256, in lowercase hex, of the entry's canonical JSON (canonical-json.ts: RFC 8785,
 * keys sorted, no whitespace) without its `hash` member. An entry is stored, and written to a
 * bundle's custody.jsonl, as its canonical JSON with `hash`, one per line.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
import type { C2paRecord } from '../image/embedded.js';
import type { MemberLabel } from './bundle-format.js';
import type { FetchedFrom } from './record-types.js';
import type { CopyLinked } from './copy-events.js';
import type { InvestigationEvents } from './investigation-events.js';

export const CUSTODY_SCHEMA = 'geo.custody/1';
/** The `prev` of a case's first entry. */
export const GENESIS = '0'.repeat(64);

/** What each event records. Sizes are bytes; every sha256 is lowercase hex. */
export interface CustodyEvents extends InvestigationEvents {
  /** The case, as geo records it locally; `service` and `service_id`: the service it was also created on, and its id there. */
  case_created: { case: { id: string; name: string; description?: string; team?: string; service?: string; service_id?: string; note?: string } };
  /**
   * An original file as read: its path as given, its sha256 and size; and what it said about itself
   * before geo stripped it for the upload (batch/embedded.ts keeps it in the store):
   * `metadata_json`, its metadata record (image/metadata.ts: every tag as `exiftool -j -n` prints
   * it) as JSON text, text and not an object so that the entry hashes the same in every language
   * (a float such as 6.25e-05 is written 0.0000625 by JavaScript and 6.25e-05 by Python); `c2pa`,
   * its C2PA content credentials' summary (image/c2pa.ts; {"present": false} without any). Both
   * absent when geo kept none: a video (its frames are geo's own), a URL the service fetched
   * (--service-fetch), --no-store, a result stored before geo kept them.
   * `fetched`: the input was a URL geo fetched itself (record-types.ts FetchedFrom): `path` is then
   * the URL as given, and `fetched` each redirect, the final URL, when, the answer's status, type,
   * length, ETag and Last-Modified, and the sha256 of the bytes as received (the input's sha256).
   * `pdq`: its perceptual hash (image/pdq.ts: 64 hex digits, and PDQ's quality 0-100), by which its
   * copies are found; absent when geo has none (the same cases, and an image sharp could not decode).
   */
  input_hashed: { input: { path: string; sha256: string; size: number }; metadata_json?: string; c2pa?: C2paRecord; fetched?: FetchedFrom; pdq?: { hash: string; quality: number } };
  /**
   * What was sent: the sha256 and size of the bytes after metadata removal, and the request fields
   * (no image). A URL the service fetched (--service-fetch) has no sha256 or size (`fields.image_url` names it).
   */
  request_sent: { request: { input_sha256: string; sha256?: string; size?: number; fields: Record<string, unknown>; service: string; idempotency_key: string } };
  /**
   * A request that went out and ended without an answer to keep (an error status after its
   * retries, a dropped connection, a timeout): the input as given (null sha256 for a URL), the
   * service, the Idempotency-Key a rerun sends again, the last status (null: none came) and the
   * error. The image left this machine even so; a rerun that is answered adds request_sent.
   */
  request_failed: { failure: { input: string; input_sha256: string | null; service: string; idempotency_key: string; status: number | null; code: string; message: string; request_id?: string } };
  /**
   * The answer: sha256 and size of the raw body as received, the service origin, the analysis id.
   * `stored_at`: the answer was received earlier and taken from the store (a result already paid for,
   * linked with `geo cases link` or reused by a run with --case); absent when it arrived just now.
   * `masked`: the server echoed the API key, which geo masked before keeping the answer; `sha256`
   * and `size` are then those of the bytes kept (what the store and a bundle hold), and
   * `received_sha256` that of the bytes as they came.
   */
  answer_received: {
    answer: { sha256: string; size: number; status: number; service: string; analysis_id: string | null; request_id?: string; sandbox: boolean; stored_at?: string; masked?: true; received_sha256?: string };
  };
  /**
   * A result (an answer to an input) linked to the case: the pair it binds, input sha256 <-> answer
   * sha256. Since also what the result is shown with that its answer cannot say: the input
   * as the record names it (`input_path`: a file, `clip.mp4#t=2.000` for a frame, `-`, a URL), and
   * the service and sandbox flag of its answer_received entry (the latest before it with that
   * answer's sha256), which verification holds them to. Entries from before lack the three.
   */
  result_linked: { result: { input_sha256: string; answer_sha256: string; analysis_id: string | null; input_path?: string; service?: string; sandbox?: boolean } };
  /**
   * A copy of a photo located before, met by a run with --case (copy-events.ts): both images'
   * sha256 and perceptual hashes, the bits between them, and whether the earlier answer was reused
   * or the copy's own was paid for. Appended after the entries of the answer it concerns.
   */
  copy_linked: CopyLinked;
  /** An export or report file written: its format, path, sha256 and size. */
  file_written: { file: { kind: 'report' | 'export'; format: string; path: string; sha256: string; size: number } };
  /**
   * A bundle's contents, appended just before its custody.jsonl is written, so the log
   * the bundle carries ends with this entry and its head commits to every other member: each
   * member's path, sha256 and size (all but custody.jsonl and manifest.json, sorted by path), its
   * results (as the manifest lists them), whether originals are in it, and what each image in it is
   * (`labels`: original, working copy, exhibit; absent when it holds none). The manifest's
   * custody head is this entry's hash, its created_at this entry's `at`, its geo_version `geo`.
   */
  bundle_sealed: { bundle: { members: Array<{ path: string; sha256: string; size: number }>; results: Array<{ record: string; answer: string; answer_sha256: string; input_sha256: string; analysis_id: string | null }>; originals: boolean; labels?: MemberLabel[] } };
  /**
   * A claim checked: the claim (the image as named and its sha256, where it is said to
   * have been taken), its tolerance, the verdict, the rule that fired, and the sha256 of the raw
   * answer it was judged on (null when the image got none), plus the scoped answer's with --scoped.
   */
  claim_checked: { claim: { input: string; input_sha256: string | null; at: string; lat: number; lng: number; place: string | null }; tolerance_km: number; verdict: 'agrees' | 'contradicts' | 'unverifiable'; rule: string; answer_sha256: string | null; scoped_answer_sha256?: string };
  /** A bundle made (appended after it was written: a bundle cannot hold its own hash). */
  bundle_made: { bundle: { path: string; sha256: string; size: number; manifest_sha256: string; entries: number; head: string; originals: boolean } };
  /**
   * A signature over the head as it was at entry `seq` (custody-sign.ts): the armored
   * SSHSIG (namespace geo-custody) of the message `geo-custody/1 case=<id> seq=<seq> head=<head>\n`,
   * the signer's key (its OpenSSH line and fingerprint) and the principal it signs as. Appended
   * right after the entries it covers; a later entry needs a later signature.
   */
  head_signed: { signature: { seq: number; head: string; sshsig: string; fingerprint: string; public_key: string; principal?: string } };
  /**
   * A trusted timestamp (RFC 3161) of the head as it was at entry `seq` (custody-stamps.ts):
   * the TSA's URL, its genTime, the sha256 of its reply as kept (the store's timestamps table, a
   * bundle's timestamps/), and the sha256 of the DER of the CA certificate pinned for it at stamp time.
   */
  head_stamped: { stamp: { seq: number; head: string; tsa: string; gen_time: string; token_sha256: string; ca_sha256: string } };
}

export type CustodyEventName = keyof CustodyEvents;
export const CUSTODY_EVENTS: readonly CustodyEventName[] = ['case_created', 'input_hashed', 'request_sent', 'request_failed', 'answer_received', 'result_linked', 'file_written', 'bundle_sealed', 'bundle_made', 'head_signed', 'head_stamped', 'claim_checked', 'copy_linked', 'note_made', 'place_ruled_out', 'conclusion_made', 'clue_judged', 'working_copy_made', 'review_made'];

/** One event to append, typed by its name. */
export type CustodyEvent = { [K in CustodyEventName]: { event: K; data: CustodyEvents[K] } }[CustodyEventName];

/**
 * Who appends: the OS user, the host name and geo's version, and the fingerprint of the signing key
 * chosen then (geo keys signing use), when one is: on a team store several analysts append to one
 * case, and each entry names who did.
 */
export interface Actor {
  /** The team store's database role, as its server said in the appending transaction. */
  role?: string;
  user: string;
  host: string;
  geo: string;
  key?: string;
}

export interface CustodyEntry {
  schema: typeof CUSTODY_SCHEMA;
  case: string;
  seq: number;
  at: string;
  user: string;
  host: string;
  geo: string;
  /** The chosen signing key's fingerprint ("SHA256:…"), absent when none was chosen. */
  key?: string;
  /** The team store's database role that appended it (absent on the local file). */
  role?: string;
  event: CustodyEventName;
  data: Record<string, unknown>;
  prev: string;
  hash: string;
}

export const sha256Hex = (bytes: string | Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** The hash an entry must carry: sha256 of its canonical JSON without `hash`. */
export function entryHash(entry: Omit<CustodyEntry, 'hash'> | CustodyEntry): string {
  const { hash: _ignored, ...rest } = entry as CustodyEntry;
  return sha256Hex(canonicalJson(rest));
}

/** The next entry of a case after `last` (undefined for a new case, whose first event must be case_created). */
export function sealEntry(last: CustodyEntry | undefined, caseId: string, ev: CustodyEvent, actor: Actor, at: Date): CustodyEntry {
  if (!last && ev.event !== 'case_created') throw new Error(`custody: the first entry of case ${caseId} must be case_created, not ${ev.event}`);
  if (last && last.case !== caseId) throw new Error(`custody: entry of case ${last.case} given as the last of case ${caseId}`);
  const entry: Omit<CustodyEntry, 'hash'> = {
    schema: CUSTODY_SCHEMA,
    case: caseId,
    seq: last ? last.seq + 1 : 1,
    at: at.toISOString(),
    user: actor.user,
    host: actor.host,
    geo: actor.geo,
    ...(actor.key ? { key: actor.key } : {}),
    ...(actor.role !== undefined ? { role: actor.role } : {}),
    event: ev.event,
    data: ev.data as unknown as Record<string, unknown>,
    prev: last ? last.hash : GENESIS,
  };
  return { ...entry, hash: entryHash(entry) };
}

/** An entry as stored: its canonical JSON, hash included, on one line. */
export function serializeEntry(entry: CustodyEntry): string {
  return canonicalJson(entry);
}

const HEX64 = /^[0-9a-f]{64}$/;

/** Why a parsed value is not a custody entry, or undefined when it is one (the shape only; the hash is checked apart). */
export function entryShapeProblem(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not a JSON object';
  const e = v as Record<string, unknown>;
  if (e.schema !== CUSTODY_SCHEMA) return `schema is not ${CUSTODY_SCHEMA}`;
  for (const k of ['case', 'at', 'user', 'host', 'geo'] as const) if (typeof e[k] !== 'string') return `${k} is not a string`;
  if (e.key !== undefined && typeof e.key !== 'string') return 'key is not a string';
  if (e.role !== undefined && typeof e.role !== 'string') return 'role is not a string';
  if (!Number.isInteger(e.seq) || (e.seq as number) < 1) return 'seq is not a positive whole number';
  if (!CUSTODY_EVENTS.includes(e.event as CustodyEventName)) return `unknown event ${JSON.stringify(e.event)}`;
  if (typeof e.data !== 'object' || e.data === null || Array.isArray(e.data)) return 'data is not an object';
  if (typeof e.prev !== 'string' || !HEX64.test(e.prev)) return 'prev is not a sha256';
  if (typeof e.hash !== 'string' || !HEX64.test(e.hash)) return 'hash is not a sha256';
  return undefined;
}

/** A stored line back to an entry; throws with the reason when it is not one. */
export function parseEntry(line: string): CustodyEntry {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    throw new Error('not valid JSON');
  }
  const problem = entryShapeProblem(v);
  if (problem) throw new Error(problem);
  return v as CustodyEntry;
}
