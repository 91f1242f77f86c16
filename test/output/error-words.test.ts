/** Issue 13, "Words": each status has its own hint when the body is empty; --debug only where it tells more. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { BelowConfidenceError, CancelledError } from '../../src/errors.js';
import { describeError } from '../../src/output/errors.js';

const empty = (status: number) => new ApiError(status, `http_${status}`, `HTTP ${status}`, { body: '' });

describe('error words', () => {
  it.each([
    [401, /the API key was refused \(401\) — hint: give a key the service accepts: `geo keys add NAME`, or GEO_API_KEY/],
    [402, /not enough credits \(402\) — hint: check `geo credits`/],
    [403, /this key may not call that endpoint \(403\) — hint: depth 3 and cases need a pro key/],
    [405, /\(405\) — hint: check --base-url/],
    [429, /rate limited after retries \(429\)/],
    [500, /the service failed \(500\) after retries — hint: nothing was charged/],
  ])('an empty %i body gets that status\'s own wording and hint', (status, line) => {
    const text = describeError(empty(status));
    expect(text).toMatch(line);
    expect(text).not.toContain('http_');
  });

  it('a decline, Ctrl-C or --min-confidence is not followed by "rerun with --debug"', () => {
    for (const err of [new CancelledError('cancelled: nothing was sent'), new BelowConfidenceError(0.4, 0.6)]) {
      expect(describeError(err)).not.toContain('--debug');
    }
    expect(describeError(new BelowConfidenceError(0.4, 0.6))).toMatch(/hint: the result was printed in full; lower --min-confidence/);
  });

  it('a full disk, however it surfaced (ENOSPC from node:fs, SQLITE_FULL), is "the disk is full" (issue 30)', () => {
    const enospc = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', path: '/tmp/x/frame-001.jpg' });
    expect(describeError(enospc)).toBe('error: cannot write /tmp/x/frame-001.jpg: the disk is full — hint: free some space, then run the same command again');
    expect(describeError(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }))).toBe('error: the disk is full — hint: free some space, then run the same command again');
  });
});
