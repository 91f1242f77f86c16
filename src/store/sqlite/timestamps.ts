/**
 * Trusted timestamps of custody heads (schema.ts migration 3), as the store keeps
 * them. A request is recorded BEFORE anything is sent (queue): offline, it simply stays pending and
 * `geo cases stamp --pending` sends it later (pending), so nothing at run time waits for a TSA. A
 * reply that holds is kept byte for byte with the certificates to check it (stamped); a TSA that
 * refused, or whose reply did not hold, leaves the request failed with the reason (failed).
 * An unreachable TSA only counts an attempt: the request stays pending.
 *
 * One row per (case, head, TSA): asking twice for the same head from the same TSA is one request.
 * Checking a reply is evidence/timestamp.ts's; this file keeps rows.
 */
import { StoreError } from '../../errors.js';
import type { Sql } from './sqlite.js';

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

const COLUMNS = 'id, case_id, head, seq, tsa, state, requested_at, attempts, last_error, reply, ca_pem, gen_time, stamped_at';

export class TimestampStore {
  constructor(
    private readonly sql: Sql,
    private readonly guard: <T>(fn: () => T) => T,
    private readonly now: () => number,
  ) {}

  private iso(): string {
    return new Date(this.now()).toISOString();
  }

  private row(id: number): TimestampRow {
    const r = this.sql.one<TimestampRow>(`SELECT ${COLUMNS} FROM timestamps WHERE id = ?`, id);
    if (!r) throw new StoreError(`no timestamp request ${id} in the store`, 'other');
    return r;
  }

  /**
   * Records a request for a token over `head` from `tsa` (pending), or returns the one already
   * recorded: a failed one is pending again (asked anew), a pending or stamped one is as it was.
   */
  queue(t: NewTimestamp): TimestampRow {
    if (!/^[0-9a-f]{64}$/.test(t.head)) throw new StoreError(`a custody head is 64 lowercase hex digits, not "${t.head.slice(0, 80)}"`, 'other');
    return this.guard(() => this.sql.tx(() => {
      this.sql.run(
        "INSERT INTO timestamps (case_id, head, seq, tsa, state, requested_at) VALUES (?, ?, ?, ?, 'pending', ?) ON CONFLICT (case_id, head, tsa) DO UPDATE SET state = 'pending' WHERE state = 'failed'",
        t.caseId, t.head, t.seq ?? null, t.tsa, this.iso(),
      );
      return this.sql.one<TimestampRow>(`SELECT ${COLUMNS} FROM timestamps WHERE case_id = ? AND head = ? AND tsa = ?`, t.caseId, t.head, t.tsa)!;
    }));
  }

  /** Requests not yet stamped (of one case, or all), oldest first: what `stamp --pending` sends. */
  pending(caseId?: string): TimestampRow[] {
    return this.guard(() => caseId === undefined
      ? this.sql.all<TimestampRow>(`SELECT ${COLUMNS} FROM timestamps WHERE state = 'pending' ORDER BY requested_at, id`)
      : this.sql.all<TimestampRow>(`SELECT ${COLUMNS} FROM timestamps WHERE state = 'pending' AND case_id = ? ORDER BY requested_at, id`, caseId));
  }

  /** Every request of a case (any state), in the order they were made: what verify and bundles read. */
  forCase(caseId: string): TimestampRow[] {
    return this.guard(() => this.sql.all<TimestampRow>(`SELECT ${COLUMNS} FROM timestamps WHERE case_id = ? ORDER BY id`, caseId));
  }

  /**
   * The reply that holds, kept with what checks it. Only a pending request becomes stamped: false
   * when another process stamped it first (its token is kept, this one is not needed).
   */
  stamped(id: number, s: StampedReply): boolean {
    return this.guard(() => this.sql.run(
      "UPDATE timestamps SET state = 'stamped', reply = ?, ca_pem = ?, gen_time = ?, stamped_at = ?, attempts = attempts + 1, last_error = NULL WHERE id = ? AND state = 'pending'",
      s.reply, s.caPem, s.genTime, this.iso(), id,
    ).changes === 1);
  }

  /** The TSA could not be reached (or did not answer in time): still pending, one attempt more. */
  unreachable(id: number, error: string): TimestampRow {
    return this.guard(() => {
      this.sql.run("UPDATE timestamps SET attempts = attempts + 1, last_error = ? WHERE id = ? AND state = 'pending'", error, id);
      return this.row(id);
    });
  }

  /** The TSA refused, or its reply did not hold: failed, with why (queue() asks again). */
  failed(id: number, error: string): TimestampRow {
    return this.guard(() => {
      this.sql.run("UPDATE timestamps SET state = 'failed', attempts = attempts + 1, last_error = ? WHERE id = ? AND state = 'pending'", error, id);
      return this.row(id);
    });
  }
}
