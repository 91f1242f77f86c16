/**
 * Issue 31 ("Must show": the private signing key never appears in argv, logs, the store, bundles
 * or exports): a case signed as it is appended, signed on demand, stamped, exported and bundled
 * by the built binary, --debug included, with a key geo made (its 0600 file, no keyring) and with
 * the analyst's own ~/.ssh key. Then every byte geo wrote is searched for the private key in
 * every spelling: every file under HOME (config, data with geo.db, state, cache, the export, the
 * bundle and each of its members extracted, since a deflated member would hide it), and the
 * stdout and stderr of every command. The one file it may be in is its own key file. The
 * arguments of every command are ours: none holds it either.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOpenSshPrivateKey } from '../../src/config/openssh-private-key.js';
import { type CliRun, spawnGeo } from '../helpers/run-cli.js';
import { makeKey, tmp } from '../helpers/ssh.js';
import { type Authority, type TsaServer, makeAuthority, serveAuthority } from '../helpers/tsa.js';

let A: Authority;
let tsa: TsaServer;
beforeAll(async () => {
  A = makeAuthority();
  tsa = await serveAuthority(A);
}, 30_000);
afterAll(async () => tsa?.close());

/** Every regular file under `dir`. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    const st = statSync(p);
    return st.isDirectory() ? filesUnder(p) : st.isFile() ? [p] : [];
  });
}

/** The private key's spellings: its 32-byte seed raw, hex, base64, base64url, seed+public, and the key file's secret lines. */
function needles(pem: string): Array<string | Buffer> {
  const k = readOpenSshPrivateKey(pem);
  if (k.encrypted) throw new Error('encrypted');
  const seed = Buffer.from(String(k.privateKey.export({ format: 'jwk' }).d), 'base64url');
  const both = Buffer.concat([seed, k.publicKey.key]);
  const lines = pem.trim().split('\n').slice(1, -1).slice(3);
  expect(lines.length).toBeGreaterThan(0);
  return [seed, seed.toString('hex'), seed.toString('base64'), seed.toString('base64url'), both.toString('base64'), both.toString('base64url'), '-----BEGIN OPENSSH PRIVATE KEY-----', ...lines];
}

const SETUPS = [
  ['a key geo made (its 0600 file, no keyring)', (home: string) => ({ argv: ['keys', 'signing', 'create', '--principal', 'analyst@example.org'], keyFile: join(home, 'config', 'signing', 'default') })],
  ['the analyst\'s own ~/.ssh/id_ed25519', (home: string) => {
    execFileSync('mkdir', ['-p', join(home, '.ssh')]);
    const k = makeKey(join(home, '.ssh'), 'id_ed25519');
    return { argv: ['keys', 'signing', 'use', '~/.ssh/id_ed25519', '--principal', 'analyst@example.org'], keyFile: k.path };
  }],
] as const;

describe('the private signing key, through signing, stamping, exporting and bundling a case', () => {
  it.each(SETUPS)('%s: no byte geo wrote holds it but its own key file', async (_name, setup) => {
    const home = tmp('geo-custody-leak-');
    const env = { HOME: home, GEO_CONFIG_DIR: join(home, 'config'), GEO_DATA_DIR: join(home, 'data'), GEO_STATE_DIR: join(home, 'state'), GEO_CACHE_DIR: join(home, 'cache'), USER: 'analyst', DBUS_SESSION_BUS_ADDRESS: '', XDG_RUNTIME_DIR: '' };
    const { argv, keyFile } = setup(home);
    const zip = join(home, 'out', 'leak.zip');
    const commands: string[][] = [
      argv,
      ['config', 'set', 'tsa', tsa.url],
      ['cases', 'create', '--name', 'Leak', '--local'],
      ['--sandbox', 'locate', 'sample:paris', '--case', 'Leak', '--json'],
      ['--debug', '--sandbox', 'locate', 'sample:tokyo', '--case', 'Leak'],
      ['cases', 'sign', 'Leak', '--json'],
      ['--debug', 'cases', 'stamp', 'Leak'],
      ['export', '--case', 'Leak', '--include-sandbox', '--format', 'geojson', '--out', join(home, 'out', 'leak.geojson')],
      ['--debug', 'cases', 'bundle', 'Leak', zip, '--with-originals'],
      ['cases', 'verify', zip, '--allow-sandbox', '--json'],
      ['--debug', 'cases', 'verify', 'Leak', '--allow-sandbox'],
      ['cases', 'show', 'Leak', '--json'],
    ];
    execFileSync('mkdir', ['-p', join(home, 'out')]);
    const runs: CliRun[] = [];
    for (const a of commands) {
      const r = await spawnGeo(a, { env });
      expect(r.code, `${a.join(' ')}: ${r.stderr}`).toBe(0);
      runs.push(r);
    }
    // The case was signed and stamped; the bundle carries the signatures and the token.
    expect(runs[6]!.stdout).toMatch(/^stamped /);
    execFileSync('unzip', ['-q', zip, '-d', join(home, 'out', 'extracted')]);
    expect(statSync(join(home, 'out', 'extracted', 'allowed_signers')).isFile()).toBe(true);

    const secrets = needles(readFileSync(keyFile, 'utf8'));
    const written: Array<[string, Buffer]> = [
      ...filesUnder(home).filter((p) => p !== keyFile).map((p): [string, Buffer] => [p, readFileSync(p)]),
      ...runs.flatMap((r, i): Array<[string, Buffer]> => [[`stdout of ${commands[i]!.join(' ')}`, Buffer.from(r.stdout)], [`stderr of ${commands[i]!.join(' ')}`, Buffer.from(r.stderr)]]),
      ...commands.map((a): [string, Buffer] => [`argv ${a.join(' ')}`, Buffer.from(a.join('\0'))]),
    ];
    expect(written.some(([p]) => p.endsWith('geo.db'))).toBe(true);
    expect(written.some(([p]) => p.endsWith(join('extracted', 'custody.jsonl')))).toBe(true);
    for (const [where, bytes] of written) {
      for (const s of secrets) expect(bytes.includes(s), `${where} holds the private key`).toBe(false);
    }
    // The search finds it where it is.
    for (const s of secrets.slice(7)) expect(readFileSync(keyFile).includes(s)).toBe(true);
  }, 120_000);
});
