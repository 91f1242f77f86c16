/**
 * A folder holding one subfolder that cannot be listed (EACCES on scandir): the subfolder is
 * skipped with a note, as an unreadable file is, and the rest of the folder is located; a named
 * folder that cannot be listed is one line, exit 2. Tests run as root, which permission bits do not
 * stop, so the built program runs as nobody (setpriv) against a folder of root's with a subfolder
 * at mode 000: the kernel's own refusal, not a simulated one. As another user, it runs as itself.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GEO_BIN, finished } from '../helpers/run-cli.js';
import { FIXTURES, KEYS, withSandbox } from '../helpers/sandbox.js';

const sb = withSandbox();
const ROOT = process.getuid?.() === 0;
const SETPRIV = ROOT && spawnSync('setpriv', ['--version']).status === 0;
const NOBODY = 65534;

/** photos/{paris.jpg, open/tokyo.jpg, locked/sydney.jpg}, locked at mode 000; readable by anyone else. */
function photos(): string {
  const top = mkdtempSync(join(tmpdir(), 'geo-unlistable-'));
  chmodSync(top, 0o755);
  const dir = join(top, 'photos');
  for (const sub of ['open', 'locked']) mkdirSync(join(dir, sub), { recursive: true, mode: 0o755 });
  copyFileSync(FIXTURES + 'paris.jpg', join(dir, 'paris.jpg'));
  copyFileSync(FIXTURES + 'tokyo.jpg', join(dir, 'open', 'tokyo.jpg'));
  copyFileSync(FIXTURES + 'sydney.jpg', join(dir, 'locked', 'sydney.jpg'));
  for (const f of ['paris.jpg', 'open/tokyo.jpg', 'locked/sydney.jpg']) chmodSync(join(dir, f), 0o644);
  chmodSync(dir, 0o755);
  chmodSync(join(dir, 'locked'), 0o000);
  return dir;
}

/** The built geo as an unprivileged user: a HOME of its own, the sandbox's pro key. */
function geoAsUser(argv: string[]) {
  const home = mkdtempSync(join(tmpdir(), 'geo-unlistable-home-'));
  if (ROOT) chownSync(home, NOBODY, NOBODY);
  const env = { PATH: process.env.PATH, HOME: home, GEO_API_KEY: KEYS.pro, GEO_BASE_URL: sb.url };
  const [cmd, args] = ROOT ? ['setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--', process.execPath, GEO_BIN, ...argv]] : [process.execPath, [GEO_BIN, ...argv]];
  return finished(spawn(cmd as string, args as string[], { env, stdio: ['ignore', 'pipe', 'pipe'] }));
}

describe.skipIf(ROOT && !SETPRIV)('a folder with a subfolder geo cannot list', () => {
  it('the subfolder is skipped with a note, the rest is located (exit 7, as for an unreadable file)', async () => {
    const dir = photos();
    // The refusal is the kernel's: as nobody, the subfolder cannot be listed.
    if (ROOT) expect(spawnSync('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--', 'ls', join(dir, 'locked')], { encoding: 'utf8' }).stderr).toMatch(/Permission denied/);
    const r = await geoAsUser(['locate', dir, '--format', 'ndjson']);
    expect(r.stderr).toContain(`skipped ${join(dir, 'locked')}: permission denied: a folder geo cannot list`);
    expect(r.stderr).not.toMatch(/EACCES|scandir|\n\s+at /);
    expect(r.code).toBe(7);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { input: string; ok: boolean; error?: { code: string } });
    // Records come as answers do; sorted here by input.
    expect(lines.map((l) => [l.input.slice(dir.length + 1), l.ok, l.error?.code ?? null]).sort()).toEqual([
      ['locked', false, 'skipped'],
      ['open/tokyo.jpg', true, null],
      ['paris.jpg', true, null],
    ]);
  });

  it('the folder named itself cannot be listed: one line naming it, exit 2, nothing sent', async () => {
    const dir = photos();
    const before = sb.ledger().keys[KEYS.pro]!.requests;
    const r = await geoAsUser(['locate', join(dir, 'locked')]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('error:'))).toEqual([`error: ${join(dir, 'locked')}: permission denied: a folder geo cannot list; nothing was sent — hint: check its permissions, or name the files and folders in it that you can read`]);
    expect(sb.ledger().keys[KEYS.pro]!.requests).toBe(before);
  });
});
