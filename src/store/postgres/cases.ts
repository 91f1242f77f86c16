/**
 * Cases and their custody logs on the team store. Appends from several machines are
 * serialised per case: the case's row is locked (SELECT … FOR UPDATE) before its last line is
 * read, so the next append waits, then reads this one's entry as its last: each log stays one
 * chain whoever appends. PRIMARY KEY (case_id, seq) is the backstop.
 *
 * Who appends is the role the server authenticated, inside the hashed entry: the lock's query
 * also reads session_user, the entry is built with it as `role`, and the server's trigger refuses
 * an entry whose role is not the session_user that inserts it (schema-roles.ts). The entry is
 * hashed and chained by geo, and no client can put another role in it; the server also writes
 * the role into the row's author column, whatever the line says.
 * The OS user and host ride in the entry as details (evidence/custody.ts).
 */
import type { Pool, PoolClient } from 'pg';
import type { CustodyStorage } from '../../evidence/custody-log.js';
import { parseEntry } from '../../evidence/custody.js';
import { StoreError } from '../../errors.js';
import type { CaseApi, CaseLinked, CaseResultRow, CaseRow, NewCase, NewTimestamp, StampedReply, TimestampApi, TimestampRow } from '../api.js';
import { FULL_COLUMNS, type FullRow, LIST_COLUMNS, toStored } from '../sqlite/results.js';
import { inTx } from './driver.js';

type Q = Pick<PoolClient, 'query'>;
type Guard = <T>(fn: () => Promise<T>) => Promise<T>;

const CASE_COLUMNS = 'id, name, description, team, created_at, service, service_id, service_note, custody_entries, custody_head, (SELECT count(*) FROM case_results WHERE case_id = cases.id) AS results';

async function append(c: Q, caseId: string, make: (last: string | undefined, role: string) => string, link?: { resultId: number; at: string }): Promise<string> {
  const locked = (await c.query<{ role: string }>('SELECT session_user AS role FROM cases WHERE id = $1 FOR UPDATE', [caseId])).rows[0];
  if (!locked) throw new StoreError(`no case ${caseId} in the team store`, 'other');
  const last = (await c.query<{ seq: number; line: string }>('SELECT seq, line FROM custody WHERE case_id = $1 ORDER BY seq DESC LIMIT 1', [caseId])).rows[0];
  const line = make(last?.line, locked.role);
  // Read back before it is kept: a line that is no entry never reaches the log.
  const entry = parseEntry(line);
  await c.query('INSERT INTO custody (case_id, seq, line) VALUES ($1, $2, $3)', [caseId, (last?.seq ?? 0) + 1, line]);
  await c.query('UPDATE cases SET custody_entries = custody_entries + 1, custody_head = $1 WHERE id = $2', [entry.hash, caseId]);
  if (link) await c.query('INSERT INTO case_results (case_id, result_id, linked_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [caseId, link.resultId, link.at]);
  return line;
}

export class PgCases implements CaseApi {
  constructor(
    private readonly pool: Pool,
    private readonly guard: Guard,
    private readonly now: () => number,
  ) {}

  create(n: NewCase, first: (role?: string) => string): Promise<CaseRow> {
    return this.guard(() => inTx(this.pool, async (c) => {
      await c.query(
        'INSERT INTO cases (id, name, description, team, created_at, service, service_id, service_note) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
        [n.id, n.name, n.description, n.team, n.created_at, n.service, n.service_id, n.service_note],
      );
      await append(c, n.id, (_last, role) => first(role));
      return (await c.query<CaseRow>(`SELECT ${CASE_COLUMNS} FROM cases WHERE id = $1`, [n.id])).rows[0]!;
    }));
  }
  list(): Promise<CaseRow[]> {
    return this.guard(async () => (await this.pool.query<CaseRow>(`SELECT ${CASE_COLUMNS} FROM cases ORDER BY created_at DESC, id DESC`)).rows);
  }
  find(ref: string): Promise<CaseRow[]> {
    return this.guard(async () => {
      const byId = (await this.pool.query<CaseRow>(`SELECT ${CASE_COLUMNS} FROM cases WHERE id = $1 OR service_id = $1`, [ref])).rows;
      if (byId.length) return byId;
      return (await this.pool.query<CaseRow>(`SELECT ${CASE_COLUMNS} FROM cases WHERE lower(name) = lower($1) ORDER BY created_at, id`, [ref.trim()])).rows;
    });
  }
  linked(caseId: string): Promise<CaseLinked[]> {
    const cols = [...new Set([...FULL_COLUMNS.split(', '), ...LIST_COLUMNS.split(', ')])].map((c) => `r.${c}`).join(', ');
    return this.guard(async () => (await this.pool.query<FullRow & CaseResultRow>(`SELECT ${cols}, l.linked_at FROM case_results l JOIN results r ON r.id = l.result_id WHERE l.case_id = $1 ORDER BY l.seq`, [caseId])).rows.map((row) => {
      const { record: _r, raw: _raw, body, batch: _b, listed: _l, ...columns } = row;
      return { stored: { ...toStored(row), sandbox: row.sandbox === 1 }, columns, body };
    }));
  }
  isLinked(caseId: string, resultId: number): Promise<boolean> {
    return this.guard(async () => ((await this.pool.query('SELECT 1 FROM case_results WHERE case_id = $1 AND result_id = $2', [caseId, resultId])).rowCount ?? 0) > 0);
  }
  lines(caseId: string): Promise<string[]> {
    return this.guard(async () => (await this.pool.query<{ line: string }>('SELECT line FROM custody WHERE case_id = $1 ORDER BY seq', [caseId])).rows.map((r) => r.line));
  }
  append(caseId: string, make: (lastLine: string | undefined) => string): Promise<string> {
    return this.guard(() => inTx(this.pool, (c) => append(c, caseId, make)));
  }
  linking(resultId: number): CustodyStorage {
    return {
      lines: (caseId) => this.lines(caseId),
      append: (caseId, make) => this.guard(() => inTx(this.pool, (c) => append(c, caseId, make, { resultId, at: new Date(this.now()).toISOString() }))),
    };
  }
}

const TS_COLUMNS = 'id, case_id, head, seq, tsa, state, requested_at, attempts, last_error, reply, ca_pem, gen_time, stamped_at';

export class PgTimestamps implements TimestampApi {
  constructor(
    private readonly pool: Pool,
    private readonly guard: Guard,
    private readonly now: () => number,
  ) {}

  private iso(): string {
    return new Date(this.now()).toISOString();
  }
  private async row(id: number): Promise<TimestampRow> {
    const r = (await this.pool.query<TimestampRow>(`SELECT ${TS_COLUMNS} FROM timestamps WHERE id = $1`, [id])).rows[0];
    if (!r) throw new StoreError(`no timestamp request ${id} in the store`, 'other');
    return r;
  }
  queue(t: NewTimestamp): Promise<TimestampRow> {
    if (!/^[0-9a-f]{64}$/.test(t.head)) throw new StoreError(`a custody head is 64 lowercase hex digits, not "${t.head.slice(0, 80)}"`, 'other');
    return this.guard(async () => {
      await this.pool.query(
        "INSERT INTO timestamps (case_id, head, seq, tsa, state, requested_at) VALUES ($1, $2, $3, $4, 'pending', $5) ON CONFLICT (case_id, head, tsa) DO UPDATE SET state = 'pending' WHERE timestamps.state = 'failed'",
        [t.caseId, t.head, t.seq ?? null, t.tsa, this.iso()],
      );
      return (await this.pool.query<TimestampRow>(`SELECT ${TS_COLUMNS} FROM timestamps WHERE case_id = $1 AND head = $2 AND tsa = $3`, [t.caseId, t.head, t.tsa])).rows[0]!;
    });
  }
  pending(caseId?: string): Promise<TimestampRow[]> {
    return this.guard(async () => (caseId === undefined
      ? await this.pool.query<TimestampRow>(`SELECT ${TS_COLUMNS} FROM timestamps WHERE state = 'pending' ORDER BY requested_at, id`)
      : await this.pool.query<TimestampRow>(`SELECT ${TS_COLUMNS} FROM timestamps WHERE state = 'pending' AND case_id = $1 ORDER BY requested_at, id`, [caseId])).rows);
  }
  forCase(caseId: string): Promise<TimestampRow[]> {
    return this.guard(async () => (await this.pool.query<TimestampRow>(`SELECT ${TS_COLUMNS} FROM timestamps WHERE case_id = $1 ORDER BY id`, [caseId])).rows);
  }
  stamped(id: number, s: StampedReply): Promise<boolean> {
    return this.guard(async () => (await this.pool.query(
      "UPDATE timestamps SET state = 'stamped', reply = $1, ca_pem = $2, gen_time = $3, stamped_at = $4, attempts = attempts + 1, last_error = NULL WHERE id = $5 AND state = 'pending'",
      [s.reply, s.caPem, s.genTime, this.iso(), id],
    )).rowCount === 1);
  }
  unreachable(id: number, error: string): Promise<TimestampRow> {
    return this.guard(async () => {
      await this.pool.query("UPDATE timestamps SET attempts = attempts + 1, last_error = $1 WHERE id = $2 AND state = 'pending'", [error, id]);
      return this.row(id);
    });
  }
  failed(id: number, error: string): Promise<TimestampRow> {
    return this.guard(async () => {
      await this.pool.query("UPDATE timestamps SET state = 'failed', attempts = attempts + 1, last_error = $1 WHERE id = $2 AND state = 'pending'", [error, id]);
      return this.row(id);
    });
  }
}
