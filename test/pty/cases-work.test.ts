/**
 * `geo cases work` driven in a pseudo-terminal, the way an analyst works a case: on a case holding
 * a located photo (the sandbox, depth 3) a clue is accepted with a reason, an observation written
 * and a conclusion made. The entries it appends carry the same event and data as those the flags
 * append to a second case holding the same result (geo cases clues … accept, note --observation,
 * conclude). Esc stops, keeping what was written and saying so; without a terminal nothing is
 * asked: exit 2, one line naming the flags.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { machineEnv, runCli } from '../helpers/run-cli.js';
import { FIXTURES, KEYS, withSandbox } from '../helpers/sandbox.js';
import { caseId, custodyOf } from '../cases/helpers.js';
import { KEY, builtBinaryOrThrow, spawnGeoInPty } from './pty.js';

const sb = withSandbox();
const env = { ...machineEnv(), GEO_API_KEY: KEYS.pro, GEO_BASE_URL: '', CI: undefined };
const geo = (argv: string[], opts: Parameters<typeof runCli>[1] = {}) => runCli(argv, { ...opts, env });
const PARIS = join(FIXTURES, 'paris.jpg');
const BECAUSE = 'the same traffic side on the street view';
const SEEN = 'Haussmann facades and a Metro entrance';
const GROUNDS = 'facades and the Metro entrance match Avenue George V';

/**
 * A local case holding the photo's depth-3 result; its id. `locate`: located into the case (the
 * answer is the stored one after the first time: the same bytes, nothing paid again); else linked.
 */
async function caseWithParis(name: string, how: 'locate' | 'link' = 'link'): Promise<string> {
  expect((await geo(['cases', 'create', '--name', name, '--local'])).code).toBe(0);
  const r = await geo(how === 'locate' ? ['locate', PARIS, '--depth', '3', '--case', name, '--yes'] : ['cases', 'link', name, PARIS]);
  expect(r.code, r.stderr).toBe(0);
  return caseId(env.GEO_DATA_DIR, name);
}

/** The entries after the first `from`, as what they say: event and data (no times, hashes or authors). */
const said = (id: string, from: number) => custodyOf(env.GEO_DATA_DIR, id).slice(from).map((e) => ({ event: e.event, data: e.data }));

beforeAll(async () => {
  builtBinaryOrThrow();
  env.GEO_BASE_URL = sb.url;
  const located = await geo(['locate', PARIS, '--depth', '3', '--yes']);
  expect(located.code, located.stderr).toBe(0);
});

describe('geo cases work in a terminal', { timeout: 90_000 }, () => {
  it('a clue accepted with a reason, an observation, a conclusion: the entries the flags write', async () => {
    const worked = await caseWithParis('Worked', 'locate');
    const flagged = await caseWithParis('Flagged', 'locate');
    const before = custodyOf(env.GEO_DATA_DIR, worked).length;
    expect(custodyOf(env.GEO_DATA_DIR, flagged).length).toBe(before);

    const t = spawnGeoInPty(['cases', 'work', 'Worked'], env, { columns: 100, rows: 50 });
    // The result as the case shows it, with its witnesses and its items by id.
    await t.waitFor('r1.clue1: accept, reject or skip?');
    expect(t.screen()).toMatch(/r1 of 1 \S*paris\.jpg/);
    expect(t.screen()).toContain('simulated answer (sandbox): not evidence');
    expect(t.screen()).toMatch(/EXIF\s+contradicts: EXIF GPS 48\.858370, 2\.294481/);
    expect(t.screen()).toMatch(/sun\s+\S/);
    expect(t.screen()).toMatch(/C2PA\s+none \(no content credentials in the file\)\r?\n/);
    expect(t.screen()).toMatch(/r1\.cand1 candidate: /);
    t.type(KEY.enter); // Accept
    await t.waitFor('Why accept r1.clue1?');
    t.type(BECAUSE);
    t.type(KEY.enter);
    await t.waitFor('r1.clue2: accept, reject or skip?');
    expect(t.screen()).toMatch(/r1\.clue1 accepted: entry \d+ of case lc_/);
    t.type(`${KEY.down}${KEY.down}${KEY.down}`); // Skip the rest of r1
    t.type(KEY.enter);
    await t.waitFor('A note on r1?');
    t.type(KEY.down); // An observation
    t.type(KEY.enter);
    await t.waitFor('Observation (what is seen) on r1:');
    t.type(SEEN);
    t.type(KEY.enter);
    await t.waitFor(/observation noted: entry \d+[\s\S]*A note on r1\?/);
    t.type(KEY.enter); // No, go on
    await t.waitFor('What next?');
    t.type(KEY.down.repeat(5)); // Conclude
    t.type(KEY.enter);
    await t.waitFor('Where: a place or LAT,LNG:');
    t.type('48.8698,2.3078');
    t.type(KEY.enter);
    await t.waitFor('Within how many metres');
    t.type('150');
    t.type(KEY.enter);
    await t.waitFor('How sure?');
    t.type(KEY.enter); // probable, pointed at first
    await t.waitFor('Because (the grounds):');
    t.type(GROUNDS);
    t.type(KEY.enter);
    await t.waitFor('Resting on which results?');
    t.type(KEY.enter); // r1, the case's results
    await t.waitFor(/concluded: entry \d+[\s\S]*What next\?/);
    t.type(KEY.enter); // Done
    expect(await t.exit).toBe(0);
    expect(t.screen()).toMatch(/3 entries written to case lc_[0-9a-f]+ \(entries \d+, \d+, \d+\)/);

    for (const argv of [
      ['cases', 'clues', 'Flagged', 'accept', 'r1.clue1', '--because', BECAUSE],
      ['cases', 'note', 'Flagged', '--observation', SEEN, '--result', 'r1'],
      ['cases', 'conclude', 'Flagged', '--at', '48.8698,2.3078', '--within', '150', '--confidence', 'probable', '--because', GROUNDS, '--result', 'r1'],
    ]) {
      const r = await geo(argv);
      expect(r.code, r.stderr).toBe(0);
    }
    const fromWork = said(worked, before);
    expect(fromWork.map((e) => e.event)).toEqual(['clue_judged', 'note_made', 'conclusion_made']);
    expect(fromWork).toEqual(said(flagged, before));
  });

  it('Esc stops: the judgement already written stays, and the error line says which entry; exit 130', async () => {
    const id = await caseWithParis('Stopped');
    const before = custodyOf(env.GEO_DATA_DIR, id).length;
    const t = spawnGeoInPty(['cases', 'work', id], env, { columns: 100, rows: 50 });
    await t.waitFor('r1.clue1: accept, reject or skip?');
    t.type(KEY.down); // Reject
    t.type(KEY.enter);
    await t.waitFor('Why reject r1.clue1?');
    t.type('no such signs there');
    t.type(KEY.enter);
    await t.waitFor('r1.clue2: accept, reject or skip?');
    t.type('\u001b');
    expect(await t.exit).toBe(130);
    expect(t.screen().replace(/\s+/g, ' ')).toMatch(new RegExp(`stopped: 1 entry written to case ${id} \\(entry ${before + 1}\\) stays in its log`));
    expect(said(id, before)).toEqual([{ event: 'clue_judged', data: { judgement: expect.objectContaining({ clue: 'r1.clue1', verdict: 'rejected', because: 'no such signs there' }) } }]);
  });
});

describe('geo cases work without a terminal', () => {
  it.each([
    ['stdin is not a terminal', {}],
    ['stdout is not a terminal', { tty: { stdin: true, stdout: false, stderr: true } }],
    ['--no-input', { tty: true, extra: ['--no-input'] }],
  ] as const)('%s: exit 2, one line naming the flags, nothing asked or appended', async (why, o) => {
    const id = await caseWithParis(`Refused ${why}`);
    const before = custodyOf(env.GEO_DATA_DIR, id).length;
    // As wide as the line: on a terminal stderr's lines are fitted to its width.
    const r = await geo(['cases', 'work', id, ...('extra' in o ? o.extra : [])], { columns: 1000, ...('tty' in o ? { tty: o.tty } : {}) });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`asks none here (${why})`);
    for (const flags of ['geo cases clues CASE accept|reject', 'geo cases note CASE --observation', 'geo cases rule-out CASE', 'geo cases conclude CASE']) expect(r.stderr).toContain(flags);
    expect(custodyOf(env.GEO_DATA_DIR, id).length).toBe(before);
  });
});
