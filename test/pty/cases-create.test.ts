/**
 * Interactive case creation driven through a pseudo-terminal: the built binary asks for name,
 * description and team, shows a summary, confirms, and the case exists in the sandbox afterwards,
 * and on this machine too (issue 24), with its custody log begun; --local asks no key at all.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CaseListSchema } from '../../src/api/schemas.js';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';
import { KEY, builtBinaryOrThrow, spawnGeoInPty } from './pty.js';
import { dbRows } from '../helpers/store.js';

const sb = withSandbox();
beforeAll(() => builtBinaryOrThrow());

const env = () => ({ HOME: tempConfigDir(), GEO_CONFIG_DIR: tempConfigDir(), GEO_DATA_DIR: tempConfigDir(), GEO_BASE_URL: sb.url, GEO_API_KEY: KEYS.enterprise });

/** Cases of one team: every test uses its own team id, since the sandbox keeps cases per key. */
async function listed(e: Record<string, string>, team: string) {
  const r = await runCli(['cases', 'list', '--team', team, '--json'], { env: e });
  expect(r.code).toBe(0);
  return CaseListSchema.parse(JSON.parse(r.stdout)).data;
}

describe('geo cases create in a terminal', { timeout: 60_000 }, () => {
  it('asks for name, description and team, summarises, confirms and creates', async () => {
    const e = env();
    const t = spawnGeoInPty(['cases', 'create'], e);
    await t.waitFor('Case name');
    t.type('Harbour fire');
    t.type(KEY.enter);
    await t.waitFor('Description (optional)');
    t.type('Port footage from May');
    t.type(KEY.enter);
    await t.waitFor('Team id (optional');
    t.type('team_blue');
    t.type(KEY.enter);
    await t.waitFor('Create this case?');
    expect(t.screen()).toMatch(/New case:\s+name\s+Harbour fire\s+description\s+Port footage from May\s+team\s+team_blue/);
    t.type('y');
    t.type(KEY.enter);
    expect(await t.exit).toBe(0);
    expect(t.screen()).toMatch(/id\s+case_\S+/);
    expect(t.screen()).toMatch(/Created case case_/);
    const cases = await listed(e, 'team_blue');
    expect(cases).toEqual([expect.objectContaining({ name: 'Harbour fire', description: 'Port footage from May', teamId: 'team_blue' })]);
    // Recorded here too, under geo's own id, beside the service's, its custody log begun.
    expect(t.screen()).toMatch(/local\s+lc_[0-9a-f]{12} \(custody log begun\)/);
    expect(dbRows(e.GEO_DATA_DIR, 'SELECT name, description, team, service_id, custody_entries FROM cases')).toEqual([
      { name: 'Harbour fire', description: 'Port footage from May', team: 'team_blue', service_id: cases[0]!.id, custody_entries: 1 },
    ]);
  });

  it('--local: asks, confirms, records on this machine only; no key needed, nothing sent', async () => {
    const e = { ...env(), GEO_API_KEY: '', GEO_BASE_URL: 'http://127.0.0.1:9' };
    const t = spawnGeoInPty(['cases', 'create', '--local'], e);
    await t.waitFor('Case name');
    t.type('Field notes');
    t.type(KEY.enter);
    await t.waitFor('Description (optional)');
    t.type(KEY.enter);
    await t.waitFor('Team id (optional');
    t.type(KEY.enter);
    await t.waitFor('Create this case?');
    expect(t.screen()).toMatch(/New case \(on this machine only\):\s+name\s+Field notes/);
    t.type(KEY.enter);
    expect(await t.exit).toBe(0);
    expect(t.screen()).toMatch(/Created case lc_[0-9a-f]{12}, on this machine only/);
    expect(dbRows(e.GEO_DATA_DIR, 'SELECT name, service FROM cases')).toEqual([{ name: 'Field notes', service: null }]);
  });

  it('no key: refused before any question, with --local as the way on (not --sandbox); so with --name and no terminal', async () => {
    const e = { ...env(), GEO_API_KEY: '' };
    const t = spawnGeoInPty(['cases', 'create'], e);
    expect(await t.exit).toBe(3);
    expect(t.screen()).not.toContain('Case name');
    const said = t.screen().replace(/\s+/g, ' ');
    expect(said).toMatch(/error: no API key is configured/);
    expect(said).toContain('`geo cases create --local` keeps the case on this machine only, with no key');
    expect(said).not.toContain('--sandbox');
    const piped = await runCli(['cases', 'create', '--name', 'Harbour fire'], { env: e });
    expect(piped.code).toBe(3);
    expect(piped.stderr).toBe('error: no API key is configured — hint: `geo cases create --local` keeps the case on this machine only, with no key; to create it on the service too, set GEO_API_KEY or run `geo keys add`\n');
    expect(dbRows(e.GEO_DATA_DIR, 'SELECT name FROM cases')).toEqual([]);
  });

  it('the name is required: an empty answer is refused and asked again', async () => {
    const e = env();
    const t = spawnGeoInPty(['cases', 'create', '--team', 'team_red'], e);
    await t.waitFor('Case name');
    t.type(KEY.enter);
    await t.waitFor('You must provide a value');
    t.type('Second try');
    t.type(KEY.enter);
    await t.waitFor('Description (optional)');
    t.type(KEY.enter);
    await t.waitFor('Create this case?');
    expect(t.screen()).not.toContain('Team id');
    t.type(KEY.enter); // default yes
    expect(await t.exit).toBe(0);
    expect((await listed(e, 'team_red')).map((c) => [c.name, c.description, c.teamId])).toEqual([['Second try', '', 'team_red']]);
  });

  it('answering no creates nothing and exits 2 (a choice, not Ctrl-C\'s 130)', async () => {
    const e = env();
    const t = spawnGeoInPty(['cases', 'create', '--name', 'Not wanted', '--description', 'x'], e);
    await t.waitFor('Team id');
    t.type('team_no');
    t.type(KEY.enter);
    await t.waitFor('Create this case?');
    t.type('n');
    t.type(KEY.enter);
    expect(await t.exit).toBe(2);
    expect(t.screen()).toMatch(/you said no: no case created, nothing sent/);
    expect(t.screen()).not.toMatch(/nothing more was sent/);
    expect(await listed(e, 'team_no')).toEqual([]);
  });

  it('Ctrl-C at a question cancels with exit 130', async () => {
    const e = env();
    const t = spawnGeoInPty(['cases', 'create', '--team', 'team_ctrlc'], e);
    await t.waitFor('Case name');
    t.type('Half');
    t.type(KEY.ctrlC);
    expect(await t.exit).toBe(130);
    expect(await listed(e, 'team_ctrlc')).toEqual([]);
  });

  it('with --no-input in a terminal nothing is asked: exit 2', async () => {
    const t = spawnGeoInPty(['cases', 'create', '--no-input'], env());
    expect(await t.exit).toBe(2);
    expect(t.screen()).toMatch(/--name is required/);
    expect(t.screen()).not.toContain('Case name');
  });
});
