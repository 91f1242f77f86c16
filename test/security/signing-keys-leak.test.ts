/**
 * Issue 31, item 1 ("the private signing key never appears in argv, logs, the store, bundles or
 * exports"): `geo keys signing` against a real Secret Service (gnome-keyring in its own D-Bus
 * session, test/helpers/secret-service.ts) and with the 0600 file fallback. secret-tool, a client
 * independent of geo, reads the keyring entry; then every byte geo wrote (config, data, state and
 * cache folders, HOME, stdout and stderr of every command, --debug included) is searched for the
 * private key in every spelling (raw, hex, base64, base64url, the OpenSSH file's lines) and none
 * is found. With the file fallback, the one 0600 key file is the only place it may be.
 */
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyringCall } from '../../src/config/keyring.js';
import { ConfigStore } from '../../src/config/profiles.js';
import { readOpenSshPrivateKey } from '../../src/config/openssh-private-key.js';
import { openSigningKey } from '../../src/config/signing-keys.js';
import { signSshsig } from '../../src/evidence/sshsig.js';
import { type CliRun, spawnGeo } from '../helpers/run-cli.js';
import { type SecretService, hasSecretTool, missingTools, startSecretService } from '../helpers/secret-service.js';
import { sshFingerprint, sshVerify, tmp } from '../helpers/ssh.js';

const HEAD = Buffer.from('sha256:0ddba11\n');

function folder() {
  const home = tmp('geo-signing-leak-');
  const dirs = { home, config: join(home, 'config'), data: join(home, 'data'), state: join(home, 'state'), cache: join(home, 'cache') };
  return dirs;
}
type Folder = ReturnType<typeof folder>;

/** Every file under `dir`, as bytes, but the ones `except` names. */
function filesUnder(dir: string, except: readonly string[]): Array<[string, Buffer]> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    const p = join(dir, n);
    const st = statSync(p);
    if (st.isDirectory()) return filesUnder(p, except);
    return except.includes(p) || !st.isFile() ? [] : [[p, readFileSync(p)] as [string, Buffer]];
  });
}

/** The spellings of one private key to look for: its seed raw and encoded, and the key file's secret lines. */
function needles(pem: string): Array<string | Buffer> {
  const k = readOpenSshPrivateKey(pem);
  if (k.encrypted) throw new Error('encrypted');
  const seed = Buffer.from(String(k.privateKey.export({ format: 'jwk' }).d), 'base64url');
  expect(seed.length).toBe(32);
  const both = Buffer.concat([seed, k.publicKey.key]);
  // Lines 4 on of the armored file hold the check numbers, the seed and the padding (lines 1-3: header and public key).
  const lines = pem.trim().split('\n').slice(1, -1).slice(3);
  return [seed, seed.toString('hex'), seed.toString('base64'), seed.toString('base64url'), both.toString('base64'), both.toString('base64url'), '-----BEGIN OPENSSH PRIVATE KEY-----', ...lines];
}

const run = (f: Folder, argv: string[], env: Record<string, string>) =>
  spawnGeo(argv, { env: { HOME: f.home, GEO_CONFIG_DIR: f.config, GEO_DATA_DIR: f.data, GEO_STATE_DIR: f.state, GEO_CACHE_DIR: f.cache, USER: 'analyst', ...env } });

/** What an analyst runs: every signing command, in each output form, with --debug, and a refusal. */
const COMMANDS: string[][] = [
  ['keys', 'signing', 'show'], ['keys', 'signing', 'show', '--json'], ['keys', 'signing', 'show', 'default', '--format', 'ndjson'],
  ['keys', 'signing', 'list'], ['keys', 'signing', 'list', '--json'], ['keys', 'signing', 'use', 'default'], ['keys', 'signing', 'use', 'default', '--json'],
  ['keys', 'signing', 'test'], ['keys', 'signing', 'test', '--json'], ['--debug', 'keys', 'signing', 'test'], ['keys', 'signing', 'create', '--name', 'default'],
  ['keys', 'signing', '--help'], ['keys', 'list', '--json'], ['config', 'list'],
];

async function runAll(f: Folder, env: Record<string, string>): Promise<CliRun[]> {
  const out: CliRun[] = [];
  const made = await run(f, ['keys', 'signing', 'create', '--principal', 'analyst@example.org', '--json'], env);
  expect(made.code, made.stderr).toBe(0);
  out.push(made);
  for (const argv of COMMANDS) out.push(await run(f, argv, env));
  expect(out.filter((r) => r.code === 0).length).toBe(COMMANDS.length); // all but the refused re-create
  return out;
}

function expectNowhere(f: Folder, runs: CliRun[], secrets: Array<string | Buffer>, except: readonly string[]): void {
  const written = [
    ...filesUnder(f.home, except),
    ...runs.flatMap((r, i): Array<[string, Buffer]> => [[`stdout of run ${i}`, Buffer.from(r.stdout)], [`stderr of run ${i}`, Buffer.from(r.stderr)]]),
  ];
  expect(written.length).toBeGreaterThan(2 * runs.length); // the config file at least was searched
  for (const [where, bytes] of written) {
    for (const s of secrets) expect(bytes.includes(s), `${where} holds the private key (${typeof s === 'string' ? 'text' : 'raw bytes'})`).toBe(false);
  }
}

const missing = missingTools();
if (missing.length) console.log(`skipped the real Secret Service signing tests: ${missing.join(', ')} not installed (Debian packages dbus, gnome-keyring)`);

describe.skipIf(missing.length > 0)('signing keys in a real Secret Service', () => {
  let ss: SecretService;
  beforeAll(async () => {
    ss = await startSecretService();
  }, 20_000);
  afterAll(async () => ss?.close());

  it('the private key goes into the keyring (read back by secret-tool), the config names the entry, ssh-keygen verifies what it signs, and no byte geo wrote holds it', async () => {
    const f = folder();
    const env = { DBUS_SESSION_BUS_ADDRESS: ss.address };
    const runs = await runAll(f, env);
    const created = JSON.parse(runs[0]!.stdout);
    const account = `signing:default (${f.config})`;
    expect(runs[0]!.stderr).not.toMatch(/^notice:/m);
    expect(created).toMatchObject({ source: 'keyring', storedAt: `geo-cli / ${account}` });
    expect(JSON.parse(readFileSync(join(f.config, 'config.json'), 'utf8')).signing.keys.default).toEqual({ publicKey: created.publicKey, keyring: account });
    expect(() => statSync(join(f.config, 'signing'))).toThrow(); // no key file at all

    // The entry, read by a client that is not geo's (geo's own helper when secret-tool is absent).
    const vault = { env: { DBUS_SESSION_BUS_ADDRESS: ss.address }, execPath: process.execPath, configDir: f.config };
    const [entry] = hasSecretTool() ? [] : await keyringCall(vault, [{ op: 'get', account }]);
    const pem = hasSecretTool() ? await ss.lookup('geo-cli', account) : entry?.ok ? String(entry.value) : undefined;
    expect(pem).toContain('-----BEGIN OPENSSH PRIVATE KEY-----');
    const outside = join(tmp('geo-signing-outside-'), 'key');
    writeFileSync(outside, pem!, { mode: 0o600 });
    expect(sshFingerprint(outside)).toBe(created.fingerprint);

    const signer = (await openSigningKey({ config: new ConfigStore(f.config), vault })).signer;
    const v = sshVerify(f.home, { allowed: `${created.allowedSigners}\n`, principal: 'analyst@example.org', namespace: 'geo-custody', signature: await signSshsig(HEAD, signer), message: HEAD });
    expect(v.status, v.stderr).toBe(0);

    expectNowhere(f, runs, needles(pem!), []);
  });
});

describe('signing keys in the 0600 file (no keyring)', () => {
  it('no byte geo wrote holds the private key, except its own 0600 key file', async () => {
    const f = folder();
    const runs = await runAll(f, { DBUS_SESSION_BUS_ADDRESS: '', XDG_RUNTIME_DIR: '' });
    const keyFile = join(f.config, 'signing', 'default');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const secrets = needles(readFileSync(keyFile, 'utf8'));
    expectNowhere(f, runs, secrets, [keyFile]);
    // The search does find the key where it is: in the file left out above, by its secret lines.
    expect(secrets.slice(7).length).toBeGreaterThan(0);
    for (const line of secrets.slice(7)) expect(readFileSync(keyFile).includes(line)).toBe(true);
  });
});
