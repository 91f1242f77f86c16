/**
 * Issue 20, item 5: keys as data. A server that echoes the key upper-cased, lower-cased, or with
 * zero-width characters, spaces or line breaks slipped between its characters never gets it shown:
 * not on stdout or stderr (with or without --debug, on success and on error), not in geo mcp's
 * results. A key with control characters or whitespace inside is refused where it enters (`keys
 * add`, GEO_API_KEY, the config file) with one line and nothing sent; a config file of the wrong
 * shape gives one line naming the file and the field, exit 2.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, startMcpServer } from '../helpers/mcp-client.js';
import { binEnv, runCli } from '../helpers/run-cli.js';
import { type Hostile, startHostile } from './hostile-server.js';

const KEY = 'orca_live_Mix3dCaseKey9Q7w';
const spread = (k: string, filler: string) => [...k].join(filler);
/** Every spelling the issue names, in one string the server puts in every field it sends. */
const ECHOES = (k: string) => [k.toUpperCase(), k.toLowerCase(), spread(k, '\u200b'), spread(k, ' '), spread(k, '\n'), spread(k, '\u2060\u00ad'), `${k.slice(0, 8)}\ufeff${k.slice(8)}`].join(' | ');
/** What a reader would still recognise: fillers and their JSON escapes removed, case folded. */
const plain = (s: string) => s.replace(/[\s\u00ad\u200b-\u200f\u2060\ufeff]|\\[nrt]|\\u(200b|2060|00ad|feff)/gi, '').toLowerCase();
const expectNoKey = (text: string, where: string) => expect(plain(text), where).not.toContain(KEY.toLowerCase());

let echo: Hostile;
beforeAll(async () => {
  echo = await startHostile(ECHOES);
});
afterAll(async () => echo.close());

const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));
function configWith(obj: unknown): string {
  const dir = tmp('geo-keytext-');
  writeFileSync(join(dir, 'config.json'), typeof obj === 'string' ? obj : JSON.stringify(obj), { mode: 0o600 });
  return dir;
}

describe('masking catches the key in any case and with fillers inside', () => {
  it('the control: the server really echoes those spellings (a plain fold finds the key in what it sends)', () => {
    expect(plain(ECHOES(KEY))).toContain(KEY.toLowerCase());
    expect(ECHOES(KEY)).not.toContain(KEY);
  });

  const COMMANDS = [['credits'], ['credits', '--json'], ['usage', '--json'], ['analyses', '--json'], ['keys', 'test'], ['cases', 'list', '--json']];
  for (const mode of ['ok', 401, 400, 500] as const) {
    it(`every command, answered ${mode}, with and without --debug, key from GEO_API_KEY and from a profile`, async () => {
      const profileDir = configWith({ active: 'p', profiles: { p: { baseUrl: echo.url, key: KEY } }, defaults: {} });
      for (const env of [{ GEO_API_KEY: KEY, GEO_BASE_URL: echo.base(mode) }, { GEO_CONFIG_DIR: profileDir, GEO_BASE_URL: echo.base(mode) }]) {
        for (const argv of COMMANDS) {
          for (const debug of [[], ['--debug']]) {
            const r = await runCli([...debug, ...argv], { env, sleep: async () => {} });
            const where = `${debug.join('')} ${argv.join(' ')} (${env.GEO_API_KEY ? 'env' : 'profile'}, exit ${r.code})`;
            expectNoKey(r.stdout, `${where} stdout`);
            expectNoKey(r.stderr, `${where} stderr`);
          }
        }
      }
    });
  }

  it('geo mcp results (text and structured content), on success and on error', async () => {
    const env = Object.fromEntries(Object.entries(binEnv({ GEO_API_KEY: KEY, GEO_BASE_URL: echo.base('ok'), GEO_DATA_DIR: tmp('geo-keytext-data-'), GEO_STATE_DIR: tmp('geo-keytext-state-') })).filter((e): e is [string, string] => e[1] !== undefined));
    const servers = [await startMcpServer([], { cwd: tmp('geo-keytext-cwd-'), env }), await startMcpServer([], { cwd: tmp('geo-keytext-cwd-'), env: { ...env, GEO_BASE_URL: echo.base(401) } })];
    try {
      for (const s of servers) {
        for (const tool of ['credits', 'usage', 'analyses', 'cases_list']) {
          const r = await callTool(s.client, tool, {});
          expectNoKey(r.text + JSON.stringify(r.data), `${tool}`);
        }
        expect(s.traffic.length).toBeGreaterThan(4);
        for (const m of s.traffic) expectNoKey(m, 'an MCP message');
        expectNoKey(s.stderr(), 'geo mcp stderr');
      }
    } finally {
      for (const s of servers) await s.close();
    }
  });
});

describe('a key with control characters or whitespace inside is refused where it enters, nothing sent', () => {
  const BAD: Array<[string, string, RegExp]> = [
    ['a space', 'orca_live_ab cd1234', /contains a space \(U\+0020\) at character 13/],
    ['a line break', 'orca_live_ab\r\ncd1234', /contains a line break \(U\+000D\) at character 13/],
    ['a tab', 'orca_live_ab\tcd1234', /contains a control character \(U\+0009\) at character 13/],
    ['a zero-width space', 'orca_live_ab\u200bcd1234', /contains an invisible or non-ASCII character \(U\+200B\) at character 13/],
    ['an escape', 'orca_live_ab\u001b[31mcd', /contains a control character \(U\+001B\) at character 13/],
  ];
  for (const [what, bad, says] of BAD) {
    it(`${what}: keys add --stdin, GEO_API_KEY and the config file each refuse it with one line (exit 2)`, async () => {
      const before = echo.requests();
      const dir = tmp('geo-keytext-add-');
      const add = await runCli(['keys', 'add', 'w', '--stdin', '--base-url', echo.base('ok')], { stdin: bad, env: { GEO_CONFIG_DIR: dir } });
      expect(add.code).toBe(2);
      expect(add.stderr).toMatch(new RegExp(`^error: the key ${says.source}: nothing was stored or sent — hint: .*\\n$`));
      expect((await runCli(['keys', 'list', '--json'], { env: { GEO_CONFIG_DIR: dir } })).stdout.trim()).toBe('[]');

      const env = await runCli(['credits'], { env: { GEO_API_KEY: bad, GEO_BASE_URL: echo.base('ok') }, sleep: async () => {} });
      expect(env.code).toBe(2);
      expect(env.stderr).toMatch(new RegExp(`^error: the key in GEO_API_KEY ${says.source}: nothing was sent — hint: .*\\n$`));

      const file = configWith({ active: 'w', profiles: { w: { baseUrl: echo.base('ok'), key: bad } }, defaults: {} });
      const fromFile = await runCli(['credits'], { env: { GEO_CONFIG_DIR: file }, sleep: async () => {} });
      expect(fromFile.code).toBe(2);
      expect(fromFile.stderr).toMatch(new RegExp(`^error: the config file ${file}/config\\.json has the wrong shape: profiles\\.w\\.key ${says.source}: not a usable key \\(nothing was sent\\) — hint: .*\\n$`));
      for (const r of [add, env, fromFile]) expect(r.stderr).not.toContain('cd1234');
      expect(echo.requests()).toBe(before);
    });
  }

  it('whitespace around a key (a trailing newline from a file) is not "inside": it is dropped', async () => {
    const r = await runCli(['credits', '--json'], { env: { GEO_API_KEY: `${KEY}\n`, GEO_BASE_URL: echo.base('ok') } });
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('a config file of the wrong shape: one line naming the file and the field, exit 2', () => {
  const SHAPES: Array<[string, unknown, string]> = [
    ['profiles is a string', { profiles: 'x' }, '"profiles" must be an object of profiles, not a string'],
    ['a key that is a number', { profiles: { w: { key: 12345, baseUrl: 'https://a.example' } } }, 'profiles.w.key must be a string, not a number'],
    ['a key at the top level', { key: 12345 }, '"key" is not a config field (fields: active, profiles, defaults, signing)'],
    ['the file is a list', [], 'the whole file must be a JSON object, not a list'],
    ['active is a number', { active: 3 }, '"active" must be a profile name (a string), not a number'],
    ['a profile that is a string', { profiles: { w: 'x' } }, 'profiles.w must be an object with baseUrl and key, not a string'],
    ['a profile without a key', { profiles: { w: { baseUrl: 'https://a.example' } } }, 'profiles.w has no key (neither key nor keyring)'],
    ['a profile without a base URL', { profiles: { w: { key: 'orca_live_abcdefgh' } } }, 'profiles.w.baseUrl is missing'],
    ['a default that is a number', { defaults: { depth: 3 } }, 'defaults.depth must be a string (as `geo config set` writes it), not a number'],
    ['null', 'null', 'the whole file must be a JSON object, not null'],
  ];
  for (const [what, shape, says] of SHAPES) {
    it(what, async () => {
      const before = echo.requests();
      const dir = configWith(shape);
      for (const argv of [['keys', 'list'], ['credits'], ['locate', 'sample:paris', '--dry-run']]) {
        const r = await runCli(argv, { env: { GEO_CONFIG_DIR: dir, GEO_API_KEY: KEY, GEO_BASE_URL: echo.base('ok') } });
        expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr).toBe(`error: the config file ${dir}/config.json has the wrong shape: ${says} — hint: repair that field, or delete the file and add your keys again with \`geo keys add\`\n`);
      }
      expect(echo.requests()).toBe(before);
    });
  }
});
