/**
 * Issue 31, item 1: signing through a real ssh-agent (started here on its own socket, `ssh-agent
 * -D -a SOCK`), so a passphrase-protected key signs without geo reading it. ssh-keygen verifies
 * what the agent signed for geo; a key the agent does not hold, an agent that is gone and a locked
 * agent each give one clear error (exit 3 class), never a hang.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../src/config/profiles.js';
import { openSigningKey } from '../../src/config/signing-keys.js';
import { agentKeys, agentSigner } from '../../src/config/ssh-agent.js';
import { KeyringError } from '../../src/errors.js';
import { fingerprint, parsePublicKeyLine } from '../../src/evidence/ssh-key.js';
import { signSshsig } from '../../src/evidence/sshsig.js';
import { type Agent, makeKey, sshFingerprint, sshVerify, startAgent, tmp } from '../helpers/ssh.js';

const dir = tmp('geo-agent-');
const PASS = 'correct horse battery staple';
const locked = makeKey(dir, 'locked', { passphrase: PASS, comment: 'analyst@example.org' });
const plain = makeKey(dir, 'plain');
const absent = makeKey(dir, 'absent');
const HEAD = Buffer.from('sha256:feedface\n');
const allowed = (pub: string) => `analyst@example.org namespaces="geo-custody" ${pub}\n`;

let agent: Agent;
beforeAll(async () => {
  agent = await startAgent(dir);
  const added = agent.add(locked.path, PASS);
  expect(added.status, added.stderr).toBe(0);
  expect(agent.add(plain.path).status).toBe(0);
});
afterAll(async () => agent?.close());

const deps = (env: Record<string, string | undefined>) => {
  const cfg = tmp('geo-agent-config-');
  return { config: new ConfigStore(cfg), vault: { env: { HOME: dir, ...env }, execPath: process.execPath, configDir: cfg } };
};

describe('a real ssh-agent', () => {
  it('lists the keys it holds, with the fingerprints ssh-keygen -lf prints', async () => {
    const keys = await agentKeys(agent.sock);
    expect(keys.map((k) => k.fingerprint).sort()).toEqual([sshFingerprint(locked.path), sshFingerprint(plain.path)].sort());
  });

  it('signs a head with the passphrase-protected key, and ssh-keygen -Y verify accepts it', async () => {
    const sig = await signSshsig(HEAD, agentSigner(agent.sock, parsePublicKeyLine(locked.pub)));
    const v = sshVerify(dir, { allowed: allowed(locked.pub), principal: 'analyst@example.org', namespace: 'geo-custody', signature: sig, message: HEAD });
    expect(v.status, v.stderr).toBe(0);
    expect(v.stdout).toContain(sshFingerprint(locked.path));
  });

  it('the key file of a passphrase-protected key, an agent:FINGERPRINT and a .pub all sign through the agent', async () => {
    const d = deps({ SSH_AUTH_SOCK: agent.sock });
    for (const ref of [locked.path, `agent:${sshFingerprint(locked.path)}`, `${locked.path}.pub`]) {
      const key = await openSigningKey(d, ref);
      expect({ source: key.source, signsIn: key.signsIn, fp: key.fingerprint }).toEqual({ source: ref.startsWith('agent:') ? 'agent' : 'path', signsIn: 'ssh-agent', fp: sshFingerprint(locked.path) });
      const sig = await signSshsig(HEAD, key.signer);
      expect(sshVerify(dir, { allowed: allowed(locked.pub), principal: 'analyst@example.org', namespace: 'geo-custody', signature: sig, message: HEAD }).status, ref).toBe(0);
    }
  });

  it('a key the agent does not hold, no agent, an agent gone, and a locked agent: one clear KeyringError each', async () => {
    const missing = openSigningKey(deps({ SSH_AUTH_SOCK: agent.sock }), `agent:${sshFingerprint(absent.path)}`);
    await expect(missing).rejects.toThrow(KeyringError);
    await expect(missing).rejects.toThrow(`ssh-agent does not hold key ${sshFingerprint(absent.path)}`);
    await expect(openSigningKey(deps({}), locked.path)).rejects.toThrow('no ssh-agent: SSH_AUTH_SOCK is not set');
    await expect(openSigningKey(deps({ SSH_AUTH_SOCK: `${dir}/nothing.sock` }), locked.path)).rejects.toThrow(/ssh-agent at .*nothing\.sock cannot be reached \(ENOENT\)/);

    const lock = spawnSync('ssh-add', ['-x'], { env: { PATH: process.env.PATH, SSH_AUTH_SOCK: agent.sock, SSH_ASKPASS: `${dir}/askpass.sh`, SSH_ASKPASS_REQUIRE: 'force', DISPLAY: ':0', TEST_PASSPHRASE: 'lockword' }, encoding: 'utf8' });
    expect(lock.status, lock.stderr).toBe(0);
    try {
      // A locked agent lists no keys: the key is "not held" until it is unlocked.
      await expect(openSigningKey(deps({ SSH_AUTH_SOCK: agent.sock }), locked.path)).rejects.toThrow('does not hold key');
      await expect(signSshsig(HEAD, agentSigner(agent.sock, parsePublicKeyLine(locked.pub)))).rejects.toThrow(`ssh-agent refused to sign with key ${fingerprint(parsePublicKeyLine(locked.pub))}`);
    } finally {
      spawnSync('ssh-add', ['-X'], { env: { PATH: process.env.PATH, SSH_AUTH_SOCK: agent.sock, SSH_ASKPASS: `${dir}/askpass.sh`, SSH_ASKPASS_REQUIRE: 'force', DISPLAY: ':0', TEST_PASSPHRASE: 'lockword' } });
    }
  });

  it('an unencrypted key file signs in geo without the agent', async () => {
    const key = await openSigningKey(deps({}), plain.path);
    expect(key.signsIn).toBe('geo');
    const sig = await signSshsig(HEAD, key.signer);
    expect(sshVerify(dir, { allowed: allowed(plain.pub), principal: 'analyst@example.org', namespace: 'geo-custody', signature: sig, message: HEAD }).status).toBe(0);
  });
});
