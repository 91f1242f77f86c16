/**
 * Ctrl-C while one image is being located (issue 22): the spinner is cleared, so no frame stays on
 * the screen, and the hint's resume command is whole on one line.
 */
import { describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/run-cli.js';
import { FIXTURES, KEYS, withSandbox } from '../helpers/sandbox.js';
import { KEY, builtBinaryOrThrow, spawnGeoInPty } from './pty.js';
import { screenRows } from './screen.js';

const sb = withSandbox({ latencyMs: 5000 });

describe('Ctrl-C on one image', { timeout: 60_000 }, () => {
  it.each([60, 100])('at %i columns: no spinner frame left, exit 130, the resume command on one line', async (columns) => {
    builtBinaryOrThrow();
    const env = { HOME: tempConfigDir(), GEO_CONFIG_DIR: tempConfigDir(), GEO_STATE_DIR: tempConfigDir(), GEO_DATA_DIR: tempConfigDir(), GEO_BASE_URL: sb.url, GEO_API_KEY: KEYS.pro };
    const t = spawnGeoInPty(['locate', `${FIXTURES}tokyo.jpg`], env, { columns, rows: 20 });
    await t.waitFor('locating tokyo.jpg');
    await new Promise((r) => setTimeout(r, 1200));
    t.type(KEY.ctrlC);
    expect(await t.exit).toBe(130);
    const rows = screenRows(t.raw(), columns);
    expect(rows.filter((r) => /locating tokyo\.jpg|[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/.test(r))).toEqual([]);
    expect(rows.join('\n')).toMatch(/^error: cancelled while in flight/m);
    // The command is one line of its own (the terminal may soft-wrap it; a copy keeps it whole).
    expect(screenRows(t.raw(), 100_000).some((r) => /`geo locate --resume \S+`/.test(r))).toBe(true);
  });
});
