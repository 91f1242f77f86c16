/**
 * geo eval's one confirmation for all depths, in a real pseudo-terminal (the built binary): the
 * plans of every depth are printed, the total is asked once, "no" sends nothing, "yes" runs them.
 * (--yes, and pipes refusing with nothing to ask, are in test/eval/command.test.ts.)
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/run-cli.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';
import { builtBinaryOrThrow, spawnGeoInPty } from '../pty/pty.js';
import { IMG, answerConsent, footprint } from './locate-helpers.js';

const sb = withSandbox();
beforeAll(() => builtBinaryOrThrow());

describe('geo eval asks once before spending above the threshold, for every depth together', { timeout: 60_000 }, () => {
  it.each([
    ['n', 2], // a choice, not an interruption (issue 22): exit 2, as gh
    ['y', 0],
  ])('answer %s -> exit %d', async (answer, code) => {
    const env = { HOME: tempConfigDir(), GEO_CONFIG_DIR: tempConfigDir(), GEO_STATE_DIR: tempConfigDir(), GEO_DATA_DIR: tempConfigDir(), GEO_BASE_URL: sb.url, GEO_API_KEY: KEYS.pro };
    // Two photos with EXIF GPS at depths 1 and 3: 2 × 1 + 2 × 10 = 22 credits, above the default 20.
    const before = footprint(sb);
    const t = spawnGeoInPty(['eval', `${IMG}paris.jpg`, `${IMG}tokyo.jpg`, '--depth', '1,3'], env);
    await t.waitFor('Spend up to 22 credits');
    expect(t.screen()).toMatch(/plan, depth 1: 2 inputs · 2 to send × depth 1 \(1 credit\) = up to 2 credits/);
    expect(t.screen()).toMatch(/plan, depth 3: 2 inputs · 2 to send × depth 3 \(10 credits\) = up to 20 credits/);
    await answerConsent(t, answer, code, sb, before, 4);
    if (answer === 'y') {
      expect(t.screen()).toContain('Accuracy, error and cost');
    }
  });
});
