/**
 * The batch journal's NDJSON format, one line per event (what `--journal FILE` writes and
 * `--resume FILE` reads; journals of geo before the SQLite store are imported from it too):
 *
 *   {"t":"head","v":1,"params":{...},"args":[...],"cwd":"...","baseUrl":"...","account":"<fingerprint>","created":"..."}
 *   {"t":"send","id":"<sha256|url:...>","key":"<Idempotency-Key>","input":"a.jpg","at":"..."}   BEFORE the request
 *   {"t":"done","id":"...","key":"...","ok":true,"result":{...},"raw":"...","status":200,"credits":1,"at":"..."}   after the answer
 *   {"t":"done","id":"...","key":"...","ok":false,"error":{"code","message","status","final"},"raw":"...","status":200,"credits":1}
 *
 * `raw` is the body text as received, for every 2xx (and an unreadable one). A paid answer
 * without usable coordinates is a final failure (code `unusable_answer`) that keeps its raw body.
 * A torn last line (a crash mid-write) and damaged lines are counted, never fatal.
 */

/** One failure as the journal records it. `final`: resending cannot change it. */
export interface JournalError {
  code: string;
  message: string;
  status?: number;
  final: boolean;
}

/** The command that wrote the journal, so `--resume FILE` alone can run it again. */
export interface HeadLine {
  t: 'head';
  v: 1;
  params: Record<string, unknown>;
  args: string[];
  fromFile?: string;
  cwd: string;
  baseUrl: string;
  /**
   * accountFingerprint of the key that wrote it (never the key): answers are re-emitted only for
   * the same account (account.ts). Absent in journals written before geo recorded it.
   */
  account?: string;
  /**
   * 'removed' when the images went out without their metadata. Absent: sent as they
   * are (--keep-metadata, or a journal from before geo removed metadata). A journal's keys must be
   * resent with the same bytes, so one journal never mixes the two.
   */
  metadata?: 'removed';
  /**
   * How its URL inputs were read: 'geo' fetched them and sent their bytes, 'service' sent image_url
   * (--service-fetch). Absent: no URL among its inputs, or a journal from before geo fetched URLs
   * (the service fetched them then). A resumed batch reads its URLs the same way again.
   */
  fetch?: 'geo' | 'service';
  created: string;
  /** A --fresh run: answers stored before this time are not this batch's (ISO-8601). */
  fresh_since?: string;
}
export interface SendLine {
  t: 'send';
  id: string;
  key: string;
  input: string;
  at: string;
}
/** What the answer itself was, when one arrived. */
interface Answered {
  raw?: string;
  /** The bytes as base64 when `raw` alone does not give them back (not UTF-8, a BOM). */
  raw_b64?: string;
  status?: number;
  deviations?: string[];
}
export type DoneLine =
  | ({ t: 'done'; id: string; key: string; ok: true; result: unknown; credits: number; replayed?: boolean; at: string } & Answered)
  | ({ t: 'done'; id: string; key: string; ok: false; error: JournalError; credits?: number; at: string } & Answered);
export type JournalLine = HeadLine | SendLine | DoneLine;

export interface JournalState {
  head?: HeadLine;
  /** id -> the idempotency key it was (or is about to be) sent with. */
  keys: Map<string, string>;
  /** id -> its latest outcome. */
  done: Map<string, DoneLine>;
  /** Lines that did not parse (a torn tail, or damage): ignored, never fatal. */
  skippedLines: number;
  /** Byte length of the intact prefix (everything up to the last newline). */
  intactBytes: number;
}

/** Finished = nothing left to send: a success, or a failure that would fail the same way again. */
export function isFinished(d: DoneLine | undefined): boolean {
  return d !== undefined && (d.ok || d.error.final);
}

export function parseJournal(text: string): JournalState {
  const state: JournalState = { keys: new Map(), done: new Map(), skippedLines: 0, intactBytes: 0 };
  const lastNl = text.lastIndexOf('\n');
  const intact = lastNl < 0 ? '' : text.slice(0, lastNl + 1);
  state.intactBytes = Buffer.byteLength(intact, 'utf8');
  if (text.length > intact.length) state.skippedLines++; // the torn tail
  for (const line of intact.split('\n')) {
    if (line.trim() === '') continue;
    let v: JournalLine;
    try {
      v = JSON.parse(line) as JournalLine;
    } catch {
      state.skippedLines++;
      continue;
    }
    if (v?.t === 'head' && !state.head) state.head = v;
    else if (v?.t === 'send' && typeof v.id === 'string' && typeof v.key === 'string') state.keys.set(v.id, v.key);
    else if (v?.t === 'done' && typeof v.id === 'string') {
      // A later failure never hides an earlier success (cannot happen by construction, but cheap).
      if (!state.done.get(v.id)?.ok) state.done.set(v.id, v);
      if (typeof v.key === 'string' && !state.keys.has(v.id)) state.keys.set(v.id, v.key);
    } else state.skippedLines++;
  }
  return state;
}
