/**
 * geo history against a real sandbox (issue 13, part 5): results located with geo locate are
 * listed newest first and shown again exactly as locate printed them, with no key and nothing sent.
 */
import { mkdtempSync } from 'node:fs';
import { hostname, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { saveRecord } from '../helpers/store.js';
import { hostileRecord, parisRecord } from '../export/fixtures.js';
import { runCli } from '../helpers/run-cli.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';
import { IMG, footprint, runner } from './locate-helpers.js';

const sb = withSandbox();
const tmp = () => mkdtempSync(join(tmpdir(), 'geo-history-'));

describe('geo history', () => {
  const data = tmp();
  const dirs = { GEO_DATA_DIR: data, GEO_STATE_DIR: tmp() };
  const elsewhere = { GEO_DATA_DIR: tmp(), GEO_STATE_DIR: tmp() };
  // No key and no base URL: history must never need them.
  const offline = (argv: string[], env = dirs) => runCli(argv, { env });
  let paid: { stdout: string };
  let again: { stdout: string };

  beforeAll(async () => {
    const locate = runner(sb);
    // Two runs of paris.jpg (--fresh pays again), one of tokyo.jpg; and, in another store (another
    // machine), the first run's Idempotency-Key again: the service replays it, free.
    paid = await locate(['locate', `${IMG}paris.jpg`, '--keep-metadata', '--json', '--idempotency-key', 'hist-1'], { env: dirs });
    again = await locate(['locate', `${IMG}paris.jpg`, '--keep-metadata', '--fresh'], { env: dirs });
    await locate(['locate', `${IMG}tokyo.jpg`, '--keep-metadata', '--depth', '2'], { env: dirs });
    await locate(['locate', `${IMG}paris.jpg`, '--keep-metadata', '--idempotency-key', 'hist-1'], { env: elsewhere });
  });

  it('lists stored results newest first: when, input, place, confidence, depth, analysis id, paid or replayed', async () => {
    const before = footprint(sb);
    const r = await offline(['history']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^WHEN\s+INPUT\s+PLACE\s+CONFIDENCE\s+DEPTH\s+ANALYSIS\s+CHARGE\s+PAID BY$/);
    expect(lines).toHaveLength(4);
    // Every answer here came from a sandbox: the CHARGE column says so (never evidence).
    // PAID BY: the local file's one analyst, this machine's OS user and host.
    const me = `${userInfo().username}@${hostname()}`;
    expect(lines[1]).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\s+.*tokyo\\.jpg\\s+.*Tokyo, Japan\\s+0\\.90\\s+2\\s+an_\\w+\\s+paid \\(sandbox\\)\\s+${me}$`));
    expect(lines[2]).toMatch(/paris\.jpg\s+Paris 16 Passy, Paris, France\s+0\.90\s+1\s+an_\w+\s+paid \(sandbox\)\s+\S+@\S+$/);
    expect(lines[3]).toMatch(/paris\.jpg .* paid \(sandbox\)\s+\S+@\S+$/);
    const other = (await offline(['history'], elsewhere)).stdout.trim().split('\n');
    expect(other[1]).toMatch(/paris\.jpg\s+Paris 16 Passy, Paris, France\s+0\.90\s+1\s+an_\w+\s+replayed \(sandbox\)\s+\S+@\S+$/);
    expect(footprint(sb)).toEqual(before);
  });

  it('--search matches input, place names and analysis id; --limit cuts and says so; --json gives rows', async () => {
    const json = JSON.parse((await offline(['history', '--json'])).stdout) as Array<Record<string, unknown>>;
    expect(json.map((x) => x.charge)).toEqual(['paid', 'paid', 'paid']);
    expect(json[0]).toMatchObject({ city: 'Tokyo', country: 'Japan', depth: 2, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const id = json[1]!.analysis_id as string;
    for (const text of ['PARIS', 'passy', 'france', 'paris.jpg']) {
      const found = JSON.parse((await offline(['history', '--search', text, '--json'])).stdout) as Array<Record<string, unknown>>;
      expect(found.map((x) => x.city), text).toEqual(['Paris', 'Paris']);
    }
    expect(JSON.parse((await offline(['history', '--search', id, '--json'])).stdout).map((x: { analysis_id: string }) => x.analysis_id)).toEqual([id]);
    const none = await offline(['history', '--search', 'nowhere-at-all']);
    expect([none.code, none.stdout]).toEqual([0, 'No stored result matches.\n']);
    const one = await offline(['history', '--limit', '1', '--format', 'ndjson']);
    expect(one.stdout.trim().split('\n')).toHaveLength(1);
    expect(one.stderr).toMatch(/1 of 3 stored results shown; --limit 3 for all/);
    const bad = await offline(['history', '--limit', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--limit must be a whole number/);
  });

  it('show renders the newest stored result exactly as locate did, by file, sha256 prefix or analysis id; --json is the body as received', async () => {
    const before = footprint(sb);
    const byFile = await offline(['history', 'show', `${IMG}paris.jpg`]);
    expect(byFile.code).toBe(0);
    // locate's view, opened by the mark a sandbox's answer carries (issue 30); locate said it in its banner on stderr.
    expect(byFile.stdout).toBe(`simulated answer (sandbox): not evidence\n${again.stdout}`);
    expect(byFile.stderr).toMatch(/read from the local store, nothing sent \(newest of 2 stored runs/);
    const id = (JSON.parse(paid.stdout) as { analysis_id: string }).analysis_id;
    expect((await offline(['history', 'show', id, '--json'])).stdout).toBe(paid.stdout);
    const raw = await offline(['history', 'show', '868735', '--json']);
    expect(raw.stdout).not.toBe(paid.stdout); // the newest run of that image
    expect(JSON.parse(raw.stdout).location.city).toBe('Paris');
    expect(footprint(sb)).toEqual(before);
  });

  it('show: no match and an ambiguous prefix exit 2 with a hint', async () => {
    const none = await offline(['history', 'show', 'an_nope']);
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/no stored result for "an_nope".*hint: .*geo history/);
    const neverLocated = await offline(['history', 'show', `${IMG}sydney.jpg`]);
    expect(neverLocated.code).toBe(2);
    expect(neverLocated.stderr).toMatch(/no stored result for .*sydney\.jpg/);
    const dir = tmp();
    // Records with fields this version does not know (an account fingerprint, deviations) still list.
    await saveRecord(dir, { ...parisRecord(), input: { path: 'a.jpg', sha256: 'abcdef01'.repeat(8) }, idempotency_key: 'key-a', account: 'fp_1', deviations: [] } as never);
    await saveRecord(dir, { ...parisRecord(), input: { path: 'b.jpg', sha256: 'abcdef02'.repeat(8) }, idempotency_key: 'key-b' });
    const env = { GEO_DATA_DIR: dir };
    const ambiguous = await runCli(['history', 'show', 'abcdef0'], { env });
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toMatch(/sha256 prefix abcdef0 matches 2 images.*hint: use more digits/);
    expect((await runCli(['history', 'show', 'abcdef01'], { env })).code).toBe(0);
    expect((await runCli(['history', '--json'], { env })).stdout).toContain('"a.jpg"');
  });

  it('server strings are escaped in the list and in show; --json still parses to what was stored', async () => {
    const dir = tmp();
    await saveRecord(dir, hostileRecord());
    const env = { GEO_DATA_DIR: dir };
    for (const argv of [['history'], ['history', 'show', 'abababab']]) {
      const r = await runCli(argv, { env }); // piped: no colour, so any escape would be the server's
      expect(r.code, argv.join(' ')).toBe(0);
      expect(r.stdout, argv.join(' ')).not.toMatch(/[\u001b\u202e]/);
    }
    const json = await runCli(['history', '--json'], { env });
    expect(JSON.parse(json.stdout)[0].city).toBe(hostileRecord().response.body.location.city);
  });

  it('an empty store says how results get there', async () => {
    const r = await runCli(['history'], { env: { GEO_DATA_DIR: tmp(), GEO_API_KEY: KEYS.pro } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/No stored results\. geo locate keeps one/);
  });
});
