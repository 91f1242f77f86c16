/**
 * geo cases verify <case> (issue 24, items 2 and 5): a case made by geo locate --case verifies;
 * then each way of tampering with it, done to the database directly (as anyone with the file could),
 * or to a report it logged, fails with exit 1 naming the entry, the result or the file.
 */
import { appendFileSync, cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, withSandbox } from '../helpers/sandbox.js';
import { caseId, caseRunner, custodyOf, events, tmp } from './helpers.js';

const sb = withSandbox();
let base: { data: string; id: string; report: string };

beforeAll(async () => {
  const { data, run } = caseRunner(sb);
  await run(['cases', 'create', '--name', 'Checked', '--local']);
  const report = join(tmp(), 'checked.html');
  const r = await run(['locate', FIXTURES + 'paris.jpg', FIXTURES + 'tokyo.jpg', '--case', 'Checked', '--report', report]);
  expect(r.code).toBe(0);
  base = { data, id: caseId(data, 'Checked'), report };
  expect(events(custodyOf(data, base.id))).toEqual([
    'case_created', 'input_hashed', 'request_sent', 'answer_received', 'result_linked', 'input_hashed', 'request_sent', 'answer_received', 'result_linked', 'file_written',
  ]);
}, 60_000);

/** A copy of the data folder, altered with SQL on a writable connection (libsql, as sqlite3 would). */
function altered(sql: string[]): string {
  const data = tmp('geo-case-altered-');
  cpSync(base.data, data, { recursive: true });
  const Database = createRequire(import.meta.url)('libsql') as new (p: string) => { exec(s: string): void; close(): void };
  const db = new Database(join(data, 'geo.db'));
  for (const s of sql) db.exec(s);
  db.close();
  return data;
}

/** The case's answers are the sandbox's: checked as a test case (forged-case.test.ts has one that is not). */
const verify = (data: string, extra: string[] = []) => caseRunner(sb, data).run(['cases', 'verify', 'Checked', '--allow-sandbox', ...extra], { env: { GEO_API_KEY: undefined, GEO_BASE_URL: 'http://127.0.0.1:9' } });

describe('geo cases verify <case>', () => {
  it('a case as geo made it verifies, offline: exit 0, what was checked', async () => {
    const r = await verify(base.data);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^case lc_\w+ \(Checked\): verified\n {2}integrity +the chain is intact; it is not signed, so whoever holds this database could have rebuilt it: geo cases sign binds it to your key\n {2}custody +10 entries, chain intact; head [0-9a-f]{64}\n {2}answers +2 linked results are bound to their own logged input and answer\n {2}files +1 file written for the case still has the sha256 logged\n {2}signatures +none: the custody log is not signed \(geo cases sign\)\n {2}timestamps +none \(geo cases stamp\)\n {2}simulated +2 simulated answers \(sandbox\): not evidence \(checked as a test case: --allow-sandbox\)\n$/);
    const json = JSON.parse((await verify(base.data, ['--json'])).stdout);
    expect(json).toMatchObject({ ok: true, case: { id: base.id }, integrity: { ok: true, custody: { entries: 10 }, answers: 2, files: 1, failures: [] }, simulated: { answers: 2, allowed: true }, failures: [] });
  });

  const swap = (a: number, b: number) => [
    `UPDATE custody SET seq = -1 WHERE seq = ${a}`, `UPDATE custody SET seq = ${a} WHERE seq = ${b}`, `UPDATE custody SET seq = ${b} WHERE seq = -1`,
  ];
  it.each([
    ['one byte of an entry changed', () => altered([`UPDATE custody SET line = replace(line, '"size":', '"size":1') WHERE seq = 2`]), /✗ custody log: entry 2 \(input_hashed\): its content does not match its hash: it was altered/],
    ['an entry removed', () => altered(['DELETE FROM custody WHERE seq = 3']), /✗ custody log: entry 3 \(answer_received\): its seq is 4: entry 3 was removed/],
    ['two entries swapped', () => altered(swap(2, 3)), /✗ custody log: entry 2 \(request_sent\): its seq is 3: entries are out of order \(entry 2 comes later\)/],
    ['the last entry cut off', () => altered(['DELETE FROM custody WHERE seq = 10']), /✗ custody log: entry 10: the log ends after 9 entries, 10 were expected: entries were removed from its end/],
    ['a raw answer changed in the store', () => altered([`UPDATE results SET raw = CAST(replace(CAST(raw AS TEXT), '"confidence":', '"confidence": ') AS BLOB) WHERE id = (SELECT min(result_id) FROM case_results)`]), /✗ result \d+ \(\S+\.jpg\): its raw answer in the store \(sha256 [0-9a-f]{16}…\) is the answer of no result_linked entry: it was changed, or linked without the log/],
    ['a link removed from the store', () => altered(['DELETE FROM case_results WHERE result_id = (SELECT max(result_id) FROM case_results)']), /✗ entry (5|9) \(result_linked\): no result linked to the case in the store has its answer \(a link was removed, or an answer changed\)/],
  ])('%s: exit 1, the entry named', async (_n, make, line) => {
    const r = await verify(make());
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/: FAILED \(\d+ problems?\)\n/);
    expect(r.stdout).toMatch(line);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: case lc_\w+ does not verify: .* — hint: /);
  });

  it('a report whose sha256 was logged, edited afterwards: exit 1 naming the entry and the file; a report gone is said, not failed', async () => {
    appendFileSync(base.report, '<!-- edited -->');
    const r = await verify(base.data);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`✗ entry 10 (file_written): ${base.report} was changed after it was written (its sha256 is not the one logged)`);
    rmSync(base.report);
    const gone = await verify(base.data);
    expect(gone.code).toBe(0);
    expect(gone.stdout).toContain(`- entry 10 (file_written): ${base.report} is gone (moved or deleted): not checked`);
  });
});
