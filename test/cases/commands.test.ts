/**
 * geo cases create / list / link / show (issue 24) against a real sandbox: a case is recorded on
 * this machine as well as on the service (or on this machine only with --local, or when the
 * service cannot be reached: exit 6, said); the list shows both kinds and says which is which
 * (offline: the local ones, with a note); results already paid for are linked, each with its
 * custody entries; show works with no key and no network; bad references are one line, exit 2,
 * nothing written.
 */
import { describe, expect, it } from 'vitest';
import { CaseSchema } from '../../src/api/schemas.js';
import { verifyChain } from '../../src/evidence/custody-verify.js';
import { FIXTURES, startTestSandbox, withSandbox } from '../helpers/sandbox.js';
import { dbRows } from '../helpers/store.js';
import { caseId, caseRunner, custodyLines, custodyOf, events } from './helpers.js';

const sb = withSandbox();
/** No key and nothing listening: what "offline" means here. */
const OFFLINE = { GEO_API_KEY: undefined, GEO_BASE_URL: 'http://127.0.0.1:9' };

describe('geo cases create', () => {
  it('with flags: created on the service and recorded here with the service\'s id, its log begun', async () => {
    const { data, run } = caseRunner(sb);
    const r = await run(['cases', 'create', '--name', 'Harbour fire', '--description', 'Port footage', '--team', 'team_a', '--json']);
    expect(r.code).toBe(0);
    const body = CaseSchema.parse(JSON.parse(r.stdout));
    const [row] = dbRows(data, 'SELECT id, name, description, team, service, service_id, service_note, custody_entries FROM cases');
    expect(row).toMatchObject({ name: 'Harbour fire', description: 'Port footage', team: 'team_a', service: sb.url, service_id: body.id, service_note: null, custody_entries: 1 });
    const [first] = custodyOf(data, row!.id as string);
    expect(first).toMatchObject({ seq: 1, event: 'case_created', prev: '0'.repeat(64), data: { case: { id: row!.id, name: 'Harbour fire', description: 'Port footage', team: 'team_a', service: sb.url, service_id: body.id } } });
    expect(first!.user).not.toBe('');
    expect(first!.host).not.toBe('');
  });

  it('--local: no key, nothing sent, recorded on this machine only', async () => {
    const { data, run } = caseRunner(sb);
    const before = JSON.stringify(sb.ledger());
    const r = await run(['cases', 'create', '--name', 'Field notes', '--local'], { env: OFFLINE });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^id\s+lc_[0-9a-f]{12}\nname\s+Field notes\n[\s\S]*local\s+lc_[0-9a-f]{12}, on this machine only \(custody log begun\)\n$/);
    expect(JSON.stringify(sb.ledger())).toBe(before);
    expect(dbRows(data, 'SELECT service, service_id, service_note FROM cases')).toEqual([{ service: null, service_id: null, service_note: null }]);
  });

  it('the service cannot be reached: recorded on this machine only, marked so; one line, exit 6', async () => {
    const { data, run } = caseRunner(sb);
    const r = await run(['cases', 'create', '--name', 'Offline case'], { env: { GEO_BASE_URL: 'http://127.0.0.1:9' } });
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^error: the case was recorded on this machine only, as lc_[0-9a-f]{12}: the service could not be reached .* — hint: use it as it is \(--case lc_/);
    const [row] = dbRows(data, 'SELECT id, service, service_note FROM cases');
    expect(row).toMatchObject({ service: null, service_note: expect.stringMatching(/^the service could not be reached/) });
    const show = await run(['cases', 'show', 'Offline case'], { env: OFFLINE });
    expect(show.stdout).toMatch(/where\s+on this machine only \(the service could not be reached/);
  });

  it('a plan without cases (402): exit 4 and nothing recorded', async () => {
    const { data, run } = caseRunner(sb);
    const r = await run(['cases', 'create', '--name', 'n'], { env: { GEO_API_KEY: 'orca_sandbox_free' } });
    expect(r.code).toBe(4);
    expect(dbRows(data, 'SELECT count(*) AS n FROM cases')).toEqual([{ n: 0 }]);
  });
});

describe('geo cases list', () => {
  it('the service\'s and the local cases together, each saying where it is', async () => {
    const { run } = caseRunner(sb, undefined);
    const team = `team_${Date.now()}`;
    await run(['cases', 'create', '--name', 'On both', '--team', team]);
    await run(['cases', 'create', '--name', 'Only here', '--team', team, '--local']);
    // Made on the service by someone else (another data folder): the service knows it, this machine does not.
    await caseRunner(sb).run(['cases', 'create', '--name', 'Only there', '--team', team]);
    const r = await run(['cases', 'list', '--team', team, '--json']);
    expect(r.code).toBe(0);
    const rows = (JSON.parse(r.stdout) as { data: Array<{ name: string; where: string; local_id: string | null; results: number | null }> }).data;
    expect(rows.map((c) => [c.name, c.where, c.results])).toEqual([['Only there', 'service', null], ['On both', 'both', 0], ['Only here', 'local', 0]]);
    expect(rows.find((c) => c.name === 'Only here')!.local_id).toMatch(/^lc_/);
    const table = await run(['cases', 'list', '--team', team]);
    expect(table.stdout).toMatch(/^ID\s+NAME\s+WHERE\s+RESULTS/);
    expect(table.stdout).toMatch(/On both\s+both\s+0/);
  });

  it('a local case created on another service names that service\'s host in WHERE, not both (issue 34)', async () => {
    const { run } = caseRunner(sb);
    expect((await run(['cases', 'create', '--name', 'Made on the first'])).code).toBe(0);
    const other = await startTestSandbox();
    try {
      const r = await run(['cases', 'list'], { env: { GEO_BASE_URL: other.url } });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`Made on the first\\s+127\\.0\\.0\\.1:${sb.port}\\s+0`));
      const json = JSON.parse((await run(['cases', 'list', '--json'], { env: { GEO_BASE_URL: other.url } })).stdout) as { data: Array<{ name: string; where: string }> };
      expect(json.data.find((c) => c.name === 'Made on the first')!.where).toBe(`127.0.0.1:${sb.port}`);
      // On its own service it is still both.
      expect((await run(['cases', 'list'])).stdout).toMatch(/Made on the first\s+both\s+0/);
    } finally {
      await other.close();
    }
  });

  it('offline: the local cases alone, with a note saying why; exit 0', async () => {
    const { run } = caseRunner(sb);
    await run(['cases', 'create', '--name', 'Kept here', '--local']);
    const r = await run(['cases', 'list'], { env: OFFLINE });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Kept here\s+local\s+0/);
    expect(r.stderr).toBe('service cases not listed (no API key is configured): local cases only\n');
    const unreachable = await run(['cases', 'list'], { env: { GEO_BASE_URL: 'http://127.0.0.1:9' } });
    expect(unreachable.code).toBe(0);
    expect(unreachable.stderr).toMatch(/^service cases not listed \(.*\): local cases only\n$/);
  }, 20_000); // the unreachable service is retried as any GET is (about 4 s of back-off)
});

describe('geo cases link and show', () => {
  it('links results already paid for, each with answer_received and result_linked; show lists them offline with map links', async () => {
    const { data, run } = caseRunner(sb);
    expect((await run(['locate', FIXTURES + 'paris.jpg', FIXTURES + 'tokyo.jpg'])).code).toBe(0);
    await run(['cases', 'create', '--name', 'Linked', '--local']);
    const id = caseId(data, 'Linked');
    const r = await run(['cases', 'link', 'Linked', FIXTURES + 'paris.jpg', '2fdd8472'], { env: OFFLINE });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^linked \S+paris\.jpg \(result \d+\) to case lc_\w+\nlinked \S+tokyo\.jpg \(result \d+\) to case lc_\w+\n$/);
    const log = custodyOf(data, id);
    expect(events(log)).toEqual(['case_created', 'answer_received', 'result_linked', 'answer_received', 'result_linked']);
    expect(log[1]!.data.answer).toMatchObject({ status: 200, service: sb.url, sandbox: true, stored_at: expect.any(String) });
    expect((log[2]!.data.result as { answer_sha256: string }).answer_sha256).toBe((log[1]!.data.answer as { sha256: string }).sha256);
    // Again: already there, nothing appended.
    const again = await run(['cases', 'link', id, '868735296a0b'], { env: OFFLINE });
    expect(again.stdout).toMatch(/^already in case lc_\w+: \S+paris\.jpg/);
    expect(custodyLines(data, id)).toHaveLength(5);

    const show = await run(['cases', 'show', 'linked'], { env: OFFLINE });
    expect(show.code).toBe(0);
    expect(show.stderr).toBe('');
    // Both answers are the sandbox's: the view opens with their count (issue 30).
    expect(show.stdout).toMatch(/^2 simulated answers \(sandbox\): not evidence\ncase\s+lc_\w+ {2}Linked\n/);
    expect(show.stdout).toMatch(/custody\s+5 entries, chain verified; head [0-9a-f]{64}\n/);
    expect(show.stdout).toMatch(/results \(2\):\n {2}1\. \S+paris\.jpg {2}\(868735296a0b\)\n {5}simulated answer \(sandbox\): not evidence\n {5}.+confidence \d\.\d\d · depth 1 · an_\w+\n {5}https:\/\/www\.openstreetmap\.org\/\?mlat=/);
    const json = JSON.parse((await run(['cases', 'show', id, '--json'], { env: OFFLINE })).stdout);
    expect(json.results).toHaveLength(2);
    expect(json.results[0].map_links.map((m: { name: string }) => m.name)).toEqual(['Google Maps', 'OpenStreetMap', 'Apple Maps']);
    expect(json.custody).toMatchObject({ entries: 5, verified: true });
  });

  it.each([
    ['an unknown case', ['cases', 'link', 'Nobody', '868735296a0b'], /^error: no local case "Nobody" .* — hint: geo cases list shows them/],
    ['a result that does not exist', ['cases', 'link', 'Target', '868735296a0b', 'ffffff'], /^error: no stored result for "ffffff" .* — hint:/],
    ['a name several cases share', ['cases', 'link', 'Twice', '868735296a0b'], /^error: the name "Twice" matches 2 cases: lc_\w+ \(created \S+\), lc_\w+ .* — hint: name the case by its id/],
    ['show: an unknown case', ['cases', 'show', 'Nobody'], /^error: no local case "Nobody"/],
    ['show: a shared name', ['cases', 'show', 'twice'], /matches 2 cases/],
    ['verify: an unknown case', ['cases', 'verify', 'Nobody'], /^error: no local case "Nobody"/],
  ])('%s: one line, exit 2, nothing written', async (_n, argv, line) => {
    const { data, run } = caseRunner(sb);
    await run(['locate', FIXTURES + 'paris.jpg']);
    for (const name of ['Target', 'Twice', 'Twice']) await run(['cases', 'create', '--name', name, '--local']);
    const before = dbRows(data, 'SELECT (SELECT count(*) FROM custody) AS entries, (SELECT count(*) FROM case_results) AS links');
    const r = await run(argv, { env: OFFLINE });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(line);
    expect(dbRows(data, 'SELECT (SELECT count(*) FROM custody) AS entries, (SELECT count(*) FROM case_results) AS links')).toEqual(before);
    for (const c of dbRows<{ id: string }>(data, 'SELECT id FROM cases')) expect(verifyChain(custodyLines(data, c.id)).ok).toBe(true);
  });
});
