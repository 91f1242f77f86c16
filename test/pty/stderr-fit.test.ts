/**
 * Issue 34 item 5, "the same for every stderr line geo fits": in a real pseudo-terminal of 60, 80
 * and 120 columns, with stdout sent to a file (so the terminal shows stderr alone), eval's plan
 * line, a batch's plan, skipped paths and summary, and a video's plan and notes draw no line wider
 * than the screen (a lone word, a path, excepted) and split no word: the screen holds the same
 * words as on a 1,000-column terminal (numbers aside: timings differ from run to run).
 */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../batch/helpers.js';
import { FFMPEG } from '../helpers/ffmpeg.js';
import { tempConfigDir } from '../helpers/run-cli.js';
import { builtBinaryOrThrow, spawnGeoInPty } from './pty.js';
import { screenRows, tooWideLines } from './screen.js';

const WIDTHS = [60, 80, 120] as const;
const LONE_WORD = /^\s*\S+$/;

/** A folder whose paths are long, with a file geo must skip (and say so on stderr). */
function longFolder(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'geo-stderr-fit-')), 'an investigation folder with a long name', 'photos received from the source on tuesday');
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(FIXTURES, 'paris.jpg'), join(dir, 'street corner near the river, looking north.jpg'));
  copyFileSync(join(FIXTURES, 'tokyo.jpg'), join(dir, 'crossing at night with many signs and people.jpg'));
  writeFileSync(join(dir, 'notes from the source about where these were taken.jpg'), 'not an image');
  return dir;
}

const CASES: Array<[string, () => string[], boolean]> = [
  ['eval: the plan line, skipped images, the figures', () => ['--sandbox', 'eval', 'sample:all', '--depth', '1,2', '--yes'], true],
  ['a batch: plan, skipped paths, summary', () => ['--sandbox', 'locate', longFolder(), '--depth', '2'], true],
  ['a video: the frames plan and notes', () => ['--sandbox', 'locate', 'sample:clip', '--every', '2'], FFMPEG !== undefined],
];

const words = (rows: string[]) => rows.join(' ').split(/\s+/).filter((w) => w !== '' && !/\d/.test(w)).sort();

async function stderrScreen(argv: string[], columns: number): Promise<{ code: number; raw: string }> {
  const out = join(mkdtempSync(join(tmpdir(), 'geo-stderr-out-')), 'stdout');
  const s = spawnGeoInPty(argv, { HOME: tempConfigDir(), GEO_CONFIG_DIR: tempConfigDir(), GEO_DATA_DIR: tempConfigDir() }, { columns, rows: 50 }, { stdoutFile: out });
  return { code: await s.exit, raw: s.raw() };
}

beforeAll(() => builtBinaryOrThrow());

describe.each(CASES)('%s', (_name, argv, run) => {
  const shown = new Map<number, { code: number; raw: string }>();
  beforeAll(async () => {
    if (!run) return;
    const a = argv();
    for (const columns of [...WIDTHS, 1000]) shown.set(columns, await stderrScreen(a, columns));
  }, 240_000);

  it.runIf(run).each(WIDTHS.map((w) => [w]))('at %i columns: no line wider than the screen, no word split', (columns) => {
    const r = shown.get(columns)!;
    const wide = shown.get(1000)!;
    expect(r.code).toBe(wide.code);
    expect(tooWideLines(r.raw, columns, LONE_WORD)).toEqual([]);
    expect(words(screenRows(r.raw, columns))).toEqual(words(screenRows(wide.raw, 1000)));
  });
});
