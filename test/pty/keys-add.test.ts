/** `geo keys add` and `keys remove` in a pseudo-terminal: the key is typed at a hidden prompt and never echoed. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';
import { KEY, builtBinaryOrThrow, spawnGeoInPty } from './pty.js';

const sb = withSandbox();
beforeAll(() => builtBinaryOrThrow());

describe('geo keys add in a terminal', { timeout: 60_000 }, () => {
  it('reads the key from a hidden prompt, asks for the base URL, verifies and saves', async () => {
    const dir = tempConfigDir();
    const t = spawnGeoInPty(['keys', 'add', 'work'], { HOME: tempConfigDir(), GEO_CONFIG_DIR: dir });
    await t.waitFor('API key (input hidden)');
    t.type(KEYS.enterprise);
    t.type('\u0014'); // ctrl+t, which @inquirer/password would use to reveal the input
    t.type(KEY.enter);
    await t.waitFor('Base URL');
    expect(t.raw()).not.toContain(KEYS.enterprise);
    t.type(sb.url);
    t.type(KEY.enter);
    expect(await t.exit).toBe(0);
    // No D-Bus here, so no OS keyring: the file, said once (test/security/keyring.test.ts has a real one).
    // Wrapped to the terminal's width (issue 22): read as one line.
    expect(t.screen().replace(/\r?\n\s*/g, ' ')).toMatch(/Saved profile "work" \(orca_sandbox_…rise, http:\/\/127\.0\.0\.1:\d+; verified, \d+ credits available; key in the file .*\), active/);
    // Not on screen at any point: neither echoed by the terminal nor drawn by the prompt.
    expect(t.raw()).not.toContain(KEYS.enterprise);
    expect(t.raw()).not.toContain('*'.repeat(KEYS.enterprise.length));
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.work).toEqual({ key: KEYS.enterprise, baseUrl: sb.url });
    const list = await runCli(['keys', 'list'], { env: { GEO_CONFIG_DIR: dir } });
    expect(list.stdout).toMatch(/^\*\s+work\s+orca_sandbox_…rise/m);
  });

  it('a refused key typed at the prompt is not saved (exit 3) and not shown', async () => {
    const dir = tempConfigDir();
    const bad = 'orca_live_typedbutwrong4242';
    const t = spawnGeoInPty(['keys', 'add', '--base-url', sb.url, '--debug'], { HOME: tempConfigDir(), GEO_CONFIG_DIR: dir });
    await t.waitFor('API key (input hidden)');
    t.type(bad);
    t.type(KEY.enter);
    expect(await t.exit).toBe(3);
    expect(t.screen()).toMatch(/key not saved: the service refused it/);
    expect(t.raw()).not.toContain(bad);
    expect((await runCli(['keys', 'list', '--json'], { env: { GEO_CONFIG_DIR: dir } })).stdout.trim()).toBe('[]');
  });
});

describe('geo keys remove in a terminal', { timeout: 60_000 }, () => {
  it('asks first: no keeps the profile (exit 2, in words that fit), yes removes it', async () => {
    const dir = tempConfigDir();
    await runCli(['keys', 'add', 'old', '--stdin', '--no-verify', '--base-url', sb.url], { env: { GEO_CONFIG_DIR: dir }, stdin: KEYS.pro });
    const env = { HOME: tempConfigDir(), GEO_CONFIG_DIR: dir };
    const no = spawnGeoInPty(['keys', 'remove', 'old'], env);
    await no.waitFor('Remove profile "old" and its key?');
    no.type(KEY.enter); // the default is no
    expect(await no.exit).toBe(2);
    expect(no.screen()).toMatch(/you said no: profile "old" is kept/);
    expect(no.screen()).toMatch(/geo keys remove old --yes removes it without asking/);
    expect(no.screen()).not.toMatch(/nothing more was sent/);
    const yes = spawnGeoInPty(['keys', 'remove', 'old'], env);
    await yes.waitFor('Remove profile "old" and its key?');
    yes.type('y');
    yes.type(KEY.enter);
    expect(await yes.exit).toBe(0);
    expect(yes.screen()).toMatch(/Removed profile "old"; no active profile now/);
    expect((await runCli(['keys', 'list', '--json'], { env: { GEO_CONFIG_DIR: dir } })).stdout.trim()).toBe('[]');
  });
});
