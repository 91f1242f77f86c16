/**
 * A custody line is exactly the canonical JSON that was hashed. A stored line rewritten with a
 * duplicate key in front (`{"event":"bundle_made",…,"event":"input_hashed",…}`) and other spacing
 * parses, in JavaScript and in Python alike, to the very entry that was hashed, while a reader that
 * keeps the first of two keys sees another event: it is named as tampering by `geo cases verify` on
 * the SQLite store (rewritten with the sqlite3 CLI) and on a team's PostgreSQL store (with SQL as
 * the admin), in a bundle, and by the bundle's own verify_chain.py.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/evidence/custody.js';
import { writeZip } from '../../src/output/export/zip.js';
import { type ChargingServer, startChargingServer } from '../helpers/charging-server.js';
import { freshStore, postgresPerFile } from '../helpers/postgres.js';
import { spawnGeo } from '../helpers/run-cli.js';
import { FIXTURES, withSandbox } from '../helpers/sandbox.js';
import { caseId, caseRunner, custodyLines, tmp } from './helpers.js';

const sb = withSandbox();
const db = postgresPerFile();
let service: ChargingServer;
let base: { data: string; id: string; run: ReturnType<typeof caseRunner>['run'] };

beforeAll(async () => {
  // Answers from an independent service, not a sandbox: the case verifies without --allow-sandbox.
  service = await startChargingServer({ delayMs: 0 });
  const { data, run } = caseRunner(sb);
  const real = { env: { GEO_BASE_URL: service.url, GEO_API_KEY: 'orca_live_test_0000000000000000' } };
  expect((await run(['cases', 'create', '--name', 'Harbour', '--local'])).code).toBe(0);
  expect((await run(['locate', FIXTURES + 'paris.jpg', '--case', 'Harbour'], real)).code).toBe(0);
  base = { data, id: caseId(data, 'Harbour'), run };
}, 60_000);
afterAll(async () => service?.close());

/** The attacker's line: `"event":"bundle_made"` in front, then every member with other spacing. */
function withDuplicateKey(line: string): string {
  const e = JSON.parse(line) as Record<string, unknown>;
  return `{ "event" : "bundle_made" , ${Object.entries(e).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(', ')} }`;
}
/** The same entry, its members in canonical order, with spaces between them (no raw newline is inside a JSON string). */
const spaced = (line: string) => JSON.stringify(JSON.parse(line), null, 1).replace(/\n */g, ' ');

const sqlText = (s: string) => `'${s.replace(/'/g, "''")}'`;
const OFFLINE = { GEO_API_KEY: undefined, GEO_BASE_URL: 'http://127.0.0.1:9' };
const NAMED = /entry 2 \(input_hashed\): its line is not the canonical JSON its hash was made from/;

describe('a line that parses to the hashed entry but is not its canonical JSON', () => {
  it('the forged line parses to the very entry that was hashed: the hash alone cannot tell', () => {
    const line = custodyLines(base.data, base.id)[1]!;
    expect(JSON.parse(withDuplicateKey(line))).toEqual(JSON.parse(line));
    expect(JSON.parse(line)).toMatchObject({ event: 'input_hashed' });
  });

  it.each([
    ['a duplicate key in front, other spacing', withDuplicateKey],
    ['other spacing only', spaced],
  ])('in geo.db (%s, written with the sqlite3 CLI): geo cases verify exits 1 naming the entry', async (_name, forge) => {
    const data = tmp('geo-canonical-');
    execFileSync('cp', ['-r', `${base.data}/.`, data]);
    const line = custodyLines(base.data, base.id)[1]!;
    execFileSync('sqlite3', [join(data, 'geo.db'), `UPDATE custody SET line = ${sqlText(forge(line))} WHERE case_id = '${base.id}' AND seq = 2;`]);
    expect(custodyLines(data, base.id)[1]).not.toBe(line);
    const r = await caseRunner(sb, data).run(['cases', 'verify', base.id], { env: OFFLINE });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toMatch(NAMED);
    // The untouched copy still verifies: the forged line is the only difference.
    expect((await caseRunner(sb, base.data).run(['cases', 'verify', base.id], { env: OFFLINE })).code).toBe(0);
  });

  it('in a bundle (the manifest and SHA256SUMS recomputed): geo cases verify and verify_chain.py both name the entry', async () => {
    const zip = join(tmp(), 'case.zip');
    expect((await base.run(['cases', 'bundle', base.id, zip], { env: OFFLINE })).code).toBe(0);
    const dir = tmp('geo-canonical-x-');
    execFileSync('unzip', ['-q', zip, '-d', dir]);
    expect(spawnSync('python3', ['verify_chain.py'], { cwd: dir, encoding: 'utf8' }).status).toBe(0);
    const lines = readFileSync(join(dir, 'custody.jsonl'), 'utf8').split('\n');
    lines[1] = withDuplicateKey(lines[1]!);
    writeFileSync(join(dir, 'custody.jsonl'), lines.join('\n'));
    const names = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? names(join(d, n)) : [relative(dir, join(d, n))]));
    const sha = (p: string) => sha256Hex(readFileSync(join(dir, p)));
    writeFileSync(join(dir, 'SHA256SUMS'), names(dir).filter((p) => !['SHA256SUMS', 'manifest.json'].includes(p)).sort().map((p) => `${sha(p)}  ${p}\n`).join(''));
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    manifest.files = names(dir).filter((p) => p !== 'manifest.json').sort().map((p) => ({ path: p, sha256: sha(p), size: statSync(join(dir, p)).size }));
    writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const forged = join(tmp(), 'case.zip');
    writeFileSync(forged, writeZip(names(dir).sort().map((name) => ({ name, data: readFileSync(join(dir, name)), compress: true })), new Date()));

    const py = spawnSync('python3', ['verify_chain.py'], { cwd: dir, encoding: 'utf8' });
    expect(py.status).not.toBe(0);
    expect(py.stderr).toMatch(/^FAILED: entry 2 \(input_hashed\): its line is not the canonical JSON its hash was made from/);
    const r = await spawnGeo(['cases', 'verify', forged]);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toMatch(NAMED);
  });

  it('on a team\'s PostgreSQL store (the line rewritten by the admin): geo cases verify exits 1 naming the entry', async (t) => {
    if (!db.pg) return t.skip(db.skip);
    await freshStore(db.pg);
    const home = tmp('geo-canonical-team-');
    const env = { HOME: home, GEO_CONFIG_DIR: join(home, 'config'), GEO_DATA_DIR: join(home, 'data'), GEO_STATE_DIR: join(home, 'state'), GEO_STORE_URL: db.pg.analystUrl, GEO_API_KEY: 'orca_live_test_0000000000000000', GEO_BASE_URL: service.url, CI: '1' };
    const made = await spawnGeo(['cases', 'create', '--local', '--name', 'Team', '--json'], { env });
    const id = (JSON.parse(made.stdout) as { id: string }).id;
    expect((await spawnGeo(['locate', FIXTURES + 'tokyo.jpg', '--case', id, '--yes'], { env })).code).toBe(0);
    expect((await spawnGeo(['cases', 'verify', id], { env })).code).toBe(0);
    const line = db.pg.sql(`SELECT line FROM custody WHERE case_id = '${id}' AND seq = 2`).trim();
    db.pg.sql(`UPDATE custody SET line = ${sqlText(withDuplicateKey(line))} WHERE case_id = '${id}' AND seq = 2`);
    const r = await spawnGeo(['cases', 'verify', id], { env });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toMatch(NAMED);
  }, 60_000);
});
