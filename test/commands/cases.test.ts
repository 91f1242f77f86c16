/** geo cases list/create against a real sandbox: tables when piped and on a TTY, JSON as received. */
import { beforeAll, describe, expect, it } from 'vitest';
import { CaseListSchema, CaseSchema } from '../../src/api/schemas.js';
import { withSandbox } from '../helpers/sandbox.js';
import { type RunOptions, runCli } from '../helpers/run-cli.js';
import { stripAnsi } from '../pty/pty.js';

const sb = withSandbox();

const as = (key: string) => (argv: string[], opts: RunOptions = {}) => runCli(argv, { ...opts, env: { GEO_BASE_URL: sb.url, GEO_API_KEY: key, CI: undefined, ...opts.env } });

describe('geo cases create', () => {
  it('with flags and no terminal: prints the case; --json is the body as received', async () => {
    const run = as('orca_sandbox_enterprise');
    const r = await run(['cases', 'create', '--name', 'Harbour fire', '--description', 'Port footage, May', '--team', 'team_a']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^id\s+case_\S+\nname\s+Harbour fire\ndescription\s+Port footage, May\nteam\s+team_a\ncreated\s+\d{4}-\d\d-\d\d \d\d:\d\d UTC\nupdated\s+\d{4}-\d\d-\d\d \d\d:\d\d UTC\nlocal\s+lc_[0-9a-f]{12} \(custody log begun\)\n$/);
    const j = await run(['cases', 'create', '--name', 'Second', '--json']);
    expect(j.code).toBe(0);
    const body = CaseSchema.parse(JSON.parse(j.stdout));
    expect(body).toMatchObject({ name: 'Second', description: '' });
  });

  it('on a TTY with every flag given: no questions, the case, a note on stderr', async () => {
    const r = await as('orca_sandbox_pro')(['cases', 'create', '--name', 'Tty case', '--description', 'd', '--team', 't'], { tty: true });
    expect(r.code).toBe(0);
    expect(stripAnsi(r.stdout)).toMatch(/name\s+Tty case/);
    expect(r.stderr).toMatch(/^Created case case_\S+\nRecorded here as lc_[0-9a-f]{12}\n$/);
  });

  it.each([
    ['no terminal', { tty: false }],
    ['--no-input on a terminal', { tty: true, argv: ['--no-input'] }],
    ['CI on a terminal', { tty: true, env: { CI: 'true' } }],
  ] as const)('a missing name is a usage error with %s (exit 2, nothing sent)', async (_label, o) => {
    const before = JSON.stringify(sb.ledger());
    const r = await as('orca_sandbox_pro')(['cases', 'create', '--description', 'x', ...('argv' in o ? o.argv : [])], { tty: o.tty, columns: 300, ...('env' in o ? { env: o.env } : {}) });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/a case needs a name: --name is required .* — hint: geo cases create --name/);
    expect(JSON.stringify(sb.ledger())).toBe(before);
  });

  it('an empty name is a usage error', async () => {
    const r = await as('orca_sandbox_pro')(['cases', 'create', '--name', '   ']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/needs a name/);
  });

  it('free and starter plans get 402: exit 4', async () => {
    for (const key of ['orca_sandbox_free', 'orca_sandbox_starter']) {
      const r = await as(key)(['cases', 'create', '--name', 'n']);
      expect(r.code).toBe(4);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toContain(key);
    }
  });

  it('a bad key is exit 3 and never printed, with or without --debug', async () => {
    const bad = 'orca_live_thisisnotakey5555';
    for (const debug of [[], ['--debug']]) {
      const r = await as(bad)(['cases', 'list', ...debug]);
      expect(r.code).toBe(3);
      expect(r.stdout + r.stderr).not.toContain(bad);
    }
  });
});

describe('geo cases list', () => {
  const run = as('orca_sandbox_nohistory');
  beforeAll(async () => {
    await run(['cases', 'create', '--name', 'Alpha', '--description', 'first', '--team', 'red']);
    await run(['cases', 'create', '--name', 'Beta', '--team', 'blue']);
    // A hostile server string: an ANSI colour sequence and a newline must not reach the terminal.
    await run(['cases', 'create', '--name', 'Evil\u001b[31m red\nline', '--team', 'red']);
  });

  it('piped: plain aligned columns, control characters escaped', async () => {
    const r = await run(['cases', 'list']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+WHERE\s+RESULTS\s+DESCRIPTION\s+TEAM\s+CREATED\s+UPDATED$/);
    expect(lines).toHaveLength(4);
    expect(r.stdout).toContain('Evil\\x1b[31m red\\nline');
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).toMatch(/Alpha\s+service\s+first\s+red\s+\d{4}-/);
  });

  it('TTY: a boxed table', async () => {
    const r = await run(['cases', 'list'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/┌/);
    expect(r.stdout).toMatch(/│ Beta\s+│/);
  });

  it('--team and --limit filter; --json parses with the contract schema', async () => {
    const r = await run(['cases', 'list', '--team', 'red', '--json']);
    expect(r.code).toBe(0);
    const body = CaseListSchema.parse(JSON.parse(r.stdout));
    expect(body.data.map((c) => c.name).sort()).toEqual(['Alpha', 'Evil\u001b[31m red\nline']);
    const one = CaseListSchema.parse(JSON.parse((await run(['cases', 'list', '--limit', '1', '--format', 'json'])).stdout));
    expect(one.data).toHaveLength(1);
    const nd = (await run(['cases', 'list', '--format', 'ndjson'])).stdout.trim().split('\n');
    expect(nd.map((l) => CaseSchema.parse(JSON.parse(l)).name)).toHaveLength(3);
  });

  it.each(['0', '201', 'ten', '1.5'])('--limit %s is a usage error before any request', async (limit) => {
    const r = await run(['cases', 'list', '--limit', limit]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--limit must be a whole number from 1 to 200/);
  });

  it('an empty list says how to create one', async () => {
    const r = await as('orca_sandbox_d1cap')(['cases', 'list']);
    expect(r).toEqual({ code: 0, stdout: 'No cases yet. Create one with: geo cases create\n', stderr: '' });
  });
});
