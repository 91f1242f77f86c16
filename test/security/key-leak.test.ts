/**
 * Issue 7, security: the API key never appears in stdout or stderr of any command, from GEO_API_KEY
 * or from a profile, with or without --debug, on success and on every error status, even when the
 * server echoes the key back in every string, header and error field (also \u-spelt in JSON).
 * Keys are checked by a distinctive middle part, so a mask that keeps a prefix and the last 4 passes.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { FIXTURES } from '../helpers/sandbox.js';
import { ERROR_STATUSES, type Hostile, startHostile } from './hostile-server.js';

const SECRET = 'S3cr3tK3y';
// One key in the orca_ shape, one not: the second is masked by value, not by pattern.
const KEYS = [`orca_live_${SECRET}ZZ9x7Q4w`, `tok-${SECRET}PLAIN-9x7Q4w`];
const PARIS = join(FIXTURES, 'paris.jpg');

/** Every command; the ones that talk to the API first. */
const NETWORK: string[][] = [
  ['locate', PARIS], ['locate', PARIS, '--depth', '3', '--json'], ['locate', PARIS, '--format', 'ndjson'],
  ['credits'], ['credits', '--json'], ['usage'], ['usage', '--json'], ['analyses'], ['analyses', '--json'],
  ['cases', 'list'], ['cases', 'list', '--json'], ['cases', 'create', '--name', 'Harbour'], ['keys', 'test'], ['docs'],
];
const LOCAL: string[][] = [
  ['locate', PARIS, '--dry-run'], ['locate', PARIS, '--dry-run', '--json'], ['inspect', PARIS], ['keys', 'list'], ['keys', 'list', '--json'],
  ['keys', 'show'], ['keys', 'show', '--json'], ['config', 'list'], ['export', '--all', '--format', 'csv'], ['completion', 'bash'], ['--help'], ['locate', '--help'],
];
const MODES = ['ok', ...ERROR_STATUSES] as const;

let echo: Hostile;
let spelt: Hostile;
beforeAll(async () => {
  echo = await startHostile((k) => `echo ${k} echo`);
  // The same echo with the secret part written as \u escapes, which a plain text search misses.
  spelt = await startHostile((k) => `echo ${k} echo`, { mangle: (j) => j.replaceAll(SECRET, [...SECRET].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')) });
});
afterAll(async () => {
  await echo.close();
  await spelt.close();
});

/**
 * A config folder whose active profile holds `key` for `base` (added with --no-verify: no request).
 * A profile's key goes only to its own origin (issue 20), so the profile names the server it meets.
 */
async function profileDir(key: string, base = 'https://api.invalid'): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'geo-leak-'));
  const r = await runCli(['keys', 'add', 'leak', '--stdin', '--no-verify', '--base-url', base], { stdin: key, env: { GEO_CONFIG_DIR: dir } });
  expect(r.code, r.stderr).toBe(0);
  return dir;
}

async function expectNoKey(argv: string[], env: Record<string, string>, stdin?: string): Promise<void> {
  const r = await runCli(argv, { env: { GEO_DATA_DIR: mkdtempSync(join(tmpdir(), 'geo-leak-data-')), ...env }, sleep: async () => {}, ...(stdin ? { stdin } : {}) });
  const where = `geo ${argv.join(' ')} (exit ${r.code})`;
  expect(r.stdout, `${where} stdout`).not.toContain(SECRET);
  expect(r.stderr, `${where} stderr`).not.toContain(SECRET);
}

const sources = (key: string) => [
  { name: 'GEO_API_KEY', env: async (_server: Hostile): Promise<Record<string, string>> => ({ GEO_API_KEY: key }) },
  { name: 'profile', env: async (server: Hostile): Promise<Record<string, string>> => ({ GEO_CONFIG_DIR: await profileDir(key, server.base('ok')) }) },
];

const runs = KEYS.length * 2 * 2 * (MODES.length * NETWORK.length * 2 + LOCAL.length);
describe(`the key never reaches stdout or stderr (${runs} runs)`, () => {
  for (const key of KEYS) {
    for (const src of sources(key)) {
      for (const debug of [false, true]) {
        const flags = debug ? ['--debug'] : [];
        it(`${key.slice(0, 4)}… from ${src.name}${debug ? ', --debug' : ''}: every command, every status, echoed and \\u-spelt`, async () => {
          for (const server of [echo, spelt]) {
            const env = await src.env(server);
            for (const mode of MODES) {
              for (const argv of NETWORK) await expectNoKey([...flags, ...argv], { ...env, GEO_BASE_URL: server.base(mode) });
            }
          }
          const env = await src.env(echo);
          for (const argv of LOCAL) await expectNoKey([...flags, ...argv], { ...env, GEO_BASE_URL: echo.base('ok') });
        });
      }
    }
  }
});

describe('key management commands keep the key masked (3 cases)', () => {
  it('keys add --stdin (verified against an echoing server) and its error path', async () => {
    for (const key of KEYS) {
      for (const mode of MODES) {
        const dir = mkdtempSync(join(tmpdir(), 'geo-leak-add-'));
        for (const debug of [[], ['--debug']]) {
          await expectNoKey([...debug, 'keys', 'add', 'work', '--stdin', '--yes', '--base-url', echo.base(mode)], { GEO_CONFIG_DIR: dir }, key);
        }
      }
    }
  });
  it('keys use and keys remove', async () => {
    for (const key of KEYS) {
      const dir = await profileDir(key);
      await expectNoKey(['keys', 'use', 'leak'], { GEO_CONFIG_DIR: dir });
      await expectNoKey(['keys', 'remove', 'leak', '--yes'], { GEO_CONFIG_DIR: dir });
    }
  });
  it('a key passed where a name goes is not echoed by the key-reading error', async () => {
    // `geo keys add` never takes the key from argv; without --stdin and a terminal it refuses.
    const r = await runCli(['keys', 'add', 'work'], { env: {} });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/never from arguments/);
  });
});
