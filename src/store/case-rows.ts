/**
 * Cases and the timestamps of their custody heads, in the shapes the store's interface (api.ts)
 * gives and takes them: each engine (sqlite/, postgres/) reads its own tables into these, so the
 * interface owns them.
 */
import type { CaseRowFacts } from '../evidence/case-vouch.js';
import type { ResultRow, StoredResult } from './result-rows.js';

/** The facts a view shows (`service`: the service the case was also created on, `service_id` its id there), and the store's own. */
export interface CaseRow extends CaseRowFacts {
  /** Why the case is local only although geo tried the service (unreachable, outcome unknown). */
  service_note: string | null;
  /** The custody log's length and last hash as of the last append (what verify pins the log to). */
  custody_entries: number;
  custody_head: string | null;
  /** Results linked to it (listCases, findCases). */
  results: number;
}

export type NewCase = Pick<CaseRow, 'id' | 'name' | 'description' | 'team' | 'created_at' | 'service' | 'service_id' | 'service_note'>;

/** A result as a case lists it: the history columns, its row id, and when it was linked (store time, not the log's). */
export type CaseResultRow = ResultRow & { linked_at: string };

/**
 * A result linked to a case: whole (its record with the raw answer), the columns the store files
 * it under, its body column as stored, and when it was linked. Everything a view could take from
 * the store, so that `geo cases verify` holds each to the custody log and the views
 * need not take any of it on trust.
 */
export interface CaseLinked {
  stored: StoredResult;
  columns: CaseResultRow;
  /** The results.body column: the parsed body, kept only when geo read it differently from the raw text. */
  body: string | null;
}

export type TimestampState = 'pending' | 'stamped' | 'failed';

export interface TimestampRow {
  id: number;
  case_id: string;
  /** The custody head stamped: lowercase hex SHA-256, the token's message imprint. */
  head: string;
  /** The custody entry whose hash the head is (its seq), when known. */
  seq: number | null;
  /** The TSA's URL (evidence/tsa-url.ts checked it). */
  tsa: string;
  state: TimestampState;
  /** When it was asked for (ISO-8601 UTC), whether or not it could be sent then. */
  requested_at: string;
  /** How many times it was sent (or tried): an unreachable TSA adds one and keeps it pending. */
  attempts: number;
  /** Why the last attempt did not stamp (unreachable, refused, a reply that did not hold). */
  last_error: string | null;
  /** stamped: the TSA's reply (TimeStampResp DER) exactly as received. */
  reply: Buffer | null;
  /** stamped: the certificates kept beside the reply (PEM): the token's own, and the CA trusted. */
  ca_pem: string | null;
  /** stamped: the token's genTime (ISO-8601 UTC), what the TSA vouches for. */
  gen_time: string | null;
  /** stamped: when the reply came (this machine's clock). */
  stamped_at: string | null;
}

export interface NewTimestamp {
  caseId: string;
  head: string;
  seq?: number;
  tsa: string;
}

export interface StampedReply {
  reply: Buffer;
  caPem: string;
  genTime: string;
}
