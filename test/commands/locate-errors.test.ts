/** geo locate failures from a real sandbox: one line with a hint on stderr and the DESIGN.md exit code. */
import { describe, expect, it } from 'vitest';
import { KEYS, withSandbox } from '../helpers/sandbox.js';
import { IMG, footprint, runner } from './locate-helpers.js';

const sb = withSandbox();
const PARIS = `${IMG}paris.jpg`;

describe('geo locate errors', () => {
  it('401: an unknown key exits 3 and never prints the key', async () => {
    const r = await runner(sb, 'orca_sandbox_nosuchkey')(['locate', PARIS]);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/error: the API key was refused \(401\).* — hint: it comes from GEO_API_KEY, which wins over profiles/);
    expect(r.stderr).not.toContain('nosuchkey');
  });

  it('no key at all exits 3 with a hint, nothing sent', async () => {
    const r = await runner(sb, '')(['locate', PARIS]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/no API key is configured — hint: set GEO_API_KEY/);
  });

  it('402: a key without credits exits 4 with the balance and the cost', async () => {
    const r = await runner(sb, KEYS.broke)(['locate', PARIS, '--depth', '3']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/error: not enough credits: balance 0, this call costs 10 \(402\)/);
    expect(r.stderr).toContain('nothing was charged');
  });

  it('402 prepaid_credits_exhausted: contact the operator, do not retry', async () => {
    const r = await runner(sb, KEYS.exhausted)(['locate', PARIS]);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/prepaid enterprise allocation is spent.* — hint: contact your operator; do not retry/);
  });

  it('403 depth_not_permitted: "this key allows depth <= 1; try --depth 1"', async () => {
    const r = await runner(sb, KEYS.d1cap)(['locate', PARIS, '--depth', '2']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/error: this key allows depth <= 1.* — hint: try --depth 1/);
  });

  it('a free key asking for depth 3 is told its limit (exit 3)', async () => {
    const r = await runner(sb, KEYS.free)(['locate', PARIS, '--depth', '3']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/this key allows depth <= 1|\(403\)/);
  });

  it('422 webhook_required_for_async: history off and --async', async () => {
    const r = await runner(sb, KEYS.nohistory)(['locate', PARIS, '--async']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/async needs analysis history.* — hint: drop --async/);
  });

  it('403 forbidden: the server\'s own message and hint, not a generic line (issue 13)', async () => {
    const r = await runner(sb)(['locate', PARIS, '--batch-id', 'batch_sandbox']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/error: a pro key may not submit to a batch \(batch:submit needs enterprise\) \(403\).* — hint: This key lacks the grant/);
  });

  it('402 that is about the plan, not the balance (cases on a free key): the server\'s words, no depth costs', async () => {
    const r = await runner(sb, KEYS.free)(['cases', 'list']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/error: the free plan does not include cases \(402\).* — hint: Cases need a pro or enterprise plan\./);
    expect(r.stderr).not.toContain('depth costs');
  });

  it('404: an unknown batch_id exits 2 with a hint', async () => {
    const r = await runner(sb, KEYS.enterprise)(['locate', PARIS, '--batch-id', 'batch_nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\(404\).* — hint: /);
  });

  it('the batch owner gets batch_id echoed in the view', async () => {
    const r = await runner(sb, KEYS.enterprise)(['locate', PARIS, '--batch-id', 'batch_sandbox', '--effort', 'low']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/depth 1 \(Surface\) · effort low · batch batch_sandbox · model orca-1\.5/);
  });

  it('an errored request is not charged', async () => {
    const before = footprint(sb, KEYS.broke);
    await runner(sb, KEYS.broke)(['locate', PARIS]);
    expect(footprint(sb, KEYS.broke).debits).toBe(before.debits);
  });
});
