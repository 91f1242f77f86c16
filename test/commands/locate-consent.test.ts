/**
 * Consent before spending (issue 11), through the real command against a real sandbox: the plan
 * line is on stderr before anything is spent (unless -q); a plan above the confirm threshold that
 * nothing can confirm (stdin or stderr piped, --no-input, CI) is refused with exit 2 and the hint
 * "pass --yes or --max-credits N", and the ledger shows no geolocate request; --yes and a covering
 * --max-credits consent; `geo locate ""` is a usage error. (The TTY prompt: locate-batch-confirm.)
 */
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ledgerFigures } from '../batch/helpers.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';
import { IMG, footprint, runner } from './locate-helpers.js';

const sb = withSandbox();
const run = runner(sb);

/** 3 images at depth 3: 30 credits, above the default threshold of 20. */
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'geo-consent-'));
  for (const n of ['tokyo.jpg', 'nogps.jpg', 'plain.png']) copyFileSync(`${IMG}${n}`, join(dir, n));
  return dir;
}
const geolocates = () => ledgerFigures(sb.ledger(), KEYS.pro).geolocateRequests;

describe('a plan above the confirm threshold, where nothing can ask', () => {
  it.each([
    ['piped (no TTY at all)', [], { tty: false }, 'stdin is not a terminal'],
    ['stdin piped, stderr a terminal', [], { tty: { stdin: false, stdout: true, stderr: true } }, 'stdin is not a terminal'],
    ['stderr piped, stdin a terminal', [], { tty: { stdin: true, stdout: true, stderr: false } }, 'stderr is not a terminal'],
    ['--no-input on a terminal', ['--no-input'], { tty: true }, '--no-input'],
    ['CI=true on a terminal', [], { tty: true, env: { CI: 'true' } }, 'CI is set'],
  ] as const)('%s: refused, exit 2, the hint, no geolocate sent', async (_name, flags, opts, why) => {
    const before = footprint(sb);
    const sent = geolocates();
    // A terminal wide enough for the error's one line (a narrow one wraps it: test/pty/width-copy).
    const r = await run(['locate', folder(), '--depth', '3', ...flags], { ...opts, columns: 300 });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^plan: 3 inputs · 3 to send × depth 3 \(10 credits\) = up to 30 credits · balance \d+\n/);
    expect(r.stderr.replace(/\u001b\[[0-9;]*m/g, '')).toContain(`error: the plan spends up to 30 credits, above the confirm threshold of 20, and nothing can ask for confirmation (${why}); nothing was sent — hint: pass --yes or --max-credits 30`);
    expect(r.stderr).not.toContain('Spend up to');
    expect(footprint(sb)).toEqual(before);
    expect(geolocates()).toBe(sent);
  });

  it('the configured threshold applies, to one image too', async () => {
    const env = { GEO_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'geo-consent-cfg-')) };
    expect((await run(['config', 'set', 'confirm_threshold', '5'], { env })).code).toBe(0);
    const sent = geolocates();
    const r = await run(['locate', `${IMG}tokyo.jpg`, '--depth', '3'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the plan spends up to 10 credits, above the confirm threshold of 5.* — hint: pass --yes or --max-credits 10/);
    expect(geolocates()).toBe(sent);
  });
});

describe('consent given', () => {
  it.each([
    ['--yes', ['--yes']],
    ['-y', ['-y']],
    ['--max-credits equal to the plan', ['--max-credits', '30']],
    ['--max-credits above the plan', ['--max-credits', '100']],
  ])('%s: sent on a pipe, the plan line first', async (_name, flags) => {
    const before = footprint(sb);
    const r = await run(['locate', folder(), '--depth', '3', '--fresh', ...flags]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^plan: 3 inputs · 3 to send × depth 3 \(10 credits\) = up to 30 credits · balance \d+\n/);
    expect(footprint(sb).debits).toBe(before.debits + 3);
  });

  it('-q: no plan line (nor anything else but errors)', async () => {
    const r = await run(['locate', folder(), '--depth', '3', '--yes', '-q']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('below the threshold nothing is asked or refused; the plan line still comes first', async () => {
    const r = await run(['locate', folder(), '--depth', '2']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^plan: 3 inputs · 3 to send × depth 2 \(2 credits\) = up to 6 credits · balance \d+\n/);
  });
});

describe('an empty input', () => {
  it.each([[['']], [['', `${IMG}tokyo.jpg`]], [['  ']]])('geo locate %j: usage error, exit 2, nothing read or sent', async (inputs) => {
    const before = footprint(sb);
    const sent = geolocates();
    const r = await run(['locate', ...inputs, '--yes']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: an input is an empty string; nothing was read or sent — hint: name a file, a folder \(`\.` for this one\), an https URL or `-`\n$/);
    expect(footprint(sb)).toEqual(before);
    expect(geolocates()).toBe(sent);
  });
});
