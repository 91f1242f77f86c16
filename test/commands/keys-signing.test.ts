/**
 * Issue 31, item 1: `geo keys signing create | show | use | list | test`, run as the built binary,
 * here without an OS keyring (no D-Bus: the 0600 file fallback; test/security/signing-keys-leak
 * has the real Secret Service). What `show` prints is checked with the real ssh-keygen: its
 * fingerprint is `ssh-keygen -lf`'s, and its allowed_signers line lets `ssh-keygen -Y verify`
 * accept a head signed by geo with that key. The analyst's own keys (ssh-keygen -t ed25519) and a
 * real ssh-agent holding a passphrase-protected key sign too.
 */
import { readFileSync, statSync, chmodSync, mkdirSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/profiles.js';
import { openSigningKey } from '../../src/config/signing-keys.js';
import { signSshsig } from '../../src/evidence/sshsig.js';
import { type CliRun, spawnGeo } from '../helpers/run-cli.js';
import { type Agent, makeKey, sshFingerprint, sshKeygen, sshVerify, startAgent, tmp } from '../helpers/ssh.js';

const HEAD = Buffer.from('sha256:c0ffee\n');
/** No session bus: the keyring is not there, so keys go to the 0600 file (with the notice). */
const NO_BUS = { DBUS_SESSION_BUS_ADDRESS: '', XDG_RUNTIME_DIR: '' };

function folder() {
  const home = tmp('geo-signing-home-');
  return { home, config: join(home, 'config'), data: join(home, 'data') };
}
type Folder = ReturnType<typeof folder>;
const geo = (f: Folder, argv: string[], env: Record<string, string> = {}): Promise<CliRun> => spawnGeo(argv, { env: { HOME: f.home, GEO_CONFIG_DIR: f.config, GEO_DATA_DIR: f.data, USER: 'analyst', ...NO_BUS, ...env } });
const json = (r: CliRun) => {
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
};

/** Signs HEAD in this process with the key the config folder chose, as the custody code will. */
async function signWith(f: Folder, env: Record<string, string> = {}): Promise<string> {
  const deps = { config: new ConfigStore(f.config), vault: { env: { HOME: f.home, ...NO_BUS, ...env }, execPath: process.execPath, configDir: f.config } };
  return signSshsig(HEAD, (await openSigningKey(deps)).signer);
}

describe('a key geo makes, kept in the 0600 file where no keyring answers', () => {
  it('create: the notice, a 0600 OpenSSH key file ssh-keygen reads, a config with the public key only; show: what ssh-keygen needs to verify', async () => {
    const f = folder();
    const made = await geo(f, ['keys', 'signing', 'create', '--principal', 'analyst@example.org', '--json']);
    const c = json(made);
    const file = join(f.config, 'signing', 'default');
    expect(made.stderr).toMatch(new RegExp(`^notice: no OS keyring answered \\(no D-Bus session bus .*\\), so the key is stored in the 0600 file ${file} `, 'm'));
    expect(made.stderr).toContain(`Created signing key "default" (${c.fingerprint}), the default; private key in the 0600 file ${file}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(f.config, 'signing')).mode & 0o777).toBe(0o700);
    expect(c.fingerprint).toBe(sshFingerprint(file));
    expect(c).toMatchObject({ name: 'default', ref: 'default', source: 'file', principal: 'analyst@example.org', signsIn: 'geo', active: true, path: file, storedAt: file });

    const config = JSON.parse(readFileSync(join(f.config, 'config.json'), 'utf8'));
    expect(config.signing).toEqual({ principal: 'analyst@example.org', use: 'default', keys: { default: { publicKey: c.publicKey, file } } });
    expect(readFileSync(join(f.config, 'config.json'), 'utf8')).not.toContain('OPENSSH PRIVATE KEY');

    const shown = json(await geo(f, ['keys', 'signing', 'show', '--json']));
    expect(shown.allowedSigners).toBe(`analyst@example.org namespaces="geo-custody" ${String(c.publicKey).split(' ').slice(0, 2).join(' ')}`);
    const human = await geo(f, ['keys', 'signing', 'show']);
    expect(human.stdout).toContain(`fingerprint  ${c.fingerprint}\n`);
    expect(human.stdout).toContain(`\n${shown.allowedSigners}\n`);
    expect(human.stdout).toContain('ssh-keygen -Y verify -f allowed_signers -I analyst@example.org -n geo-custody -s head.sig < head');

    const sig = await signWith(f);
    const v = sshVerify(f.home, { allowed: `${shown.allowedSigners}\n`, principal: 'analyst@example.org', namespace: 'geo-custody', signature: sig, message: HEAD });
    expect(v.status, v.stderr).toBe(0);
    expect(json(await geo(f, ['keys', 'signing', 'test', '--json']))).toEqual({ ok: true, ref: 'default', fingerprint: c.fingerprint, signsIn: 'geo', principal: 'analyst@example.org' });
  });

  it('--insecure-storage chooses the file without a notice; a second key is not the default until `use`; a name in use is refused', async () => {
    const f = folder();
    const first = await geo(f, ['keys', 'signing', 'create', '--insecure-storage']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).not.toMatch(/^notice:/m);
    expect(first.stdout).toContain('principal    analyst@');
    const again = await geo(f, ['keys', 'signing', 'create', '--insecure-storage']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^error: a signing key named "default" exists already/);
    const second = json(await geo(f, ['keys', 'signing', 'create', '--insecure-storage', '--name', 'desk', '--json']));
    expect(second.active).toBe(false);
    expect((await geo(f, ['keys', 'signing', 'list'])).stdout).toMatch(/^\*\s+default\s+SHA256:\S+\s+file\n\s+desk\s+SHA256:\S+\s+file\n$/m);
    const used = await geo(f, ['keys', 'signing', 'use', 'desk']);
    expect(used.code, used.stderr).toBe(0);
    expect(used.stderr).toContain(`Signing key: desk (${second.fingerprint}; signs in geo (this process); principal analyst@`);
    expect((await geo(f, ['keys', 'signing', 'ls', '--json'])).stdout).toContain(`"ref": "desk",\n    "fingerprint": "${second.fingerprint}",\n    "source": "file",\n    "active": true`);
  });

  it('GEO_KEYRING=required under CI refuses: exit 3, nothing made', async () => {
    const f = folder();
    const r = await geo(f, ['keys', 'signing', 'create'], { CI: 'true', GEO_KEYRING: 'required' });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^error: GEO_KEYRING=required, and CI is set/);
    expect(() => statSync(join(f.config, 'signing'))).toThrow();
  });

  it('bad input is one line, exit 2: a principal that would break allowed_signers, a name that is none, no key chosen', async () => {
    const f = folder();
    for (const [argv, line] of [
      [['keys', 'signing', 'create', '--principal', 'a b'], 'error: the principal "a b" has a space, a control or a non-ASCII character'],
      [['keys', 'signing', 'create', '--name', '../x'], 'error: "../x" is not a usable signing key name'],
      [['keys', 'signing', 'use', 'nosuch'], 'error: no signing key named "nosuch"'],
      [['keys', 'signing', 'use', 'agent:SHA256:short'], 'error: "agent:SHA256:short" does not name an agent key'],
      [['keys', 'signing', 'show'], 'error: no signing key is chosen'],
      [['keys', 'signing', 'test'], 'error: no signing key is chosen'],
    ] as Array<[string[], string]>) {
      const r = await geo(f, argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr.split('\n')[0], argv.join(' ')).toMatch(new RegExp(`^${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});

describe('the analyst\'s own key', () => {
  it('~/.ssh/id_ed25519 without a passphrase signs in geo; ssh-keygen verifies; a key others can read is refused as ssh refuses it', async () => {
    const f = folder();
    mkdirSync(join(f.home, '.ssh'), { mode: 0o700 });
    const own = makeKey(join(f.home, '.ssh'), 'id_ed25519', { comment: 'me@laptop' });
    const used = json(await geo(f, ['keys', 'signing', 'use', '~/.ssh/id_ed25519', '--principal', 'me@example.org', '--json']));
    expect(used).toMatchObject({ ref: own.path, source: 'path', signsIn: 'geo', fingerprint: sshFingerprint(own.path), principal: 'me@example.org', active: true });
    const sig = await signWith(f);
    expect(sshVerify(f.home, { allowed: `${used.allowedSigners}\n`, principal: 'me@example.org', namespace: 'geo-custody', signature: sig, message: HEAD }).status).toBe(0);

    const shared = join(f.home, 'shared_key');
    copyFileSync(own.path, shared);
    chmodSync(shared, 0o644);
    const r = await geo(f, ['keys', 'signing', 'test', shared]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: the private key ${shared} can be read by others (mode 644) — hint: chmod 600 ${shared}`);
  });
});

describe('a private key file others can read is refused when it is chosen, as ssh refuses to load it', () => {
  const dir = tmp('geo-signing-modes-');
  const plain = makeKey(dir, 'id_plain', { comment: 'me@laptop' });
  const locked = makeKey(dir, 'id_locked', { passphrase: 'open sesame', comment: 'me@laptop' });
  it.each([
    ['plain', '644'], ['plain', '640'], ['plain', '604'], ['plain', '610'], ['plain', '600'], ['plain', '400'],
    ['passphrase-protected', '644'], ['passphrase-protected', '600'],
  ])('a %s key at mode %s: geo keys signing use agrees with ssh-keygen -y', async (kind, octal) => {
    const mode = parseInt(octal, 8);
    const key = kind === 'plain' ? plain : locked;
    const file = join(dir, `${kind}-${mode.toString(8)}`);
    copyFileSync(key.path, file);
    chmodSync(file, mode);
    const ssh = sshKeygen(['-y', '-P', kind === 'plain' ? '' : 'open sesame', '-f', file]);
    const refused = (mode & 0o077) !== 0;
    expect(ssh.status !== 0, ssh.stderr).toBe(refused);
    if (refused) expect(ssh.stderr).toMatch(/UNPROTECTED PRIVATE KEY FILE/);
    const f = folder();
    const r = await geo(f, ['keys', 'signing', 'use', file]);
    if (!refused) return expect(r.code, r.stderr).toBe(0);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toEqual([`error: the private key ${file} can be read by others (mode ${(mode & 0o777).toString(8)}) — hint: chmod 600 ${file}`]);
    expect((await geo(f, ['keys', 'signing', 'show'])).stderr).toMatch(/^error: no signing key is chosen/);
  });
});

describe('through a real ssh-agent', () => {
  const dir = tmp('geo-signing-agent-');
  const locked = makeKey(dir, 'id_locked', { passphrase: 'open sesame', comment: 'me@laptop' });
  let agent: Agent;
  beforeAll(async () => {
    agent = await startAgent(dir);
  });
  afterAll(async () => agent?.close());

  it('a passphrase-protected key where no agent runs or answers: every hint names the file chosen, quoted for the shell', async () => {
    const f = folder();
    const d = join(tmp('geo-signing-desk-'), 'keys for desk');
    mkdirSync(d);
    const own = makeKey(d, 'desk key', { passphrase: 'open sesame' });
    const add = `ssh-add '${own.path}'`;
    for (const sock of [{}, { SSH_AUTH_SOCK: join(f.home, 'no-agent.sock') }] as Array<Record<string, string>>) {
      const used = await geo(f, ['keys', 'signing', 'use', own.path], sock);
      expect(used.code, used.stderr).toBe(0);
      expect(used.stderr).toContain(`&& ${add}\``);
      const refused = await geo(f, ['keys', 'signing', 'test'], sock);
      expect(refused.code).toBe(3);
      expect(refused.stderr).toMatch(/^error: (no ssh-agent: SSH_AUTH_SOCK is not set|ssh-agent at \S+ cannot be reached \(ENOENT\)) — hint: start one and add your key: `eval "\$\(ssh-agent\)" && ssh-add '[^']+desk key'`/);
      expect(refused.stderr).toContain(add);
      expect(used.stderr + refused.stderr).not.toContain('id_ed25519');
    }
  });

  it('a passphrase-protected key: use warns until ssh-add, then test passes and ssh-keygen verifies what the agent signed', async () => {
    const f = folder();
    const early = await geo(f, ['keys', 'signing', 'use', locked.path], { SSH_AUTH_SOCK: agent.sock });
    expect(early.code, early.stderr).toBe(0);
    expect(early.stderr).toContain(`warning: it cannot sign yet: ${locked.path} is passphrase-protected (geo never asks for a passphrase), and ssh-agent does not hold key ${sshFingerprint(locked.path)} (add the key to ssh-agent: \`ssh-add ${locked.path}\`)`);
    const refused = await geo(f, ['keys', 'signing', 'test'], { SSH_AUTH_SOCK: agent.sock });
    expect(refused.code).toBe(3);

    expect(agent.add(locked.path, 'open sesame').status).toBe(0);
    const ok = json(await geo(f, ['keys', 'signing', 'test', '--json'], { SSH_AUTH_SOCK: agent.sock }));
    expect(ok).toMatchObject({ ok: true, signsIn: 'ssh-agent', fingerprint: sshFingerprint(locked.path) });
    const byFp = json(await geo(f, ['keys', 'signing', 'use', `agent:${sshFingerprint(locked.path)}`, '--json'], { SSH_AUTH_SOCK: agent.sock }));
    expect(byFp).toMatchObject({ source: 'agent', signsIn: 'ssh-agent', publicKey: locked.pub });
    const sig = await signWith(f, { SSH_AUTH_SOCK: agent.sock });
    const v = sshVerify(dir, { allowed: `${byFp.allowedSigners}\n`, principal: String(byFp.principal), namespace: 'geo-custody', signature: sig, message: HEAD });
    expect(v.status, v.stderr).toBe(0);
  });
});
