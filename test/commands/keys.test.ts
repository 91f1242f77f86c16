/**
 * geo keys: add/list/use/remove/show/test against a real sandbox, TTY and piped. These runs have no
 * D-Bus session bus, so no OS keyring answers and keys go to the 0600 file with a notice
 * (test/security/keyring.test.ts runs a real Secret Service).
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withSandbox } from '../helpers/sandbox.js';
import { type RunOptions, runCli, tempConfigDir } from '../helpers/run-cli.js';

const sb = withSandbox();

/** One config folder shared by a sequence of runs, no env key or base URL unless given. */
function session(env: Record<string, string | undefined> = {}) {
  const dir = tempConfigDir();
  const run = (argv: string[], opts: RunOptions = {}) => runCli(argv, { ...opts, env: { GEO_CONFIG_DIR: dir, ...env, ...opts.env } });
  return { dir, run };
}

const PRO = 'orca_sandbox_pro';
const ENT = 'orca_sandbox_enterprise';

describe('geo keys add', () => {
  it('reads the key from --stdin, verifies it, saves it as the active profile (piped)', async () => {
    const { dir, run } = session();
    const r = await run(['keys', 'add', 'work', '--stdin', '--base-url', sb.url], { stdin: `${ENT}\n` });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/Saved profile "work" \(orca_sandbox_…rise, http:\/\/127\.0\.0\.1:\d+; verified, \d+ credits available; key in the file .*config\.json\), active/);
    expect(r.stderr).toMatch(/^notice: no OS keyring answered \(no D-Bus session bus.*\), so the key is stored in the 0600 file .*config\.json — --insecure-storage/m);
    expect(r.stderr + r.stdout).not.toContain(ENT);
    const file = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(file).toMatchObject({ active: 'work', profiles: { work: { key: ENT, baseUrl: sb.url } } });
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('--json prints the masked profile; the second profile does not become active', async () => {
    const { run } = session();
    await run(['keys', 'add', '--stdin', '--base-url', sb.url], { stdin: ENT });
    const r = await run(['keys', 'add', 'second', '--stdin', '--base-url', sb.url, '--json'], { stdin: PRO, tty: true });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'second', key: 'orca_sandbox_…#1dc8', active: false, verified: true, replaced: false });
    expect(r.stdout + r.stderr).not.toContain(PRO);
  });

  it('a refused key is not saved: exit 3, one line, no key', async () => {
    const { dir, run } = session();
    const bad = 'orca_live_notarealkey987654';
    for (const debug of [[], ['--debug']]) {
      const r = await run(['keys', 'add', 'x', '--stdin', '--base-url', sb.url, ...debug], { stdin: bad });
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/key not saved: the service refused it/);
      expect(r.stderr).toMatch(/error: the API key was refused \(401\)/);
      expect(r.stdout + r.stderr).not.toContain(bad);
      if (debug.length) expect(r.stderr).toMatch(/\[debug\].*GET .*\/api\/v1\/credits/);
    }
    expect((await run(['keys', 'list', '--json'])).stdout.trim()).toBe('[]');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('--no-verify saves without a call', async () => {
    const { run } = session();
    const r = await run(['keys', 'add', 'offline', '--stdin', '--no-verify', '--base-url', 'https://oceanir.ai'], { stdin: 'orca_live_abcdefgh1234' });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('(orca_live_…1234, https://oceanir.ai; not verified; key in the file ');
    expect(sb.ledger()).toBeDefined();
  });

  it('without a terminal and without --stdin: usage error, exit 2, with a hint', async () => {
    const { run } = session();
    const r = await run(['keys', 'add', 'work', '--base-url', sb.url], { tty: false });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: no key given: .*hint: in scripts: printf %s "\$KEY" \| geo keys add NAME --stdin\n$/);
  });

  it('rejects a plain-http base URL that is not loopback, and an existing name without --yes', async () => {
    const { run } = session();
    const r = await run(['keys', 'add', '--stdin', '--base-url', 'http://example.com'], { stdin: PRO });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/plain http is allowed only for loopback/);
    await run(['keys', 'add', 'a', '--stdin', '--base-url', sb.url], { stdin: PRO });
    const again = await run(['keys', 'add', 'a', '--stdin', '--base-url', sb.url], { stdin: ENT });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already exists.*--yes/);
    const yes = await run(['keys', 'add', 'a', '--stdin', '--base-url', sb.url, '--yes'], { stdin: ENT });
    expect(yes.code).toBe(0);
    expect(yes.stderr).toMatch(/Replaced profile "a"/);
  });

  it('takes GEO_BASE_URL when no flag is given', async () => {
    const { run } = session({ GEO_BASE_URL: sb.url });
    const r = await run(['keys', 'add', '--stdin'], { stdin: PRO });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(sb.url);
  });
});

describe('geo keys list / use / remove', () => {
  async function twoProfiles() {
    const s = session();
    await s.run(['keys', 'add', 'work', '--stdin', '--base-url', sb.url], { stdin: ENT });
    await s.run(['keys', 'add', 'play', '--stdin', '--base-url', sb.url], { stdin: PRO });
    return s;
  }

  it('lists masked keys with the active one marked: plain when piped, boxed on a TTY', async () => {
    const { run } = await twoProfiles();
    const piped = await run(['keys', 'list']);
    expect(piped.code).toBe(0);
    expect(piped.stdout.split('\n')[0]).toMatch(/^\s+NAME\s+KEY\s+BASE URL\s+STORED$/);
    expect(piped.stdout).toMatch(/^\*\s+work\s+orca_sandbox_…rise\s+http:\/\/127\S+\s+file$/m);
    expect(piped.stdout).toMatch(/^\s+play\s+orca_sandbox_…#1dc8\s+http\S+\s+file$/m);
    expect(piped.stdout).not.toMatch(/[┌─│]/);
    const tty = await run(['keys', 'list'], { tty: true });
    expect(tty.stdout).toMatch(/[┌─│]/);
    for (const r of [piped, tty]) expect(r.stdout + r.stderr).not.toMatch(new RegExp(`${ENT}|${PRO}`));
    const json = JSON.parse((await run(['keys', 'list', '--json'])).stdout);
    expect(json).toEqual([
      { name: 'play', key: 'orca_sandbox_…#1dc8', baseUrl: sb.url, active: false, storage: 'file' },
      { name: 'work', key: 'orca_sandbox_…rise', baseUrl: sb.url, active: true, storage: 'file' },
    ]);
  });

  it('two short sandbox keys (pro, free) never look the same in keys list: a 4-hex fingerprint, never the key (issue 34)', async () => {
    const { run } = session();
    await run(['keys', 'add', 'play', '--stdin', '--base-url', sb.url], { stdin: PRO });
    await run(['keys', 'add', 'free', '--stdin', '--base-url', sb.url], { stdin: 'orca_sandbox_free' });
    const list = JSON.parse((await run(['keys', 'list', '--json'])).stdout) as Array<{ name: string; key: string }>;
    const masked = Object.fromEntries(list.map((p) => [p.name, p.key]));
    expect(masked).toEqual({ play: 'orca_sandbox_…#1dc8', free: 'orca_sandbox_…#afbe' });
    const text = (await run(['keys', 'list'])).stdout;
    expect(text).not.toMatch(/orca_sandbox_(pro|free)\b/);
  });

  it('use switches the active profile; an unknown name is exit 2', async () => {
    const { run } = await twoProfiles();
    const r = await run(['keys', 'use', 'play']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Active profile: play/);
    expect((await run(['keys', 'list'])).stdout).toMatch(/^\*\s+play/m);
    const bad = await run(['keys', 'use', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/no profile named "nope" — hint: profiles: play, work/);
  });

  it('remove needs --yes without a terminal (exit 2), and removes with it', async () => {
    const { run } = await twoProfiles();
    const no = await run(['keys', 'remove', 'work']);
    expect(no.code).toBe(2);
    expect(no.stderr).toMatch(/needs confirmation — hint: pass --yes/);
    const noInput = await run(['keys', 'remove', 'work', '--no-input'], { tty: true });
    expect(noInput.code).toBe(2);
    const yes = await run(['keys', 'remove', 'work', '--yes'], { tty: true });
    expect(yes.code).toBe(0);
    expect(yes.stderr).toMatch(/Removed profile "work"; no active profile now/);
    expect(JSON.parse((await run(['keys', 'list', '--json'])).stdout).map((p: { name: string }) => p.name)).toEqual(['play']);
  });
});

describe('geo keys show / test: precedence flag > env > profile', () => {
  it('show names the winning source of key, base URL and profile, masked', async () => {
    const { run } = session();
    await run(['keys', 'add', 'work', '--stdin', '--base-url', sb.url], { stdin: ENT });
    const fromProfile = JSON.parse((await run(['keys', 'show', '--json'])).stdout);
    expect(fromProfile).toEqual({ key: { value: 'orca_sandbox_…rise', source: 'profile', storage: 'file' }, baseUrl: { value: sb.url, source: 'profile' }, profile: { name: 'work', source: 'profile' } });
    const envKey = 'orca_live_fromtheenvironment42';
    const fromEnv = await run(['keys', 'show', '--json'], { env: { GEO_API_KEY: envKey, GEO_BASE_URL: 'https://env.example' } });
    // GEO_API_KEY goes with GEO_BASE_URL, not with the active profile (test/security/key-binding.test.ts).
    expect(JSON.parse(fromEnv.stdout)).toEqual({ key: { value: 'orca_live_…nt42', source: 'env', storage: 'env' }, baseUrl: { value: 'https://env.example', source: 'env' }, profile: null });
    const flag = await run(['keys', 'show', '--base-url', 'https://flag.example'], { env: { GEO_BASE_URL: 'https://env.example', GEO_API_KEY: envKey }, tty: true });
    expect(flag.stdout).toMatch(/base URL.*https:\/\/flag\.example.*flag/);
    expect(flag.stdout).toMatch(/key.*orca_live_…nt42.*env/);
    expect(flag.stdout).toMatch(/stored.*environment \(GEO_API_KEY\)/);
    for (const r of [fromEnv, flag]) expect(r.stdout + r.stderr).not.toContain(envKey);
  });

  it('test: ok + masked key + base URL + balance; GEO_API_KEY beats the profile; 401 is exit 3', async () => {
    const { run } = session();
    await run(['keys', 'add', 'work', '--stdin', '--base-url', sb.url], { stdin: ENT });
    const ok = await run(['keys', 'test']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^ok: the key works\nkey\s+orca_sandbox_…rise \(from profile, profile work; file .*config\.json\)\nbase URL\s+http:\/\/127\.0\.0\.1:\d+\ncredits\s+\d+ available/);
    const envWins = await run(['keys', 'test', '--json'], { env: { GEO_API_KEY: PRO, GEO_BASE_URL: sb.url } });
    expect(JSON.parse(envWins.stdout)).toMatchObject({ ok: true, key: 'orca_sandbox_…#1dc8', keySource: 'env', storage: 'env' });
    const bad = 'orca_live_wrongwrongwrong0001';
    for (const debug of [[], ['--debug']]) {
      const r = await run(['keys', 'test', ...debug], { env: { GEO_API_KEY: bad, GEO_BASE_URL: sb.url } });
      expect(r.code).toBe(3);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/error: the API key was refused \(401\)/);
      expect(r.stderr).not.toContain(bad);
    }
  });

  it('no key at all: exit 3 with a hint', async () => {
    const r = await session().run(['keys', 'test'], { tty: true, columns: 300 });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/no API key is configured — hint: set GEO_API_KEY/);
  });

  it('--profile that does not exist is a usage error', async () => {
    const r = await session().run(['keys', 'show', '--profile', 'ghost']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no profile named "ghost" \(from --profile\)/);
  });
});

describe('a refused key: the hint names where it came from, and following it works (issue 34: no circle)', () => {
  it('a profile\'s key: keys test points to keys add NAME, never back to keys test; after it, keys test passes', async () => {
    const { run } = session();
    expect((await run(['keys', 'add', 'work', '--stdin', '--base-url', sb.url, '--no-verify'], { stdin: 'orca_sandbox_nosuchkey' })).code).toBe(0);
    const refused = await run(['keys', 'test']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('hint: it is profile "work"\'s key: replace it with `geo keys add work --yes`');
    expect(refused.stderr).not.toContain('`geo keys test`');
    const replaced = await run(['keys', 'add', 'work', '--stdin', '--base-url', sb.url, '--yes'], { stdin: PRO });
    expect(replaced.code, replaced.stderr).toBe(0);
    expect((await run(['keys', 'test'])).code).toBe(0);
  });

  it('GEO_API_KEY: the hint says it wins over profiles and to correct or unset it, not to add a profile', async () => {
    const { run } = session({ GEO_API_KEY: 'orca_sandbox_nosuchkey', GEO_BASE_URL: sb.url });
    const refused = await run(['keys', 'test']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('hint: it comes from GEO_API_KEY, which wins over profiles: correct it, or unset it');
    expect(refused.stderr).not.toContain('`geo keys test`');
  });
});
