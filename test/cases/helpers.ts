/**
 * Local cases for the tests (issue 24): one data folder shared by the commands of a test, the
 * sandbox's pro key, and the custody log read back as an outside observer would (sqlite on the file).
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CustodyEntry, parseEntry } from '../../src/evidence/custody.js';
import { type RunOptions, runCli } from '../helpers/run-cli.js';
import { KEYS, type TestSandbox } from '../helpers/sandbox.js';
import { dbRows } from '../helpers/store.js';

export const tmp = (p = 'geo-case-') => mkdtempSync(join(tmpdir(), p));

/** geo with one data folder (GEO_DATA_DIR) for every call, against the sandbox with its pro key. */
export function caseRunner(sb: TestSandbox, data = tmp('geo-case-data-')) {
  const run = (argv: string[], opts: RunOptions = {}) => runCli(argv, { ...opts, env: { GEO_DATA_DIR: data, GEO_BASE_URL: sb.url, GEO_API_KEY: KEYS.pro, CI: undefined, ...opts.env } });
  return { data, run };
}

/** The case's custody log as stored, in order. */
export function custodyLines(data: string, caseId: string): string[] {
  return dbRows<{ line: string }>(data, 'SELECT line FROM custody WHERE case_id = ? ORDER BY seq', caseId).map((r) => r.line);
}

export function custodyOf(data: string, caseId: string): CustodyEntry[] {
  return custodyLines(data, caseId).map(parseEntry);
}

/** The one case of that name in the data folder: its id. */
export function caseId(data: string, name: string): string {
  const rows = dbRows<{ id: string }>(data, 'SELECT id FROM cases WHERE name = ?', name);
  if (rows.length !== 1) throw new Error(`expected one case named ${name}, found ${rows.length}`);
  return rows[0]!.id;
}

export const events = (entries: readonly CustodyEntry[]) => entries.map((e) => e.event);

/** RFC 8785 for what geo writes, as an outsider would code it: keys sorted, no whitespace. */
export const canonical = (v: unknown): string =>
  Array.isArray(v) ? `[${v.map(canonical).join(',')}]`
  : v !== null && typeof v === 'object' ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`
  : JSON.stringify(v);
const sqlText = (s: string) => `'${s.replace(/'/g, "''")}'`;
export type Loose = Record<string, unknown> & { seq: number; prev: string; event: string; data: Record<string, Record<string, unknown>> };

/** The sqlite3 CLI on a data folder's geo.db, as anyone holding the file could run it. */
export const sqlite3 = (data: string, sql: string) => execFileSync('sqlite3', [join(data, 'geo.db'), sql]);

/**
 * What an attacker with the file does, on a copy of `src`: takes the case's entries, changes them,
 * re-seals every one (seq, prev, hash) and writes them back with the sqlite3 CLI, the case's count
 * and head re-pinned. `extraSql`: more of it (%ID is the case id). Returns the copy.
 */
export function rewriteLog(src: string, id: string, change: (entries: Loose[]) => Loose[], extraSql = ''): string {
  const data = tmp('geo-case-forged-');
  cpSync(src, data, { recursive: true });
  const entries = change(custodyLines(src, id).map((l) => JSON.parse(l) as Loose));
  let prev = '0'.repeat(64);
  const lines = entries.map((e, i) => {
    const { hash: _h, ...rest } = e;
    const sealed = { ...rest, seq: i + 1, prev };
    prev = createHash('sha256').update(canonical(sealed)).digest('hex');
    return canonical({ ...sealed, hash: prev });
  });
  sqlite3(data, [
    `DELETE FROM custody WHERE case_id = '${id}';`,
    ...lines.map((l, i) => `INSERT INTO custody (case_id, seq, line) VALUES ('${id}', ${i + 1}, ${sqlText(l)});`),
    `UPDATE cases SET custody_entries = ${lines.length}, custody_head = '${prev}' WHERE id = '${id}';`,
    extraSql.replaceAll('%ID', id),
  ].join('\n'));
  return data;
}
