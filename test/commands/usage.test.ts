/** geo usage against a real sandbox: the open object flattened, TTY and piped, JSON as received. */
import { describe, expect, it } from 'vitest';
import { UsageSchema } from '../../src/api/schemas.js';
import { withSandbox } from '../helpers/sandbox.js';
import { ANSI, runner } from './locate-helpers.js';

const sb = withSandbox();
const run = runner(sb);

describe('geo usage', () => {
  it('piped: the open data object flattened into dotted key/value rows', async () => {
    const json = UsageSchema.parse(JSON.parse((await run(['usage', '--json'])).stdout));
    const r = await run(['usage']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(ANSI);
    const keys = r.stdout.trimEnd().split('\n').map((l) => l.split(/\s{2,}/)[0]);
    expect(keys.length).toBeGreaterThan(0);
    for (const k of Object.keys(json.data)) expect(keys.some((row) => row === k || row!.startsWith(`${k}.`))).toBe(true);
  });
  it('on a terminal', async () => {
    const r = await run(['usage'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(ANSI);
  });
  it('--format ndjson prints one {key, value} line per row', async () => {
    const r = await run(['usage', '--format', 'ndjson']);
    expect(r.code).toBe(0);
    for (const line of r.stdout.trimEnd().split('\n')) expect(Object.keys(JSON.parse(line))).toEqual(['key', 'value']);
  });
});
