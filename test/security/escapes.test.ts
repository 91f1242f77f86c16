/**
 * Issue 7, security: server strings carrying ESC, CSI, OSC 8 (hyperlinks), OSC 52 (clipboard), C1
 * controls (U+009B is a one-character CSI), carriage returns, BEL/NUL/DEL and bidi overrides never
 * reach the terminal raw. A hostile server puts them in every string field, in object keys, in
 * x-request-id and in every error field, and writes a raw CR between JSON tokens. Checked: table
 * (stdout a TTY), plain (piped), --json and ndjson output, and the error line, with and without
 * --debug. --json must stay valid JSON that parses to exactly what the server sent.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { FIXTURES } from '../helpers/sandbox.js';
import { ERROR_STATUSES, type Hostile, okBody, startHostile } from './hostile-server.js';

const ESC = '\u001b';
const BEL = '\u0007';
export const EVIL = [
  `${ESC}]8;;https://evil.example/${BEL}click me${ESC}]8;;${BEL}`, // OSC 8 hyperlink
  `${ESC}]52;c;ZXZpbA==${BEL}`, // OSC 52: write "evil" to the clipboard
  `${ESC}[2J${ESC}[31mred`, // CSI: clear screen, colour
  '\u009b31mC1-CSI \u0085NEL', // C1 controls
  'before\roverwritten', // carriage return
  '\u202egpj.exe \u2066isolate\u2069 \u200fmark', // bidi override, isolate, mark
  `bell${BEL} nul\u0000 del\u007f vt\u000b`,
].join(' | ');

/** Every character that may change what a terminal shows; \t and \n are the only controls allowed. */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
function expectClean(text: string, where: string): void {
  const m = RAW.exec(text);
  expect(m ? `U+${m[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${m.index}: …${JSON.stringify(text.slice(Math.max(0, m.index - 30), m.index + 30))}…` : 'clean', where).toBe('clean');
}

const PARIS = join(FIXTURES, 'paris.jpg');
let hostile: Hostile;
beforeAll(async () => {
  hostile = await startHostile(() => EVIL, { mangle: (j) => j.replace('{', '{\r') });
});
afterAll(() => hostile.close());

/** `quiet`: the human view shows no server string (credits are figures only). */
const serviceCase = (c: object) => ({ ...c, where: 'service', local_id: null, results: null });
/** `json`: what --json prints for the body sent, when it is not the body itself. */
const COMMANDS: Array<{ argv: string[]; route: string; method?: string; records?: (body: never) => unknown[]; json?: (body: never) => unknown; quiet?: true }> = [
  { argv: ['locate', PARIS, '--depth', '3'], route: '/api/v1/geolocate', method: 'POST' },
  { argv: ['credits'], route: '/api/v1/credits', quiet: true },
  { argv: ['usage'], route: '/api/v1/usage' },
  { argv: ['analyses'], route: '/api/v1/analyses', records: (b: { data: unknown[] }) => b.data },
  // cases list: each case as received, with where it is (issue 24); nothing is recorded locally here.
  { argv: ['cases', 'list'], route: '/api/v1/cases', records: (b: { data: object[] }) => b.data.map(serviceCase), json: (b: { data: object[] }) => ({ ...b, data: b.data.map(serviceCase) }) },
  { argv: ['cases', 'create', '--name', 'x'], route: '/api/v1/cases', method: 'POST' },
];

const run = (argv: string[], mode: 'ok' | number, stdoutTTY = false) =>
  runCli(argv, { tty: { stdout: stdoutTTY }, env: { GEO_API_KEY: 'orca_test_escapes_1234', GEO_BASE_URL: hostile.base(mode), NO_COLOR: '1' }, sleep: async () => {} });

describe(`hostile strings in successful output (${COMMANDS.length * 4} cases)`, () => {
  for (const c of COMMANDS) {
    const name = c.argv.slice(0, 2).join(' ');
    it(`${name}: table on a terminal`, async () => {
      const r = await run(c.argv, 'ok', true);
      expect(r.code, r.stderr).toBe(0);
      expectClean(r.stdout, 'stdout');
      expectClean(r.stderr, 'stderr');
      if (!c.quiet) expect(r.stdout).toMatch(/\\x1b|\\u001b|\\x9b|\\u202e/); // escaped visibly, not dropped silently
    });
    it(`${name}: plain when piped`, async () => {
      const r = await run(c.argv, 'ok');
      expect(r.code, r.stderr).toBe(0);
      expectClean(r.stdout, 'stdout');
      expectClean(r.stderr, 'stderr');
    });
    it(`${name}: --json parses to exactly the body sent`, async () => {
      const r = await run([...c.argv, '--json'], 'ok');
      expect(r.code, r.stderr).toBe(0);
      expectClean(r.stdout, 'stdout');
      const body = okBody(c.route, c.method ?? 'GET', EVIL) as never;
      expect(JSON.parse(r.stdout)).toEqual(c.json ? c.json(body) : body);
    });
    it(`${name}: --format ndjson lines parse and are clean`, async () => {
      const r = await run([...c.argv, '--format', 'ndjson'], 'ok');
      expect(r.code, r.stderr).toBe(0);
      expectClean(r.stdout, 'stdout');
      const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as unknown);
      const body = okBody(c.route, c.method ?? 'GET', EVIL) as never;
      if (c.records) expect(lines).toEqual(c.records(body));
      if (c.route === '/api/v1/geolocate') expect((lines[0] as { result: unknown }).result).toEqual(body);
    });
  }
});

describe(`hostile strings in error lines (${ERROR_STATUSES.length} statuses x ${COMMANDS.length} commands x 3 outputs)`, () => {
  for (const status of ERROR_STATUSES) {
    it(`${status}: one clean error line, nothing on stdout, with and without --json / --debug`, async () => {
      for (const c of COMMANDS) {
        for (const extra of [[], ['--json'], ['--debug']]) {
          const r = await run([...extra, ...c.argv], status);
          const where = `${status} geo ${[...extra, ...c.argv].join(' ')}`;
          expect(r.code, `${where}: ${r.stderr}`).not.toBe(0);
          expect(r.stdout, where).toBe('');
          expectClean(r.stderr, `${where} stderr`);
          // Notes (the sandbox banner for loopback, a balance warning) may precede it: one error line.
          expect(r.stderr.split('\n').filter((l) => l.startsWith('error: ')), where).toHaveLength(1);
        }
      }
    });
  }
});
