/** geo credits against a real sandbox, TTY and piped. */
import { describe, expect, it } from 'vitest';
import { CreditsSchema } from '../../src/api/schemas.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';
import { ANSI, runner } from './locate-helpers.js';

const sb = withSandbox();
const run = runner(sb);

describe('geo credits', () => {
  it('piped: aligned plain rows, no ANSI', async () => {
    const r = await run(['credits']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).not.toMatch(ANSI);
    expect(r.stdout).toMatch(/^balance +\d+\napi balance +\d+\ntotal available +\d+\npurchased +(\d+|not reported)\nused +(\d+|not reported)\nfunding +api_only\n$/);
  });
  it('the funding line the README shows: data fields beyond the spec\'s five are listed, not dropped (issue 13)', async () => {
    const r = await run(['credits']);
    expect(r.stdout).toMatch(/^funding +api_only$/m);
  });
  it('on a terminal: same rows, keys dimmed', async () => {
    const r = await run(['credits'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(ANSI);
    expect(r.stdout).toContain('total available');
  });
  it('--json prints the body as received; it parses with CreditsSchema', async () => {
    const r = await run(['credits', '--json']);
    expect(r.code).toBe(0);
    const body = CreditsSchema.parse(JSON.parse(r.stdout));
    expect(body.data.api_balance).toBeGreaterThan(0);
    const table = await run(['credits']);
    expect(table.stdout).toMatch(new RegExp(`total available +${body.data.total_available}\n`));
  });
  it('401 exits 3', async () => {
    const r = await runner(sb, 'orca_sandbox_wrong')(['credits']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/the API key was refused \(401\)/);
  });
  it('a broke key still reads its balance (0)', async () => {
    const r = await runner(sb, KEYS.broke)(['credits', '--json']);
    expect(r.code).toBe(0);
    expect(CreditsSchema.parse(JSON.parse(r.stdout)).data.api_balance).toBe(0);
  });
});
