/**
 * Issue 13, "Width": in a real pseudo-terminal of 60, 80 and 120 columns, a depth-3 locate, the
 * analyses list, the cases list and a batch draw no line wider than the terminal, and every
 * input's file name stays visible. One exception, by design: a single word too long for the
 * terminal (a link, a path) stands alone on its line (wrap() in src/output/fit.ts), because the
 * terminal's soft wrap keeps it one clickable link or copyable path, where a cut would not.
 */
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../batch/helpers.js';
import { tempConfigDir } from '../helpers/run-cli.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';
import { builtBinaryOrThrow, spawnGeoInPty } from './pty.js';

const sb = withSandbox();
const LONE_WORD = /^\s*\S+$/;

/** The rows a terminal would show: cursor-to-column-1 and erase-line start a row again, colours go. */
function rows(raw: string): string[] {
  const text = raw
    .replace(/\u001b\[\d*G|\u001b\[[012]?K|\u001b\[\d*A/g, '\r')
    .replace(/\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(\u0007|\u001b\\)/g, '');
  return text.split(/\r\n|\n|\r/);
}

async function screenAt(columns: number, argv: string[], env: Record<string, string>): Promise<{ code: number; rows: string[]; text: string }> {
  const s = spawnGeoInPty(argv, { GEO_BASE_URL: sb.url, GEO_API_KEY: KEYS.pro, HOME: tempConfigDir(), GEO_CONFIG_DIR: tempConfigDir(), ...env }, { columns, rows: 50 });
  const code = await s.exit;
  return { code, rows: rows(s.raw()), text: s.screen() };
}

function tooWide(lines: string[], columns: number): string[] {
  return lines.filter((l) => [...l].length > columns && !LONE_WORD.test(l));
}

let dirs: { state: string; data: string };
let folder: string;
const NAMES = ['gps_italy_florence_duomo_at_dusk.jpg', 'gps_italy_florence_ponte_vecchio.jpg', 'tokyo.jpg'];

beforeAll(async () => {
  builtBinaryOrThrow();
  dirs = { state: tempConfigDir(), data: tempConfigDir() };
  // A deep folder and two long names that share their start: the file names must still show.
  folder = join(mkdtempSync(join(tmpdir(), 'geo-width-')), 'cases', '2026', 'field-photos', 'gps_italy_trip');
  mkdirSync(folder, { recursive: true });
  copyFileSync(join(FIXTURES, 'paris.jpg'), join(folder, NAMES[0]!));
  copyFileSync(join(FIXTURES, 'nogps.jpg'), join(folder, NAMES[1]!));
  copyFileSync(join(FIXTURES, 'tokyo.jpg'), join(folder, NAMES[2]!));
  // History and cases for the list views, with long server strings.
  for (const name of ['Operation Long Name For A Field Investigation In Northern Italy', 'Harbour']) {
    await fetch(`${sb.url}/api/v1/cases`, {
      method: 'POST', headers: { authorization: `Bearer ${KEYS.pro}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name, description: 'Photos received from a source on the ground; cross-check every landmark against street imagery', teamId: 'team_field_research_europe' }),
    });
  }
});

describe.each([60, 80, 120])('at %i columns', (columns) => {
  const env = () => ({ GEO_STATE_DIR: dirs.state, GEO_DATA_DIR: dirs.data });

  it('locate --depth 3: no line wider than the terminal', async () => {
    const r = await screenAt(columns, ['locate', join(FIXTURES, 'paris.jpg'), '--depth', '3', '--fresh'], env());
    expect(r.code).toBe(0);
    expect(r.text).toContain('Candidates');
    expect(tooWide(r.rows, columns)).toEqual([]);
  });

  it('analyses: no line wider than the terminal', async () => {
    const r = await screenAt(columns, ['analyses'], env());
    expect(r.code).toBe(0);
    expect(tooWide(r.rows, columns)).toEqual([]);
  });

  it('cases list: no line wider than the terminal', async () => {
    const r = await screenAt(columns, ['cases', 'list'], env());
    expect(r.code).toBe(0);
    expect(r.text).toContain('Harbour');
    expect(tooWide(r.rows, columns)).toEqual([]);
  });

  it('a batch: no line wider than the terminal, and every file name visible', async () => {
    const r = await screenAt(columns, ['locate', folder, '--fresh'], env());
    expect(r.code).toBe(0);
    expect(tooWide(r.rows, columns)).toEqual([]);
    const table = r.rows.filter((l) => l.startsWith('│'));
    for (const name of NAMES) expect(table.some((l) => l.includes(name))).toBe(true);
  });
});
