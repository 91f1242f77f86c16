/**
 * Accessible mode (issue 22, gh's accessible prompter): GEO_ACCESSIBLE=1 or `geo config set
 * accessible true`. In a real terminal: no spinner frame, nothing redrawn in place (no carriage
 * return, no erase-line, no cursor movement), progress as plain percentage lines, and questions
 * asked as one line and answered as one line.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { makeImages } from '../batch/helpers.js';
import { FIXTURES } from '../helpers/sandbox.js';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';
import { KEY, builtBinaryOrThrow, spawnGeoInPty } from './pty.js';

const sb = withSandbox({ latencyMs: 50 });
beforeAll(() => builtBinaryOrThrow());

/** Anything that redraws: a carriage return not ending a line, erase-line, cursor moves; spinner frames. */
const REDRAW = /\r(?!\n)|\u001b\[\d*[KGABCDJ]|[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
const env = (extra: Record<string, string> = {}) => ({ HOME: tempConfigDir(), GEO_CONFIG_DIR: tempConfigDir(), GEO_STATE_DIR: tempConfigDir(), GEO_DATA_DIR: tempConfigDir(), GEO_BASE_URL: sb.url, GEO_API_KEY: KEYS.pro, ...extra });

describe('accessible mode in a terminal', { timeout: 60_000 }, () => {
  it('GEO_ACCESSIBLE=1: a batch prints plain percentage lines and redraws nothing', async () => {
    const t = spawnGeoInPty(['locate', makeImages(10), '--yes'], env({ GEO_ACCESSIBLE: '1' }), { columns: 80, rows: 50 });
    expect(await t.exit).toBe(0);
    expect(t.raw()).not.toMatch(REDRAW);
    const lines = t.screen().split('\n').filter((l) => l.startsWith('progress '));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.at(-1)).toMatch(/^progress 100% · 10 of 10 · 10 ok · 0 failed · 10 credits/);
    expect(t.screen()).toMatch(/10 inputs: 10 ok, 0 failed/);
  });

  it('one image: the label once as a line, no spinner', async () => {
    const t = spawnGeoInPty(['locate', `${FIXTURES}tokyo.jpg`], env({ GEO_ACCESSIBLE: '1' }));
    expect(await t.exit).toBe(0);
    expect(t.raw()).not.toMatch(REDRAW);
    expect(t.screen()).toMatch(/^locating tokyo\.jpg · depth 1 · 1 credit · usually .*…$/m);
  });

  it('geo config set accessible true: a question is one line, answered with a line', async () => {
    const e = env();
    expect((await runCli(['config', 'set', 'accessible', 'true'], { env: e })).code).toBe(0);
    expect((await runCli(['keys', 'add', 'old', '--stdin', '--no-verify', '--base-url', sb.url], { env: e, stdin: KEYS.pro })).code).toBe(0);
    const t = spawnGeoInPty(['keys', 'remove', 'old'], e);
    await t.waitFor('Remove profile "old" and its key? (y/N): ');
    t.type('y');
    t.type(KEY.enter);
    expect(await t.exit).toBe(0);
    expect(t.raw()).not.toMatch(REDRAW);
    expect((await runCli(['keys', 'list', '--json'], { env: e })).stdout.trim()).toBe('[]');
  });

  it('a key typed at an accessible prompt is not echoed', async () => {
    const e = env({ GEO_ACCESSIBLE: '1' });
    const t = spawnGeoInPty(['keys', 'add', 'work', '--no-verify'], e);
    await t.waitFor('API key (input hidden): ');
    t.type(KEYS.enterprise);
    t.type(KEY.enter);
    await t.waitFor('Base URL');
    t.type(KEY.enter);
    expect(await t.exit).toBe(0);
    expect(t.raw()).not.toContain(KEYS.enterprise);
  });
});
