/** geo analyses against a real sandbox: search, city, limit, TTY and piped, JSON as received. */
import { beforeAll, describe, expect, it } from 'vitest';
import { AnalysesListSchema } from '../../src/api/schemas.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';
import { ANSI, IMG, footprint, runner } from './locate-helpers.js';

const sb = withSandbox();
const run = runner(sb, KEYS.starter);

beforeAll(async () => {
  for (const img of ['paris.jpg', 'tokyo.jpg', 'sydney.jpg']) expect((await run(['locate', `${IMG}${img}`, '--keep-metadata'])).code).toBe(0);
});

describe('geo analyses', () => {
  it('piped: a plain table with the known columns', async () => {
    const r = await run(['analyses']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(ANSI);
    const [head, ...rows] = r.stdout.trimEnd().split('\n');
    expect(head).toMatch(/^ID +CREATED +NEIGHBORHOOD +CITY +COUNTRY +COORDINATES +CONFIDENCE +DEPTH$/);
    expect(rows).toHaveLength(3);
    expect(rows.join('\n')).toMatch(/an_[0-9a-f]+ .*Paris.*France.* 1$/m);
  });
  it('on a terminal: a boxed table', async () => {
    const r = await run(['analyses'], { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('┌');
    expect(r.stdout).toMatch(ANSI);
  });
  it('--json prints the body as received (every field), parsed with the schema', async () => {
    const r = await run(['analyses', '--json', '--limit', '2']);
    expect(r.code).toBe(0);
    const body = AnalysesListSchema.parse(JSON.parse(r.stdout));
    expect(body.data).toHaveLength(2);
  });
  it('-S/--search TEXT searches (gh\'s name), and so do --query (the earlier name) and a positional TEXT', async () => {
    const a = await run(['analyses', '-S', 'tokyo', '--json']);
    expect(a.code).toBe(0);
    const items = AnalysesListSchema.parse(JSON.parse(a.stdout)).data;
    expect(items.length).toBe(1);
    expect(JSON.stringify(items[0])).toMatch(/tokyo/i);
    for (const argv of [['--search', 'tokyo'], ['--query', 'tokyo'], ['tokyo']]) {
      expect(JSON.parse((await run(['analyses', ...argv, '--json'])).stdout).data, argv.join(' ')).toEqual(items);
    }
  });
  it('-q is --quiet here too: `geo analyses --limit 1 -q` lists one analysis', async () => {
    const r = await run(['analyses', '--limit', '1', '-q', '--json']);
    expect(r.code).toBe(0);
    expect(AnalysesListSchema.parse(JSON.parse(r.stdout)).data).toHaveLength(1);
  });
  it('--city filters by slug; no match prints a friendly line', async () => {
    const r = await run(['analyses', '--city', 'nowhere-at-all']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('No analyses found.\n');
  });
  it.each([['0'], ['201'], ['1e2'], ['0x10'], ['ten'], ['']])('--limit %j exits 2 and sends nothing', async (v) => {
    const before = footprint(sb, KEYS.starter);
    const r = await run(['analyses', '--limit', v]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--limit must be a whole number from 1 to 200/);
    expect(footprint(sb, KEYS.starter)).toEqual(before);
  });
});
