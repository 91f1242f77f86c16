/**
 * Issue 22, "Width from the stream that is drawn on" and "Tables that keep what people copy": in
 * a real pseudo-terminal of 60, 80 and 120 columns,
 * - a 20-image batch with stdout redirected to a file leaves at most one progress row on the
 *   screen (the progress line is fitted to stderr's width, not stdout's);
 * - `geo history` and `geo analyses` show each file name and each analysis id whole;
 * - no line is wider than the screen, except a lone word (a link, a path: see wrap()).
 * The screen is what a terminal of that width shows (screen.ts emulates the cursor moves).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, makeImages } from '../batch/helpers.js';
import { tempConfigDir } from '../helpers/run-cli.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';
import { KEY, builtBinaryOrThrow, spawnGeoInPty } from './pty.js';
import { screenRows, tooWideLines } from './screen.js';

// Latency, so the progress line is redrawn many times while the batch runs.
const sb = withSandbox({ latencyMs: 150 });

let dirs: { state: string; data: string };
let twenty: string;
let deep: string;
const NAME = 'audit-newuser-harbour-front-at-dusk.jpg';

async function run(columns: number, argv: string[], opts: { stdoutFile?: string; env?: Record<string, string> } = {}) {
  const s = spawnGeoInPty(argv, { GEO_BASE_URL: sb.url, GEO_API_KEY: KEYS.pro, HOME: tempConfigDir(), GEO_CONFIG_DIR: tempConfigDir(), GEO_STATE_DIR: dirs.state, GEO_DATA_DIR: dirs.data, ...opts.env }, { columns, rows: 60 }, opts);
  const code = await s.exit;
  return { code, raw: s.raw(), rows: screenRows(s.raw(), columns) };
}

beforeAll(async () => {
  builtBinaryOrThrow();
  dirs = { state: tempConfigDir(), data: tempConfigDir() };
  twenty = makeImages(20);
  // A deep path whose start is shared by every row: the file name must show, not the folder.
  deep = join(mkdtempSync(join(tmpdir(), 'audit-newuser-')), 'cases', '2026', 'harbour-fire', 'received-from-source');
  mkdirSync(deep, { recursive: true });
  copyFileSync(join(FIXTURES, 'paris.jpg'), join(deep, NAME));
});

describe.each([60, 80, 120])('at %i columns', { timeout: 120_000 }, (columns) => {
  it('a 20-image batch with stdout to a file: at most one progress row, nothing wider than the screen', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'geo-out-')), 'results.ndjson');
    const r = await run(columns, ['locate', twenty, '--fresh', '--yes'], { stdoutFile: out });
    expect(r.code).toBe(0);
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(20);
    expect(r.rows.filter((l) => /ETA/.test(l)).length).toBeLessThanOrEqual(1);
    expect(r.rows.some((l) => /20 inputs: 20 ok/.test(l))).toBe(true);
    expect(tooWideLines(r.raw, columns)).toEqual([]);
  });

  it('geo history: the file name and the whole analysis id on every row', async () => {
    await run(columns, ['locate', join(deep, NAME), '--depth', '3', '--fresh'], { stdoutFile: '/dev/null' });
    const r = await run(columns, ['history', '--limit', '3']);
    expect(r.code).toBe(0);
    const ids = r.rows.join('\n').match(/an_[0-9a-f]{16}\b/g) ?? [];
    expect(ids.length).toBeGreaterThanOrEqual(3);
    expect(r.rows.some((l) => l.includes(NAME))).toBe(true);
    expect(r.rows.join('\n')).not.toMatch(/an_[0-9a-f]*…/);
    expect(tooWideLines(r.raw, columns)).toEqual([]);
  });

  it('geo analyses: every id whole', async () => {
    const r = await run(columns, ['analyses', '--limit', '5']);
    expect(r.code).toBe(0);
    expect(new Set(r.rows.join('\n').match(/an_[0-9a-f]{16}\b/g)).size).toBe(5);
    expect(r.rows.join('\n')).not.toMatch(/an_[0-9a-f]*…/);
    expect(tooWideLines(r.raw, columns)).toEqual([]);
  });

  it('keys add: the prompts and the saved line fit the screen', async () => {
    const home = { HOME: tempConfigDir(), GEO_CONFIG_DIR: tempConfigDir() };
    const t = spawnGeoInPty(['keys', 'add', 'work-profile-for-the-harbour-investigation', '--base-url', sb.url], home, { columns, rows: 40 });
    await t.waitFor('API key (input hidden)');
    t.type(KEYS.enterprise);
    t.type(KEY.enter);
    expect(await t.exit).toBe(0);
    expect(screenRows(t.raw(), columns).join(' ')).toMatch(/Saved profile "work-profile-for-the-harbour-investigation"/);
    expect(tooWideLines(t.raw(), columns)).toEqual([]);
  });

  it('cases create: the summary before the question fits the screen', async () => {
    const description = 'Photos received from a source on the ground; cross-check every landmark against street imagery before publishing anything';
    const t = spawnGeoInPty(['cases', 'create', '--name', 'Operation Long Name For A Field Investigation', '--description', description], { GEO_BASE_URL: sb.url, GEO_API_KEY: KEYS.pro, HOME: tempConfigDir(), GEO_CONFIG_DIR: tempConfigDir() }, { columns, rows: 40 });
    await t.waitFor('Team id');
    t.type('team_field_research_europe');
    t.type(KEY.enter);
    await t.waitFor('Create this case?');
    t.type('y');
    t.type(KEY.enter);
    expect(await t.exit).toBe(0);
    expect(t.screen()).toContain('New case:');
    expect(tooWideLines(t.raw(), columns)).toEqual([]);
  });

  it('an error line with its hint: nothing wider than the screen', async () => {
    const r = await run(columns, ['locate', join(deep, 'missing-photo-from-the-source.jpg'), '--depth', '3']);
    expect(r.code).toBe(2);
    expect(r.rows.join('\n')).toMatch(/^error:/m);
    expect(r.rows.join('\n')).toMatch(/hint: /);
    expect(tooWideLines(r.raw, columns)).toEqual([]);
  });
});
