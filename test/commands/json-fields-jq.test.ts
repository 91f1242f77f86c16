/**
 * Issue 22, gh's scripting conventions: `--json FIELDS` and `--jq EXPR` on locate, history,
 * analyses, cases list, credits, usage and api, run as a user runs them (the built binary) with
 * no jq program on PATH: the expression runs inside geo. An unknown field names the available
 * ones and a bad expression gives jq's message, both exit 2, and for locate nothing is sent.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, ledgerFigures, makeImages } from '../batch/helpers.js';
import { spawnGeo, tempConfigDir } from '../helpers/run-cli.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';

const sb = withSandbox();
/** A PATH with no jq on it (an empty folder): geo needs none. */
const NO_JQ_PATH = mkdtempSync(join(tmpdir(), 'geo-no-jq-'));
let dirs: Record<string, string>;

const geo = (argv: string[], env: Record<string, string> = {}) =>
  spawnGeo(argv, { env: { PATH: NO_JQ_PATH, GEO_BASE_URL: sb.url, GEO_API_KEY: KEYS.pro, ...dirs, ...env } });
const lines = (s: string) => s.trim().split('\n');

beforeAll(async () => {
  expect(spawnSync('sh', ['-c', 'command -v jq'], { env: { PATH: NO_JQ_PATH } }).status).not.toBe(0);
  dirs = { GEO_STATE_DIR: tempConfigDir(), GEO_DATA_DIR: tempConfigDir() };
  // Something to list: a stored result, a saved analysis, a case.
  expect((await geo(['locate', join(FIXTURES, 'paris.jpg'), '--depth', '2'])).code).toBe(0);
  expect((await geo(['cases', 'create', '--name', 'Harbour fire', '--no-input'])).code).toBe(0);
}, 60_000);

describe('--json FIELDS', () => {
  it('credits: the chosen fields of data', async () => {
    const r = await geo(['credits', '--json', 'balance,total_available']);
    expect(r.code).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout))).toEqual(['balance', 'total_available']);
  });

  it('usage: a field of its open data', async () => {
    const r = await geo(['usage', '--json', 'meter']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).meter.status).toBe('active');
  });

  it('analyses --json id,city: an array of the items\' fields, not a search for "id,city"', async () => {
    const r = await geo(['analyses', '--json', 'id,city']);
    expect(r.code).toBe(0);
    const items = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(items.length).toBeGreaterThan(0);
    expect(Object.keys(items[0]!)).toEqual(['id', 'city']);
    expect(items[0]!.id).toMatch(/^an_/);
  });

  it('cases list: the cases\' fields', async () => {
    const r = await geo(['cases', 'list', '--json', 'id,name']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toContainEqual({ id: expect.any(String), name: 'Harbour fire' });
  });

  it('history: the rows\' fields', async () => {
    const r = await geo(['history', '--json', 'input,depth']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ input: join(FIXTURES, 'paris.jpg'), depth: 2 }]);
  });

  it('locate, several inputs: one line per input with the chosen fields, a body field read from the result', async () => {
    const r = await geo(['locate', makeImages(3), '--json', 'input,ok,confidence']);
    expect(r.code).toBe(0);
    const recs = lines(r.stdout).map((l) => JSON.parse(l));
    expect(recs).toHaveLength(3);
    for (const rec of recs) {
      expect(Object.keys(rec)).toEqual(['input', 'ok', 'confidence']);
      expect(rec.ok).toBe(true);
      expect(typeof rec.confidence).toBe('number');
    }
  });

  it('api: the top-level fields of the body', async () => {
    const r = await geo(['api', 'credits', '--json', 'data']);
    expect(r.code).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout))).toEqual(['data']);
  });

  it('an unknown field exits 2 naming the available ones; for locate before anything is sent', async () => {
    const before = ledgerFigures(sb.ledger(), KEYS.pro).geolocateRequests;
    const r = await geo(['locate', join(FIXTURES, 'tokyo.jpg'), '--json', 'city,confidense']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/unknown JSON fields "city", "confidense" for geo locate — hint: available fields: input, sha256, .*confidence/);
    expect(ledgerFigures(sb.ledger(), KEYS.pro).geolocateRequests).toBe(before);
    const credits = await geo(['credits', '--json', 'nope']);
    expect(credits.code).toBe(2);
    expect(credits.stderr).toMatch(/unknown JSON field "nope" for geo credits — hint: available fields: balance, api_balance, total_available/);
  });

  it('--json alone keeps its meaning, and a file after it stays an input', async () => {
    const r = await geo(['locate', '--json', join(FIXTURES, 'paris.jpg')]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).success).toBe(true);
  });
});

describe('--jq EXPR (no jq on PATH)', () => {
  it('credits, usage, api: one value each', async () => {
    expect((await geo(['credits', '--jq', '.data.total_available'])).stdout).toMatch(/^\d+\n$/);
    expect((await geo(['usage', '--jq', '.data.meter.status'])).stdout).toBe('active\n');
    expect((await geo(['api', 'credits', '--jq', '.data | keys | length'])).stdout).toMatch(/^\d+\n$/);
  });

  it('analyses, cases list and history: strings raw, one per line', async () => {
    expect(lines((await geo(['analyses', '--jq', '.data[].analysis_id'])).stdout)[0]).toMatch(/^an_[0-9a-f]+$/);
    expect((await geo(['cases', 'list', '--jq', '.data[].name'])).stdout).toContain('Harbour fire\n');
    expect(lines((await geo(['history', '--search', 'paris.jpg', '--jq', '.[].input'])).stdout)).toContain(join(FIXTURES, 'paris.jpg'));
  });

  it('locate: one image\'s body, and each line of a batch as it arrives; implies JSON', async () => {
    const one = await geo(['locate', join(FIXTURES, 'paris.jpg'), '--depth', '2', '--jq', '{city: .location.city, depth}']);
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout)).toEqual({ city: expect.any(String), depth: 2 });
    const many = await geo(['locate', makeImages(2), '--jq', '.result.depth']);
    expect(many.stdout).toBe('1\n1\n');
  });

  it('--json FIELDS then --jq', async () => {
    // The oldest stored result is the first locate, at depth 2.
    const r = await geo(['history', '--json', 'depth', '--jq', '.[-1].depth']);
    expect(r.stdout).toBe('2\n');
  });

  it('a bad expression exits 2 with jq\'s message; for locate nothing is sent', async () => {
    const before = ledgerFigures(sb.ledger(), KEYS.pro).geolocateRequests;
    const r = await geo(['locate', join(FIXTURES, 'tokyo.jpg'), '--jq', '.location |||']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: --jq: jq: error: syntax error, unexpected '\|'.*compile error — hint: /m);
    expect(ledgerFigures(sb.ledger(), KEYS.pro).geolocateRequests).toBe(before);
  });

  it('an expression that fails on the data exits 2 with jq\'s message', async () => {
    const r = await geo(['credits', '--jq', '.data.balance[0]']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--jq: jq: error \(at .*\): Cannot index number with number/);
  });

  it('a command that prints no JSON refuses --jq (exit 2)', async () => {
    const r = await geo(['completion', 'bash', '--jq', '.']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/geo completion prints no JSON/);
  });
});

describe('geo api --paginate', () => {
  it('says the API has no pages and asks a list once for its largest page', async () => {
    const r = await geo(['api', 'analyses', '--paginate', '--jq', '.data | length']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\d+\n$/);
    expect(r.stderr).toMatch(/--paginate: the API has no pages \(api-spec\.md: \/api\/v1\/analyses takes only limit, 1-200\), so geo asks once for the most it gives \(limit=200\)/);
  });

  it('refuses a request that is not a read (exit 2)', async () => {
    const r = await geo(['api', 'cases', '-f', 'name=x', '--paginate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--paginate reads lists, with GET; this request is a POST/);
  });
});
