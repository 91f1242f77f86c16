/**
 * Local cases for the tests (issue 24): one data folder shared by the commands of a test, the
 * sandbox's pro key, and the custody log read back as an outside observer would (sqlite on the file).
 */
import { mkdtempSync } from 'node:fs';
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
