/**
 * Issue 20, item 2: keys in the OS keyring. Against a real Secret Service (gnome-keyring-daemon
 * unlocked inside its own dbus-run-session, test/helpers/secret-service.ts): keys add, keys list
 * (says keyring), a locate that authenticates with the key read back from it, keys migrate, keys
 * remove, and the config file on disk never holding a key that is in the keyring. secret-tool, a
 * client independent of geo's binding, reads the entries. Without D-Bus: the file fallback with its
 * one notice, GEO_KEYRING=required failing closed, CI=true never calling the keyring (a fake bus
 * socket counts connections), and a bus that never answers bounded at about 3 s.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, type Socket, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingProxy } from '../bad-input/counting-proxy.js';
import { type CliRun, runCli, spawnGeo } from '../helpers/run-cli.js';
import { FIXTURES, KEYS, withSandbox } from '../helpers/sandbox.js';
import { type SecretService, hasSecretTool, missingTools, startSecretService } from '../helpers/secret-service.js';

const sb = withSandbox();
const tmp = (p: string) => mkdtempSync(join(tmpdir(), p));
const configText = (dir: string) => (existsSync(join(dir, 'config.json')) ? readFileSync(join(dir, 'config.json'), 'utf8') : '');
const noticeLines = (r: CliRun) => r.stderr.split('\n').filter((l) => l.startsWith('notice:'));
const debits = () => sb.ledger().keys[KEYS.pro]!.debits;
/** The keyring entry geo makes for profile NAME of config folder DIR (config/key-storage.ts keyringAccount). */
const account = (name: string, dir: string) => `${name} (${dir})`;

const missing = missingTools();
if (missing.length) console.log(`skipped the real Secret Service tests: ${missing.join(', ')} not installed (Debian packages dbus, gnome-keyring; .ci/run installs them)`);

describe.skipIf(missing.length > 0)('a real Secret Service (gnome-keyring in its own D-Bus session)', () => {
  let ss: SecretService;
  beforeAll(async () => {
    ss = await startSecretService();
  }, 20_000);
  afterAll(async () => ss?.close());

  const geo = (dir: string, argv: string[], o: { stdin?: string; env?: Record<string, string> } = {}) =>
    spawnGeo(argv, { env: { GEO_CONFIG_DIR: dir, DBUS_SESSION_BUS_ADDRESS: ss.address, GEO_DATA_DIR: join(dir, 'data'), GEO_STATE_DIR: join(dir, 'state'), ...o.env }, ...(o.stdin !== undefined ? { stdin: o.stdin } : {}) });

  it('keys add stores the key in the keyring: list says keyring, the file has no key, locate authenticates with it, remove deletes it', async () => {
    const dir = tmp('geo-keyring-');
    const add = await geo(dir, ['keys', 'add', 'work', '--stdin', '--base-url', sb.url], { stdin: KEYS.pro });
    expect(add.code, add.stderr).toBe(0);
    expect(add.stderr).toMatch(/Saved profile "work" \(orca_sandbox_…#1dc8, http:\/\/127\.0\.0\.1:\d+; verified, \d+ credits available; key in the OS keyring\), active/);
    expect(noticeLines(add)).toEqual([]);
    expect(configText(dir)).not.toContain(KEYS.pro);
    expect(JSON.parse(configText(dir)).profiles.work).toEqual({ baseUrl: sb.url, keyring: account('work', dir), masked: 'orca_sandbox_…#1dc8' });
    if (hasSecretTool()) expect(await ss.lookup('geo-cli', account('work', dir))).toBe(KEYS.pro);

    const list = await geo(dir, ['keys', 'list']);
    expect(list.stdout).toMatch(/^\*\s+work\s+orca_sandbox_…#1dc8\s+http:\/\/127\.0\.0\.1:\d+\s+keyring$/m);
    expect(JSON.parse((await geo(dir, ['keys', 'list', '--json'])).stdout)).toEqual([{ name: 'work', key: 'orca_sandbox_…#1dc8', baseUrl: sb.url, active: true, storage: 'keyring' }]);
    expect((await geo(dir, ['keys', 'show'])).stdout).toMatch(/^stored\s+OS keyring/m);

    const before = debits();
    const located = await geo(dir, ['locate', join(FIXTURES, 'paris.jpg'), '--json']);
    expect(located.code, located.stderr).toBe(0);
    expect(JSON.parse(located.stdout).location).toBeDefined();
    expect(debits()).toBe(before + 1);

    const removed = await geo(dir, ['keys', 'remove', 'work', '--yes']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stderr).toMatch(/Removed profile "work" and its key from the OS keyring/);
    if (hasSecretTool()) expect(await ss.lookup('geo-cli', account('work', dir))).toBeUndefined();
    expect(configText(dir)).not.toContain(KEYS.pro);
  });

  it.runIf(hasSecretTool())('a keyring entry with a line break inside (set behind geo\'s back): one line naming it, exit 2 as the README says, nothing sent (issue 30)', async () => {
    const dir = tmp('geo-keyring-crlf-');
    expect((await geo(dir, ['keys', 'add', 'work', '--stdin', '--base-url', sb.url], { stdin: KEYS.pro })).code).toBe(0);
    await ss.store('geo-cli', account('work', dir), `${KEYS.pro}\r\nX-Injected: 1`);
    expect(await ss.lookup('geo-cli', account('work', dir))).toBe(`${KEYS.pro}\r\nX-Injected: 1`);
    const before = sb.ledger().keys[KEYS.pro]!.requests;
    for (const argv of [['locate', join(FIXTURES, 'paris.jpg')], ['credits']]) {
      const r = await geo(dir, argv);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/^error: the key of profile "work" is in the OS keyring, and it contains a line break \(U\+000D\) at character 17: nothing was sent — hint: add the key again: geo keys add work --yes\n$/);
      expect(r.stderr).not.toContain(KEYS.pro);
    }
    expect(sb.ledger().keys[KEYS.pro]!.requests).toBe(before);
  });

  it('keys migrate moves file keys into the keyring, read back first, and the file keeps none of them', async () => {
    const dir = tmp('geo-keyring-migrate-');
    // Two profiles as geo wrote them before it used the keyring.
    const profiles = { old: { baseUrl: sb.url, key: KEYS.pro }, other: { baseUrl: sb.url, key: KEYS.enterprise } };
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ active: 'old', profiles, defaults: {} }), { mode: 0o600 });
    expect((await geo(dir, ['keys', 'list'])).stdout).toMatch(/^\*\s+old\s+\S+\s+\S+\s+file$/m);
    expect((await geo(dir, ['credits'])).code).toBe(0); // file keys keep working

    const moved = await geo(dir, ['keys', 'migrate']);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stderr).toMatch(/Moved the key of profile "old" into the OS keyring \(read back, then removed from .*config\.json\)/);
    expect(moved.stderr).toMatch(/Moved the key of profile "other"/);
    const text = configText(dir);
    expect(text).not.toContain(KEYS.pro);
    expect(text).not.toContain(KEYS.enterprise);
    expect(JSON.parse((await geo(dir, ['keys', 'list', '--json'])).stdout).map((p: { storage: string }) => p.storage)).toEqual(['keyring', 'keyring']);
    if (hasSecretTool()) expect(await ss.lookup('geo-cli', account('other', dir))).toBe(KEYS.enterprise);

    const credits = await geo(dir, ['credits', '--json', '--profile', 'other']);
    expect(credits.code, credits.stderr).toBe(0);
    const again = await geo(dir, ['keys', 'migrate']);
    expect(again.stderr).toMatch(/Nothing to move: every key is in the OS keyring already/);
  });

  it('GEO_KEYRING=required works where a keyring answers', async () => {
    const dir = tmp('geo-keyring-required-');
    const add = await geo(dir, ['keys', 'add', 'strict', '--stdin', '--no-verify', '--base-url', sb.url], { stdin: KEYS.pro, env: { GEO_KEYRING: 'required' } });
    expect(add.code, add.stderr).toBe(0);
    expect(add.stderr).toMatch(/key in the OS keyring/);
    expect(configText(dir)).not.toContain(KEYS.pro);
  });

  it('with CI set, geo stores in the file even though a keyring answers, and the keyring gets no entry', async () => {
    const dir = tmp('geo-keyring-ci-');
    const add = await geo(dir, ['keys', 'add', 'ci', '--stdin', '--no-verify', '--base-url', sb.url], { stdin: KEYS.pro, env: { CI: 'true' } });
    expect(add.code, add.stderr).toBe(0);
    expect(noticeLines(add)).toEqual([`notice: CI is set, so geo does not use the OS keyring: the key is stored in the 0600 file ${join(dir, 'config.json')}`]);
    expect(JSON.parse(configText(dir)).profiles.ci.key).toBe(KEYS.pro);
    if (hasSecretTool()) expect(await ss.lookup('geo-cli', account('ci', dir))).toBeUndefined();
  });

  it('a keyring profile read under CI, or with no bus at all, fails closed: exit 3, nothing sent', async () => {
    const dir = tmp('geo-keyring-gone-');
    expect((await geo(dir, ['keys', 'add', 'work', '--stdin', '--no-verify', '--base-url', sb.url], { stdin: KEYS.pro })).code).toBe(0);
    const proxy = await countingProxy(sb.url);
    try {
      for (const env of [{ CI: 'true' }, { DBUS_SESSION_BUS_ADDRESS: '' }] as Array<Record<string, string>>) {
        const r = await geo(dir, ['credits', '--base-url', sb.url], { env });
        expect(r.code, r.stderr).toBe(3);
        expect(r.stderr).toMatch(/^error: the key of profile "work" is in the OS keyring, (and CI is set|which cannot be read \(no D-Bus session bus)/);
      }
      expect(proxy.count()).toBe(0);
    } finally {
      await proxy.close();
    }
  });
});

describe('no keyring answers (no D-Bus session bus)', () => {
  it('keys add falls back to the 0600 file and says so once; reading the key later says nothing more', async () => {
    const dir = tmp('geo-nokeyring-');
    const add = await runCli(['keys', 'add', 'work', '--stdin', '--base-url', sb.url], { stdin: KEYS.pro, env: { GEO_CONFIG_DIR: dir } });
    expect(add.code, add.stderr).toBe(0);
    expect(noticeLines(add)).toEqual([
      `notice: no OS keyring answered (no D-Bus session bus for the Secret Service (DBUS_SESSION_BUS_ADDRESS is not set)), so the key is stored in the 0600 file ${join(dir, 'config.json')} — --insecure-storage chooses the file on purpose; GEO_KEYRING=required refuses it`,
    ]);
    expect(JSON.parse(configText(dir)).profiles.work).toEqual({ baseUrl: sb.url, key: KEYS.pro });
    const credits = await runCli(['credits'], { env: { GEO_CONFIG_DIR: dir } });
    expect(credits.code).toBe(0);
    expect(credits.stderr).toBe('');
    const insecure = await runCli(['keys', 'add', 'filed', '--stdin', '--no-verify', '--insecure-storage', '--base-url', sb.url], { stdin: KEYS.pro, env: { GEO_CONFIG_DIR: dir } });
    expect(insecure.code).toBe(0);
    expect(noticeLines(insecure)).toEqual([]); // chosen on purpose: nothing to explain
    expect(insecure.stderr).toMatch(/key in the file .*config\.json/);
  });

  it('GEO_KEYRING=required fails closed: exit 3, one line, nothing stored, nothing sent (not even the key check)', async () => {
    const proxy = await countingProxy(sb.url);
    try {
      for (const env of [{ GEO_KEYRING: 'required' }, { GEO_KEYRING: 'required', CI: 'true' }]) {
        const dir = tmp('geo-required-');
        const r = await runCli(['keys', 'add', 'work', '--stdin', '--base-url', proxy.url], { stdin: KEYS.pro, env: { GEO_CONFIG_DIR: dir, ...env } });
        expect(r.code, r.stderr).toBe(3);
        expect(r.stderr).toMatch(/^error: GEO_KEYRING=required, and (no OS keyring answered|CI is set).*: nothing was stored or sent — hint: .*\n$/);
        expect(configText(dir)).not.toContain(KEYS.pro);
      }
      expect(proxy.count()).toBe(0);
    } finally {
      await proxy.close();
    }
    const both = await runCli(['keys', 'add', 'w', '--stdin', '--insecure-storage'], { stdin: KEYS.pro, env: { GEO_KEYRING: 'required' } });
    expect(both.code).toBe(2);
    const bad = await runCli(['keys', 'add', 'w', '--stdin'], { stdin: KEYS.pro, env: { GEO_KEYRING: 'yes please' } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/GEO_KEYRING must be "required" or "auto"/);
  });

  describe('a fake session bus that accepts connections and never answers', () => {
    let bus: Server;
    let connections = 0;
    const open = new Set<Socket>();
    let path: string;
    beforeAll(async () => {
      path = join(tmp('geo-fake-bus-'), 'bus');
      bus = createServer((s) => {
        connections++;
        open.add(s);
        s.on('error', () => undefined);
        s.on('close', () => open.delete(s));
      });
      await new Promise<void>((r) => bus.listen(path, r));
    });
    afterAll(async () => {
      for (const s of open) s.destroy();
      await new Promise((r) => bus.close(r));
      rmSync(path, { force: true });
    });

    it('CI=true never calls the keyring: no connection reaches the bus', async () => {
      const dir = tmp('geo-ci-');
      const r = await spawnGeo(['keys', 'add', 'work', '--stdin', '--no-verify', '--base-url', sb.url], { stdin: KEYS.pro, env: { GEO_CONFIG_DIR: dir, CI: 'true', DBUS_SESSION_BUS_ADDRESS: `unix:path=${path}` } });
      expect(r.code, r.stderr).toBe(0);
      expect(noticeLines(r)).toHaveLength(1);
      expect(noticeLines(r)[0]).toMatch(/^notice: CI is set, so geo does not use the OS keyring/);
      expect(connections).toBe(0);
      const migrate = await spawnGeo(['keys', 'migrate'], { env: { GEO_CONFIG_DIR: dir, CI: 'true', DBUS_SESSION_BUS_ADDRESS: `unix:path=${path}` } });
      expect(migrate.code).toBe(3);
      expect(connections).toBe(0);
    });

    it('without CI the call is bounded: after about 3 s geo gives up, uses the file and says why', async () => {
      const dir = tmp('geo-hung-');
      const t0 = Date.now();
      const r = await spawnGeo(['keys', 'add', 'work', '--stdin', '--no-verify', '--base-url', sb.url], { stdin: KEYS.pro, env: { GEO_CONFIG_DIR: dir, DBUS_SESSION_BUS_ADDRESS: `unix:path=${path}` } });
      const took = Date.now() - t0;
      expect(r.code, r.stderr).toBe(0);
      expect(connections).toBeGreaterThan(0); // the control: this bus does see a keyring call
      expect(noticeLines(r)).toEqual([expect.stringMatching(/^notice: no OS keyring answered \(the OS keyring did not answer within 3 s\), so the key is stored in the 0600 file/)]);
      expect(took).toBeGreaterThanOrEqual(3000);
      expect(took).toBeLessThan(10_000);
    }, 20_000);
  });
});
