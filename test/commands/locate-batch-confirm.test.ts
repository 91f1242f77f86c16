/**
 * The confirmation before spending, in a real pseudo-terminal (the built binary): a plan above the
 * confirm threshold shows inputs × depth cost against the balance and asks; "no" sends nothing.
 * (--yes and pipes never asking are in locate-batch.test.ts.)
 */
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';
import { builtBinaryOrThrow, spawnGeoInPty } from '../pty/pty.js';
import { IMG, answerConsent, footprint } from './locate-helpers.js';

const sb = withSandbox();
beforeAll(() => builtBinaryOrThrow());

function twoImages(): string {
  const dir = mkdtempSync(join(tmpdir(), 'geo-confirm-'));
  for (const n of ['tokyo.jpg', 'nogps.jpg']) copyFileSync(`${IMG}${n}`, join(dir, n));
  return dir;
}

describe('geo locate asks before spending above the threshold', { timeout: 60_000 }, () => {
  it.each([
    ['n', 2], // a choice, not an interruption (issue 22): exit 2, as gh
    ['y', 0],
  ])('answer %s -> exit %d', async (answer, code) => {
    const env = { HOME: tempConfigDir(), GEO_CONFIG_DIR: tempConfigDir(), GEO_BASE_URL: sb.url, GEO_API_KEY: KEYS.pro };
    // 2 images at depth 2 = 4 credits, above a threshold of 3.
    expect((await runCli(['config', 'set', 'confirm_threshold', '3'], { env })).code).toBe(0);
    const before = footprint(sb);
    const t = spawnGeoInPty(['locate', twoImages(), '--depth', '2'], env);
    await t.waitFor('Spend up to 4 credits');
    expect(t.screen()).toMatch(/plan: 2 inputs · 2 to send × depth 2 \(2 credits\) = up to 4 credits · balance \d+/);
    expect(t.screen()).toContain('(above the confirm threshold of 3)?');
    await answerConsent(t, answer, code, sb, before, 2);
    if (answer === 'y') {
      expect(t.screen()).toMatch(/2 inputs: 2 ok, 0 failed · 4 credits spent/);
    }
  });
});
