/**
 * Cases: local cases, the results linked to them and each case's custody log (schema.ts,
 * migration 2). The log is kept as lines, each entry's canonical JSON exactly as sealed; appends
 * run in one BEGIN IMMEDIATE transaction (sqlite.ts tx), so two processes appending to one case
 * at once both land with the chain intact: the second reads the first's entry as its last.
 */
import { parseEntry } from '../../evidence/custody.js';
import { FULL_COLUMNS, type FullRow, LIST_COLUMNS, type ResultRow, type StoredResult, toStored } from './results.js';
import type { Sql } from './sqlite.js';

export interface CaseRow {
  id: string;
  name: string;
  description: string;
  team: string | null;
  created_at: string;
  /** The service the case was also created on (its origin), and the service's id for it. */
  service: string | null;
  service_id: string | null;
  /** Why the case is local only although geo tried the service (unreachable, outcome unknown). */
  service_note: string | null;
  /** The custody log's length and last hash as of the last append (what verify pins the log to). */
  custody_entries: number;
  custody_head: string | null;
  /** Results linked to it (listCases, findCases). */
  results: number;
}

export type NewCase = Pick<CaseRow, 'id' | 'name' | 'description' | 'team' | 'created_at' | 'service' | 'service_id' | 'service_note'>;

const CASE_COLUMNS = 'id, name, description, team, created_at, service, service_id, service_note, custody_entries, custody_head, (SELECT count(*) FROM case_results WHERE case_id = cases.id) AS results';

/** A result as a case lists it: the history columns, its row id, and when it was linked (store time, not the log's). */
export type CaseResultRow = ResultRow & { linked_at: string };

/**
 * Appends the line `make` builds from the case's last line, in one write transaction; with `link`,
 * the result is linked in the same transaction (a result_linked entry and its link land together).
 */
export function appendCustody(sql: Sql, caseId: string, make: (last: string | undefined) => string, link?: { resultId: number; at: string }): string {
  return sql.tx(() => {
    const last = sql.one<{ seq: number; line: string }>('SELECT seq, line FROM custody WHERE case_id = ? ORDER BY seq DESC LIMIT 1', caseId);
    const line = make(last?.line);
    // Read back before it is kept: a line that is no entry never reaches the log.
    const entry = parseEntry(line);
    sql.run('INSERT INTO custody (case_id, seq, line) VALUES (?, ?, ?)', caseId, (last?.seq ?? 0) + 1, line);
    sql.run('UPDATE cases SET custody_entries = (SELECT count(*) FROM custody WHERE case_id = ?), custody_head = ? WHERE id = ?', caseId, entry.hash, caseId);
    if (link) sql.run('INSERT OR IGNORE INTO case_results (case_id, result_id, linked_at) VALUES (?, ?, ?)', caseId, link.resultId, link.at);
    return line;
  });
}

/** A new case and the first entry of its log (case_created), together or not at all. */
export function insertCase(sql: Sql, c: NewCase, first: () => string): CaseRow {
  return sql.tx(() => {
    sql.run(
      'INSERT INTO cases (id, name, description, team, created_at, service, service_id, service_note) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      c.id, c.name, c.description, c.team, c.created_at, c.service, c.service_id, c.service_note,
    );
    appendCustody(sql, c.id, () => first());
    return sql.one<CaseRow>(`SELECT ${CASE_COLUMNS} FROM cases WHERE id = ?`, c.id)!;
  });
}

export function custodyLines(sql: Sql, caseId: string): string[] {
  return sql.all<{ line: string }>('SELECT line FROM custody WHERE case_id = ? ORDER BY seq', caseId).map((r) => r.line);
}

/** Every local case, newest first. */
export function listCases(sql: Sql): CaseRow[] {
  return sql.all<CaseRow>(`SELECT ${CASE_COLUMNS} FROM cases ORDER BY created_at DESC, id DESC`);
}

/** The cases `ref` names: by geo's id or the service's (exactly), else by name (any case). */
export function findCases(sql: Sql, ref: string): CaseRow[] {
  const byId = sql.all<CaseRow>(`SELECT ${CASE_COLUMNS} FROM cases WHERE id = ? OR service_id = ?`, ref, ref);
  if (byId.length) return byId;
  return sql.all<CaseRow>(`SELECT ${CASE_COLUMNS} FROM cases WHERE name = ? COLLATE NOCASE ORDER BY created_at, id`, ref.trim());
}

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

/** The case's results in the order they were linked. */
export function caseLinked(sql: Sql, caseId: string): CaseLinked[] {
  const cols = [...new Set([...FULL_COLUMNS.split(', '), ...LIST_COLUMNS.split(', ')])].map((c) => `r.${c}`).join(', ');
  return sql.all<FullRow & CaseResultRow>(`SELECT ${cols}, l.linked_at FROM case_results l JOIN results r ON r.id = l.result_id WHERE l.case_id = ? ORDER BY l.rowid`, caseId).map((row) => {
    const { record: _r, raw: _raw, body, batch: _b, listed: _l, ...columns } = row;
    // The sandbox column as it is: toStored folds the record's own flag into it for views, and
    // verification must see each of the two apart (an edit to either is named).
    return { stored: { ...toStored(row), sandbox: row.sandbox === 1 }, columns, body };
  });
}

export function isLinked(sql: Sql, caseId: string, resultId: number): boolean {
  return sql.one('SELECT 1 FROM case_results WHERE case_id = ? AND result_id = ?', caseId, resultId) !== undefined;
}
