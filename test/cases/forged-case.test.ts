/**
 * Issue 30, "Verification binds everything it shows", for a local case: each value a view shows,
 * forged in geo.db with the sqlite3 CLI as anyone holding the file could (two raw answers swapped,
 * results.body, the city/latitude/longitude columns, a record's input path or sha256, the case's
 * name or description, the sandbox flag either way), makes `geo cases verify` fail naming the
 * result or the case, and `cases show`, `cases bundle` and `export --case` never show it: show
 * builds from the raw answers and the log, bundle and export refuse (exit 1, nothing written).
 * Then: simulated answers are "not evidence" unless --allow-sandbox; the verify report says in its
 * own section that an intact chain is not a signature, and a log rewritten and re-pinned whole
 * does verify, so that caveat is the truth; a FIFO or link put where a logged report was is
 * refused at once, by the built binary, naming it.
 */
import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChargingServer, startChargingServer } from '../helpers/charging-server.js';
import { GEO_BIN, tempConfigDir } from '../helpers/run-cli.js';
import { FIXTURES, withSandbox } from '../helpers/sandbox.js';
import { caseId, caseRunner, custodyLines, tmp } from './helpers.js';

const sb = withSandbox();
let service: ChargingServer;
/** One data folder: "Evidence" answered by an independent service (not a sandbox), "Trial" by the sandbox. */
let base: { data: string; evidence: string; trial: string; report: string };

beforeAll(async () => {
  service = await startChargingServer({ delayMs: 0 });
  const { data, run } = caseRunner(sb);
  const real = { env: { GEO_BASE_URL: service.url, GEO_API_KEY: 'orca_live_test_0000000000000000' } };
  expect((await run(['cases', 'create', '--name', 'Evidence', '--description', 'Port footage', '--local'])).code).toBe(0);
  expect((await run(['cases', 'create', '--name', 'Trial', '--local'])).code).toBe(0);
  const report = join(tmp(), 'evidence.html');
  const r = await run(['locate', FIXTURES + 'paris.jpg', FIXTURES + 'tokyo.jpg', '--case', 'Evidence', '--report', report], real);
  expect(r.code).toBe(0);
  expect((await run(['locate', FIXTURES + 'paris.jpg', FIXTURES + 'tokyo.jpg', '--case', 'Trial'])).code).toBe(0);
  base = { data, evidence: caseId(data, 'Evidence'), trial: caseId(data, 'Trial'), report };
}, 60_000);
afterAll(async () => service?.close());

type Shown = { input: string; place: string; latitude: number; longitude: number; sandbox: boolean };
const pairOf = (r: Shown) => `${r.input} | ${r.place} | ${r.latitude}, ${r.longitude} | ${r.sandbox}`;
/** The input <-> answer pairs of the untouched case, as show gives them. */
let pairs: string[] = [];
beforeAll(async () => {
  pairs = (JSON.parse((await geo(base.data, ['cases', 'show', base.evidence, '--json'])).stdout) as { results: Shown[] }).results.map(pairOf);
  expect(pairs).toHaveLength(2);
});

/** A copy of the data folder, altered by the sqlite3 CLI. */
function forged(sql: string): string {
  const data = tmp('geo-forged-');
  cpSync(base.data, data, { recursive: true });
  execFileSync('sqlite3', [join(data, 'geo.db'), sql]);
  return data;
}

const OFFLINE = { GEO_API_KEY: undefined, GEO_BASE_URL: 'http://127.0.0.1:9' };
const geo = (data: string, argv: string[]) => caseRunner(sb, data).run(argv, { env: OFFLINE });
const inCase = (c: 'evidence' | 'trial', which: 'min' | 'max' = 'min') => `(SELECT ${which}(result_id) FROM case_results WHERE case_id = '${base[c]}')`;

describe('a case answered by a service (not a sandbox) verifies, in sections', () => {
  it('exit 0; integrity says the chain is not signed; no simulated answers; --json has the sections apart', async () => {
    const r = await geo(base.data, ['cases', 'verify', base.evidence]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\n {2}integrity +the chain is intact; it is not signed, so whoever holds this database could have rebuilt it: geo cases sign binds it to your key\n/);
    expect(r.stdout).toMatch(/answers +2 linked results are bound to their own logged input and answer\n/);
    expect(r.stdout).toMatch(/simulated +none: every answer came from a service, not a sandbox\n/);
    const json = JSON.parse((await geo(base.data, ['cases', 'verify', base.evidence, '--json'])).stdout);
    expect(json).toMatchObject({ ok: true, case: { id: base.evidence, name: 'Evidence' }, integrity: { ok: true, answers: 2, files: 1, failures: [], signed: false }, simulated: { answers: 0, allowed: false, ok: true, checked: true }, failures: [] });
  });
});

describe('each value a view shows, forged in geo.db with sqlite3: verify names it, show never shows it, bundle and export refuse', () => {
  const SWAP = `CREATE TEMP TABLE t AS SELECT id, raw FROM results WHERE id IN (SELECT result_id FROM case_results WHERE case_id = '%C');
    UPDATE results SET raw = (SELECT raw FROM t WHERE t.id <> results.id) WHERE id IN (SELECT id FROM t);`;
  const FAKE_SHA = 'ab'.repeat(32);
  it.each([
    ['the raw answers of two linked results swapped', () => SWAP.replace('%C', base.evidence), /✗ result \d+ \(\S+paris\.jpg\): its raw answer is the one entry \d+ \(result_linked\) binds to another input/, undefined],
    ['results.body edited', () => `UPDATE results SET body = json_set(CAST(raw AS TEXT), '$.location.city', 'Forged City') WHERE id = ${inCase('evidence')}`, /✗ result \d+ \(\S+paris\.jpg\): its body column is not what its raw answer says \(edited in the database\)/, 'Forged City'],
    ['the city column edited', () => `UPDATE results SET city = 'Forged City' WHERE id = ${inCase('evidence')}`, /✗ result \d+ \(\S+paris\.jpg\): its city column is not what its raw answer says/, 'Forged City'],
    ['latitude and longitude edited', () => `UPDATE results SET latitude = 12.345678, longitude = 65.4321 WHERE id = ${inCase('evidence')}`, /✗ result \d+ \(\S+paris\.jpg\): its latitude, longitude columns are not what its raw answer says/, '12.345678'],
    ['the record\'s input path edited', () => `UPDATE results SET record = json_set(record, '$.input.path', '/forged/elsewhere.jpg') WHERE id = ${inCase('evidence')}`, /✗ result \d+ \(\S+paris\.jpg\): its input path in the record \("\/forged\/elsewhere\.jpg"\) is not the one entry \d+ \(result_linked\) logged/, '/forged/elsewhere.jpg'],
    ['the input_path column edited', () => `UPDATE results SET input_path = '/forged/column.jpg' WHERE id = ${inCase('evidence')}`, /✗ result \d+ \(\S+paris\.jpg\): its input_path column \("\/forged\/column\.jpg"\) is not the one entry \d+ \(result_linked\) logged/, '/forged/column.jpg'],
    ['the input sha256 edited in the record and its column', () => `UPDATE results SET record = json_set(record, '$.input.sha256', '${FAKE_SHA}'), sha256 = '${FAKE_SHA}' WHERE id = ${inCase('evidence')}`, /✗ result \d+ \(\S+paris\.jpg\): its raw answer is the one entry \d+ \(result_linked\) binds to another input \(sha256 [0-9a-f]{16}…, not this result's abababababababab…\)/, 'abababababab'],
    ['the case\'s name edited', () => `UPDATE cases SET name = 'Forged name' WHERE id = '${base.evidence}'`, /✗ case lc_\w+: its name in the store \("Forged name"\) is not the one entry 1 \(case_created\) logged \("Evidence"\): edited in the database/, 'Forged name'],
    ['the case\'s description edited', () => `UPDATE cases SET description = 'Forged description' WHERE id = '${base.evidence}'`, /✗ case lc_\w+: its description in the store \("Forged description"\) is not the one entry 1 \(case_created\) logged \("Port footage"\)/, 'Forged description'],
    ['results.sandbox flipped 0 -> 1', () => `UPDATE results SET sandbox = 1 WHERE id = ${inCase('evidence')}`, /✗ result \d+ \(\S+paris\.jpg\): its sandbox flag in the store \(1\) is not what entry \d+ \(answer_received\) logged \(not a sandbox\)/, 'sandbox (simulated)'],
  ])('%s', async (_n, sql, line, forgedValue: string | undefined) => {
    const data = forged(sql());
    const v = await geo(data, ['cases', 'verify', base.evidence]);
    expect(v.code).toBe(1);
    expect(v.stdout).toMatch(line);
    expect(v.stderr.trim().split('\n')).toHaveLength(1);
    expect(v.stderr).toMatch(/^error: case lc_\w+ does not verify: /);

    const show = await geo(data, ['cases', 'show', base.evidence]);
    expect(show.code).toBe(0);
    if (forgedValue) expect(show.stdout).not.toContain(forgedValue);
    expect(show.stdout).toMatch(/verified +NO: \d+ problems? \(geo cases verify lc_\w+ lists them\)/);
    const shown = JSON.parse((await geo(data, ['cases', 'show', base.evidence, '--json'])).stdout) as { case: object; results: Shown[] };
    // (Only the failures, in `problems`, may quote a forged value: to name it.)
    if (forgedValue) expect(JSON.stringify([shown.case, shown.results])).not.toContain(forgedValue);
    // Whatever is shown is a pair the log vouches for: an input with its own answer's place.
    for (const r of shown.results) expect(pairs).toContain(pairOf(r));

    const out = tmp();
    const bundle = await geo(data, ['cases', 'bundle', base.evidence, join(out, 'case.zip')]);
    expect(bundle.code).toBe(1);
    expect(bundle.stderr).toMatch(/^error: case lc_\w+ does not verify, so no bundle is written: /);
    const exp = await geo(data, ['export', '--case', base.evidence, '--out', join(out, 'case.geojson')]);
    expect(exp.code).toBe(1);
    expect(exp.stderr).toMatch(/^error: case lc_\w+ does not verify, so nothing is exported: /);
    expect(readdirSync(out)).toEqual([]);
  });

  it('the sandbox flag flipped 1 -> 0 on a sandbox\'s answer: not evidence, whatever the store says', async () => {
    const data = forged(`UPDATE results SET sandbox = 0 WHERE id IN (SELECT result_id FROM case_results WHERE case_id = '${base.trial}')`);
    const v = await geo(data, ['cases', 'verify', base.trial, '--allow-sandbox']);
    expect(v.code).toBe(1);
    expect(v.stdout).toMatch(/✗ result \d+ \(\S+paris\.jpg\): its sandbox flag in the store \(0\) is not what entry \d+ \(answer_received\) logged \(a sandbox answered\)/);
    const shown = JSON.parse((await geo(data, ['cases', 'show', base.trial, '--json'])).stdout);
    expect(shown.results.map((r: { sandbox: boolean }) => r.sandbox)).toEqual([true, true]);
    const exp = await geo(data, ['export', '--case', base.trial, '--format', 'geojson']);
    expect(exp.code).toBe(1);
    expect(exp.stdout).toBe('');
  });

  it('untouched, show, bundle and export carry the logged values', async () => {
    const show = JSON.parse((await geo(base.data, ['cases', 'show', base.evidence, '--json'])).stdout);
    expect(show.case).toMatchObject({ id: base.evidence, name: 'Evidence', description: 'Port footage' });
    expect(show.problems).toEqual([]);
    expect(show.results.map((r: { input: string }) => r.input)).toEqual([FIXTURES + 'paris.jpg', FIXTURES + 'tokyo.jpg']);
    const exp = await geo(base.data, ['export', '--case', base.evidence, '--format', 'geojson']);
    expect(exp.code).toBe(0);
    expect(JSON.parse(exp.stdout).features.filter((f: { properties: { role: string } }) => f.properties.role === 'estimate')).toHaveLength(2);
  });
});

describe('simulated answers (a sandbox\'s) are not evidence', () => {
  it('a case: exit 1 saying how many, unless --allow-sandbox', async () => {
    const r = await geo(base.data, ['cases', 'verify', base.trial]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/simulated +2 simulated answers \(sandbox\): not evidence\n/);
    expect(r.stdout).toMatch(/integrity +the chain is intact;/);
    expect(r.stderr).toMatch(/^error: case lc_\w+ holds 2 simulated answers \(sandbox\): not evidence — hint: a sandbox answered them, not the service: `geo cases verify lc_\w+ --allow-sandbox`/);
    const allowed = await geo(base.data, ['cases', 'verify', base.trial, '--allow-sandbox']);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toMatch(/simulated +2 simulated answers \(sandbox\): not evidence \(checked as a test case: --allow-sandbox\)\n/);
    expect(JSON.parse((await geo(base.data, ['cases', 'verify', base.trial, '--json', '--allow-sandbox'])).stdout).simulated).toEqual({ answers: 2, allowed: true, ok: true, checked: true });
  });
});

/** RFC 8785 for what geo writes, as an outsider would code it: keys sorted, no whitespace. */
const canonical = (v: unknown): string =>
  Array.isArray(v) ? `[${v.map(canonical).join(',')}]`
  : v !== null && typeof v === 'object' ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`
  : JSON.stringify(v);
const sqlText = (s: string) => `'${s.replace(/'/g, "''")}'`;

describe('a log rewritten and re-pinned on the same machine', () => {
  it('verifies (no secret tells it from the original), and the report says exactly that', async () => {
    // The case renamed in the log itself: every entry re-hashed, the head re-pinned.
    let prev = '0'.repeat(64);
    const lines = custodyLines(base.data, base.evidence).map((line) => {
      const { hash: _h, ...e } = JSON.parse(line) as Record<string, unknown> & { data: { case?: { name: string } } };
      if (e.data.case) e.data.case.name = 'Rewritten';
      e.prev = prev;
      prev = createHash('sha256').update(canonical(e)).digest('hex');
      return canonical({ ...e, hash: prev });
    });
    const sql = [
      ...lines.map((l, i) => `UPDATE custody SET line = ${sqlText(l)} WHERE case_id = '${base.evidence}' AND seq = ${i + 1};`),
      `UPDATE cases SET name = 'Rewritten', custody_head = '${prev}' WHERE id = '${base.evidence}';`,
    ].join('\n');
    const data = forged(sql);
    const r = await geo(data, ['cases', 'verify', base.evidence]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^case lc_\w+ \(Rewritten\): verified\n/);
    expect(r.stdout).toContain('it is not signed, so whoever holds this database could have rebuilt it: geo cases sign binds it to your key');
  });
});

describe('a file the log names, replaced by a FIFO or a link: refused at once, named (the built binary)', () => {
  const verifyBin = (data: string) => spawnSync(process.execPath, [GEO_BIN, 'cases', 'verify', base.evidence], {
    encoding: 'utf8', timeout: 20_000, env: { PATH: process.env.PATH, HOME: tempConfigDir(), GEO_DATA_DIR: data, GEO_BASE_URL: 'http://127.0.0.1:9' },
  });

  it('a FIFO where the report was: exit 1 within the timeout, the entry and the path named', () => {
    const data = forged('SELECT 1;');
    rmSync(base.report, { force: true });
    execFileSync('mkfifo', [base.report]);
    try {
      const r = verifyBin(data);
      expect(r.error).toBeUndefined(); // no timeout: it did not wait for a writer
      expect(r.status).toBe(1);
      expect(r.stdout).toContain(`✗ entry 10 (file_written): ${base.report} is now a FIFO (named pipe), not the file geo wrote: not read`);
    } finally {
      rmSync(base.report, { force: true });
    }
  });

  it('a symbolic link where the report was (even to a file with the right bytes): refused, not followed', () => {
    const data = forged('SELECT 1;');
    const elsewhere = join(tmp(), 'elsewhere.html');
    writeFileSync(elsewhere, 'x');
    symlinkSync(elsewhere, base.report);
    try {
      const r = verifyBin(data);
      expect(r.status).toBe(1);
      expect(r.stdout).toContain(`✗ entry 10 (file_written): ${base.report} is now a symbolic link, not the file geo wrote: not read`);
    } finally {
      rmSync(base.report, { force: true });
    }
    expect(existsSync(elsewhere)).toBe(true);
  });
});
