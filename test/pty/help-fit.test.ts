/**
 * Issue 34, "help that fits": in a real pseudo-terminal of 60, 80 and 120 columns, every help
 * page (the root help, every command's and subcommand's, every topic of `geo help`) draws no line
 * wider than the screen (a lone word, a URL or a path, excepted: see wrap() in output/fit.ts) and
 * splits no word: it has exactly the words the same page has on a 1,000-column terminal. At 80
 * columns every topic is under 80 lines and the
 * help of every command is about 60 lines at most. The pages come from the
 * program itself (test/help/pages.ts), so a command added later is checked here too.
 */
import { spawn } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Page, helpPages, wordsOf } from '../help/pages.js';
import { CODE_CACHE_DIR, tempConfigDir } from '../helpers/run-cli.js';
import { builtBinaryOrThrow, spawnGeoInPty, stripAnsi } from './pty.js';
import { tooWideLines } from './screen.js';

const WIDTHS = [60, 80, 120] as const;
const WIDE = 1000;
/** A line the screen may not hold: one word alone (an example's `$ ` and ` \` around it too). */
const LONE_WORD = /^\s*(\$ |# )?\S+( \\)?$/;
/** Issue 34 item 5: every command's help is about 60 lines at most at 80 columns; the root's a little more. */
const MAX_COMMAND_LINES = 62;
const MAX_ROOT_LINES = 70;
const PTY_PY = new URL('./run_in_pty.py', import.meta.url).pathname;
const MANY = new URL('./many-pages.cjs', import.meta.url).pathname;

const pages = helpPages();
const shown = new Map<string, { code: number; raw: string }>();
const key = (p: Page, columns: number) => `${p.name}@${columns}`;
const env = { HOME: tempConfigDir(), GEO_CONFIG_DIR: tempConfigDir() };

/**
 * Every page on one terminal of `columns`: one Node runs geo's main() once per page
 * (many-pages.cjs), between marker lines; a page per process costs seconds each on a busy machine.
 */
async function showAll(columns: number): Promise<void> {
  const child = spawn('python3', [PTY_PY, '--size', `${columns}x50`, '--', process.execPath, MANY, JSON.stringify(pages.map((p) => p.argv))], {
    env: { TERM: 'xterm-256color', PATH: process.env.PATH, GEO_CACHE_DIR: CODE_CACHE_DIR, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  await new Promise((resolve) => child.on('close', resolve));
  pages.forEach((p, n) => {
    const m = new RegExp(`@@page ${n}@@\\r?\\n([\\s\\S]*?)@@exit ${n} (\\d+)@@`).exec(out);
    shown.set(key(p, columns), m ? { code: Number(m[2]), raw: m[1]! } : { code: -1, raw: out.slice(-2000) });
  });
}

beforeAll(async () => {
  builtBinaryOrThrow();
  await Promise.all([...WIDTHS, WIDE].map(showAll));
}, 300_000);

const lines = (raw: string) => stripAnsi(raw).replace(/\r/g, '').replace(/\n+$/, '').split('\n');

it('finds the root help, every command and the topics', () => {
  expect(pages.filter((p) => p.kind === 'command').length).toBeGreaterThan(30);
  expect(pages.map((p) => p.name)).toEqual(expect.arrayContaining(['geo locate --help', 'geo cases create --help', 'geo help formatting', 'geo help reference']));
});

describe.each(WIDTHS)('at %i columns', (columns) => {
  it.each(pages.map((p) => [p.name, p] as const))('%s: exit 0, no line wider than the screen, no word split', (_name, p) => {
    const r = shown.get(key(p, columns))!;
    const wide = shown.get(key(p, WIDE))!;
    expect(r.code).toBe(0);
    expect(tooWideLines(r.raw, columns, LONE_WORD)).toEqual([]);
    expect(wordsOf(stripAnsi(r.raw))).toEqual(wordsOf(stripAnsi(wide.raw)));
  });
});

it.each([['--help'], ['locate', '--help'], ['help', 'formatting']])('geo %s %s run on its own (bin/geo.js) prints what the shared run printed', async (...argv) => {
  const page = pages.find((p) => p.argv.join(' ') === argv.join(' '))!;
  const s = spawnGeoInPty(argv, env, { columns: 60, rows: 50 });
  expect(await s.exit).toBe(0);
  expect(stripAnsi(s.raw())).toBe(stripAnsi(shown.get(key(page, 60))!.raw));
});

describe('length at 80 columns', () => {
  it.each(pages.filter((p) => p.kind === 'topic').map((p) => [p.name, p] as const))('%s: under 80 lines', (_name, p) => {
    expect(lines(shown.get(key(p, 80))!.raw).length).toBeLessThan(80);
  });

  it.each(pages.filter((p) => p.kind === 'command').map((p) => [p.name, p] as const))('%s: at most about 60 lines', (_name, p) => {
    expect(lines(shown.get(key(p, 80))!.raw).length).toBeLessThanOrEqual(MAX_COMMAND_LINES);
  });

  it('geo --help: at most 70 lines (the nouns, the topics, the global flags)', () => {
    const p = pages.find((x) => x.kind === 'root')!;
    expect(lines(shown.get(key(p, 80))!.raw).length).toBeLessThanOrEqual(MAX_ROOT_LINES);
  });
});
