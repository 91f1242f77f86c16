/**
 * geo doctor (issue 22): all good (a real Secret Service holding the key, a store with a result,
 * ffmpeg); no keyring; a folder with wrong modes; a damaged store; an unreachable service; offline
 * by default (a counting server sees no request unless --online or --auth).
 */
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeCheck } from '../../src/commands/doctor/checks.js';
import type { DoctorCtx } from '../../src/commands/doctor/checks.js';
import { runCli, tempConfigDir } from '../helpers/run-cli.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';
import { missingTools, startSecretService } from '../helpers/secret-service.js';

const missing = [...missingTools(), ...(['ffmpeg'].filter((t) => !process.env.PATH?.split(':').some((d) => existsSync(join(d, t)))))];
if (missing.length) console.log(`skipped doctor's "all good": ${missing.join(', ')} not installed (Debian packages dbus, gnome-keyring, ffmpeg; .ci/run installs them)`);

const sb = withSandbox();

/** Four fresh folders of geo's own (mkdtemp makes them 0700). */
function folders() {
  return { GEO_CONFIG_DIR: tempConfigDir(), GEO_STATE_DIR: tempConfigDir(), GEO_DATA_DIR: tempConfigDir(), GEO_CACHE_DIR: tempConfigDir() };
}

async function withProfile(env: Record<string, string>) {
  const r = await runCli(['keys', 'add', 'work', '--stdin', '--no-verify', '--base-url', sb.url], { env, stdin: KEYS.pro });
  expect(r.code).toBe(0);
}

describe('geo doctor', () => {
  it.skipIf(missing.length > 0)('all good: the key in a real OS keyring, a store with a result, ffmpeg, the key checked against the service; exit 0', async () => {
    const keyring = await startSecretService();
    try {
      const env = { ...folders(), DBUS_SESSION_BUS_ADDRESS: keyring.address };
      await withProfile(env);
      expect((await runCli(['locate', 'sample:paris', '--json'], { env })).code).toBe(0);
      const r = await runCli(['doctor', '--auth'], { env });
      expect(r.code).toBe(0);
      expect(r.stdout).not.toMatch(/^(warn|FAIL)/m);
      for (const name of ['node', 'config folder', 'state folder', 'data folder', 'cache folder', 'config file', 'key', 'keyring', 'store', 'sharp', 'jq', 'leaflet', 'borders', 'C2PA', 'ffmpeg', 'service']) {
        expect(r.stdout).toMatch(new RegExp(`^ok +${name} `, 'm'));
      }
      expect(r.stdout).toMatch(/^ok +key +orca_sandbox_…#1dc8 from profile "work", kept in the OS keyring/m);
      expect(r.stdout).toMatch(/^ok +keyring +the OS keyring answers \(holds the key of "work"\)/m);
      expect(r.stdout).toMatch(/^ok +store +\S+geo\.db: 1 result \(1 from the sandbox\), [\d.]+ MB, integrity ok/m);
      expect(r.stdout).toMatch(/^ok +ffmpeg +ffmpeg \S+ \(/m);
      expect(r.stdout).toMatch(/^ok +service +http:\/\/127\.0\.0\.1:\d+ \(from profile\): the key works \(GET \/api\/v1\/credits: \d+ credits available\)/m);
      expect(r.stdout).toMatch(/everything works\n$/);
      expect(r.stdout).not.toContain(KEYS.pro);
    } finally {
      await keyring.close();
    }
  });

  it('no keyring: a warning while keys can go to the 0600 file; a failure when a profile\'s key is in the keyring or GEO_KEYRING=required', async () => {
    const env = folders(); // no D-Bus session bus: no Secret Service
    const r = await runCli(['doctor'], { env });
    expect(r.stdout).toMatch(/^warn +keyring +no OS keyring answered \(no D-Bus session bus.*\): geo keys add keeps keys in the 0600 config file/m);
    expect(r.stdout).toMatch(/hint: start or unlock the OS keyring/);
    const required = await runCli(['doctor'], { env: { ...env, GEO_KEYRING: 'required' } });
    expect(required.code).toBe(1);
    expect(required.stdout).toMatch(/^FAIL +keyring +no OS keyring answered .*GEO_KEYRING=required refuses the file/m);
    const file = join(env.GEO_CONFIG_DIR, 'config.json');
    writeFileSync(file, JSON.stringify({ active: 'work', profiles: { work: { keyring: 'work (x)', masked: 'orca_…abcd', baseUrl: sb.url } } }), { mode: 0o600 });
    const held = await runCli(['doctor'], { env });
    expect(held.code).toBe(1);
    expect(held.stdout).toMatch(/^FAIL +keyring +no OS keyring answered .*, and the key of "work" is in it/m);
  });

  it('a damaged store fails with the file named and how to move it aside; exit 1', async () => {
    const env = folders();
    const db = join(env.GEO_DATA_DIR, 'geo.db');
    writeFileSync(db, Buffer.alloc(8192, 0x5a), { mode: 0o600 });
    const r = await runCli(['doctor'], { env });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`^FAIL +store +${db}: .*(damaged|not a database)`, 'm'));
    expect(r.stdout).toContain(`mv ${db} ${db}.damaged`);
    expect(r.stderr).not.toMatch(/at .*\.ts:\d+/);
  });

  it('a folder with wrong modes: the config folder fails (it holds keys), the data folder warns; each hint says how; exit 1', async () => {
    const env = folders();
    await withProfile(env);
    chmodSync(env.GEO_CONFIG_DIR, 0o755);
    chmodSync(env.GEO_DATA_DIR, 0o750);
    const r = await runCli(['doctor'], { env });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`FAIL  config folder  ${env.GEO_CONFIG_DIR}: mode 755, others can read the keys in it`);
    expect(r.stdout).toContain(`hint: chmod 700 ${env.GEO_CONFIG_DIR}`);
    expect(r.stdout).toMatch(new RegExp(`^warn +data folder +${env.GEO_DATA_DIR}: mode 750`, 'm'));
    expect(r.stdout).toMatch(/^1 failed, 2 warnings: see the hints above$/m); // the data folder, and no keyring here
  });

  it('a config file others can read fails; a broken one too', async () => {
    const env = folders();
    await withProfile(env);
    const file = join(env.GEO_CONFIG_DIR, 'config.json');
    chmodSync(file, 0o644);
    expect((await runCli(['doctor'], { env })).stdout).toContain(`hint: chmod 600 ${file}`);
    const broken = folders();
    writeFileSync(join(broken.GEO_CONFIG_DIR, 'config.json'), '{not json', { mode: 0o600 });
    const r = await runCli(['doctor'], { env: broken });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/FAIL +config file +.*config\.json: unreadable \(not JSON\)/);
  });

  it('an unreachable service fails with --online (exit 1); offline by default it is not contacted', async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const env = { ...folders(), GEO_BASE_URL: `http://127.0.0.1:${port}`, GEO_API_KEY: KEYS.pro };
    const offline = await runCli(['doctor'], { env });
    expect(offline.stdout).toMatch(/^ok +service +http:\/\/127\.0\.0\.1:\d+ \(from env\); not contacted/m);
    expect(requests).toBe(0);
    await new Promise((r) => server.close(r)); // nothing listens on that port now
    const r = await runCli(['doctor', '--online'], { env });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL +service +http:\/\/127\.0\.0\.1:\d+ \(from env\): cannot reach the service \(ECONNREFUSED\)/m);
    expect(r.stdout).toMatch(/hint: nothing was charged; check --base-url and your network/);
  });

  it('--json: one object per check', async () => {
    const r = await runCli(['doctor', '--json', 'name,status'], { env: folders() });
    const checks = JSON.parse(r.stdout) as Array<{ name: string; status: string }>;
    expect(checks.find((c) => c.name === 'key')).toEqual({ name: 'key', status: 'warn' });
  });

  it('a Node older than 20.18.1 fails the node check', async () => {
    const ctx = { node: '20.11.0' } as DoctorCtx;
    expect(await nodeCheck(ctx)).toMatchObject({ status: 'fail', hint: expect.stringContaining('Node 20.18+') });
    expect(await nodeCheck({ node: '24.1.0' } as DoctorCtx)).toMatchObject({ status: 'ok' });
  });
});
