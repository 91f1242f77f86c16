/**
 * Issue 31, item 1: SSH signatures (SSHSIG) geo makes and checks, against the real ssh-keygen in
 * both directions. Keys are made by `ssh-keygen -t ed25519 -N ''`; a signature geo makes verifies
 * with `ssh-keygen -Y verify`, one ssh-keygen makes verifies in geo, and a wrong namespace, a
 * changed message or another key fails in both. Ed25519 is deterministic, so geo's signature must
 * also be byte for byte the one ssh-keygen makes. Fingerprints equal `ssh-keygen -lf`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keySigner, readOpenSshPrivateKey, writeOpenSshPrivateKey, generateEd25519, publicKeyOf } from '../../src/config/openssh-private-key.js';
import { parseAllowedSigners } from '../../src/evidence/allowed-signers.js';
import { fingerprint, parsePublicKeyLine, publicKeyLine } from '../../src/evidence/ssh-key.js';
import { CUSTODY_NAMESPACE, type SshSigner, checkSshsig, readSshsig, signSshsig, verifySshsig } from '../../src/evidence/sshsig.js';
import { makeKey, sshFingerprint, sshKeygen, sshSign, sshVerify, tmp } from '../helpers/ssh.js';

const dir = tmp('geo-sshsig-');
const alice = makeKey(dir, 'alice', { comment: 'alice@example.org' });
const mallory = makeKey(dir, 'mallory');
const HEAD = Buffer.from('sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n');

function signerOf(path: string): SshSigner {
  const k = readOpenSshPrivateKey(readFileSync(path, 'utf8'));
  if (k.encrypted) throw new Error('encrypted');
  return keySigner(k.privateKey, k.publicKey);
}
const allowedFor = (principal: string, pub: string) => `${principal} namespaces="geo-custody" ${pub}\n`;
const ALICE_ALLOWED = allowedFor('alice@example.org', alice.pub);

describe('geo signs, ssh-keygen verifies', () => {
  it('a head signed by geo verifies with ssh-keygen -Y verify, and is byte for byte what ssh-keygen -Y sign makes', async () => {
    const sig = await signSshsig(HEAD, signerOf(alice.path));
    const v = sshVerify(dir, { allowed: ALICE_ALLOWED, principal: 'alice@example.org', namespace: 'geo-custody', signature: sig, message: HEAD });
    expect(v.status, v.stderr).toBe(0);
    expect(v.stdout).toContain(`Good "geo-custody" signature for alice@example.org with ED25519 key ${sshFingerprint(alice.path)}`);

    const file = join(dir, 'head');
    writeFileSync(file, HEAD);
    expect(sig).toBe(sshSign(alice.path, file, 'geo-custody'));
    expect(sig.split('\n').slice(1, -2).every((l) => l.length <= 70)).toBe(true);
  });

  it('ssh-keygen refuses geo\'s signature for another namespace, a changed message and another key', async () => {
    const sig = await signSshsig(HEAD, signerOf(alice.path));
    const base = { allowed: ALICE_ALLOWED, principal: 'alice@example.org', namespace: 'geo-custody', signature: sig, message: HEAD };
    expect(sshVerify(dir, base).status).toBe(0);
    expect(sshVerify(dir, { ...base, signature: await signSshsig(HEAD, signerOf(alice.path), 'file') }).status).not.toBe(0);
    expect(sshVerify(dir, { ...base, message: Buffer.from(HEAD.toString().replace('0123', '0124')) }).status).not.toBe(0);
    expect(sshVerify(dir, { ...base, signature: await signSshsig(HEAD, signerOf(mallory.path)) }).status).not.toBe(0);
  });
});

describe('ssh-keygen signs, geo verifies', () => {
  const file = join(dir, 'message');
  writeFileSync(file, HEAD);
  const sig = sshSign(alice.path, file, 'geo-custody');
  const trusted = parseAllowedSigners(ALICE_ALLOWED);

  it('verifies, naming the fingerprint ssh-keygen -lf prints and the principal of the allowed_signers line', () => {
    expect(verifySshsig(HEAD, sig, trusted)).toEqual({ ok: true, fingerprint: sshFingerprint(alice.path), publicKey: { key: parsePublicKeyLine(alice.pub).key }, principals: ['alice@example.org'] });
    expect(verifySshsig(HEAD, sig, trusted, CUSTODY_NAMESPACE, { principal: 'alice@example.org' }).ok).toBe(true);
    expect(verifySshsig(HEAD, sig, [parsePublicKeyLine(alice.pub)]).ok).toBe(true);
  });

  it('fails for another namespace, a changed message and another key, saying which', () => {
    const fp = sshFingerprint(alice.path);
    writeFileSync(join(dir, 'file-ns'), HEAD);
    const fileSig = sshSign(alice.path, join(dir, 'file-ns'), 'file');
    expect(verifySshsig(HEAD, fileSig, trusted)).toEqual({ ok: false, fingerprint: fp, problem: 'the signature is for namespace "file", not "geo-custody"' });
    expect(verifySshsig(Buffer.concat([HEAD, Buffer.from('x')]), sig, trusted)).toEqual({ ok: false, fingerprint: fp, problem: `the signature by ${fp} does not match these bytes (they changed, or it was made over other bytes)` });
    expect(verifySshsig(HEAD, sig, parseAllowedSigners(allowedFor('mallory@test', mallory.pub)))).toEqual({ ok: false, fingerprint: fp, problem: `key ${fp} is not in the allowed signers` });
    expect(verifySshsig(HEAD, sig, [parsePublicKeyLine(mallory.pub)])).toEqual({ ok: false, fingerprint: fp, problem: `key ${fp} is not among the trusted keys` });
    expect(verifySshsig(HEAD, sig, trusted, CUSTODY_NAMESPACE, { principal: 'bob@example.org' })).toEqual({ ok: false, fingerprint: fp, problem: `key ${fp} is not allowed for principal "bob@example.org"` });
  });

  it('a damaged or foreign signature is a problem, never a crash', () => {
    const lines = sig.split('\n');
    lines[2] = lines[2]!.replace(/[A-Z]/, (c) => (c === 'A' ? 'B' : 'A'));
    const damaged = checkSshsig(HEAD, lines.join('\n'));
    expect(damaged.ok).toBe(false);
    expect(checkSshsig(HEAD, 'hello')).toEqual({ ok: false, problem: 'no "-----BEGIN SSH SIGNATURE-----" … "-----END SSH SIGNATURE-----" block' });
    expect(checkSshsig(HEAD, sig.replace(/\n(\S+)\n-----END/, '\n$1!\n-----END'))).toEqual({ ok: false, problem: 'the SSH SIGNATURE block is not valid base64' });
    const rsa = join(dir, 'rsa');
    expect(sshKeygen(['-q', '-t', 'rsa', '-b', '2048', '-N', '', '-f', rsa]).status).toBe(0);
    writeFileSync(join(dir, 'rsa-msg'), HEAD);
    expect(checkSshsig(HEAD, sshSign(rsa, join(dir, 'rsa-msg'), 'geo-custody'))).toEqual({ ok: false, problem: 'the signing key is a ssh-rsa key: geo signs and verifies ssh-ed25519 keys only' });
  });

  it('readSshsig gives the fields ssh-keygen wrote', () => {
    const s = readSshsig(sig);
    expect({ ns: s.namespace, hash: s.hashAlgorithm, len: s.signature.length, fp: fingerprint(s.publicKey) }).toEqual({ ns: 'geo-custody', hash: 'sha512', len: 64, fp: sshFingerprint(alice.path) });
  });
});

describe('keys and fingerprints in OpenSSH\'s formats', () => {
  it('the fingerprint of each key equals ssh-keygen -lf, from the .pub line and from the private key file', () => {
    for (const k of [alice, mallory, makeKey(dir, 'third')]) {
      const expected = sshFingerprint(k.path);
      expect(expected).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
      expect(fingerprint(parsePublicKeyLine(k.pub))).toBe(expected);
      expect(fingerprint(signerOf(k.path).publicKey)).toBe(expected);
      expect(publicKeyLine(parsePublicKeyLine(k.pub))).toBe(k.pub);
    }
  });

  it('a private key geo writes is one ssh-keygen reads: same public key, same fingerprint, and its -Y sign verifies in geo', () => {
    const key = generateEd25519();
    const path = join(dir, 'geo-made');
    writeFileSync(path, writeOpenSshPrivateKey(key, 'geo@test'), { mode: 0o600 });
    const pub = publicKeyOf(key, 'geo@test');
    expect(sshKeygen(['-y', '-f', path]).stdout.trim()).toBe(publicKeyLine(pub));
    expect(sshFingerprint(path)).toBe(fingerprint(pub));
    writeFileSync(join(dir, 'geo-made-msg'), HEAD);
    const sig = sshSign(path, join(dir, 'geo-made-msg'), 'geo-custody');
    expect(verifySshsig(HEAD, sig, [pub])).toMatchObject({ ok: true, fingerprint: fingerprint(pub) });
    // And back: geo reads what it wrote (the comment too).
    const again = readOpenSshPrivateKey(readFileSync(path, 'utf8'));
    expect(again).toMatchObject({ encrypted: false, publicKey: { comment: 'geo@test' } });
  });

  it('a passphrase-protected key is recognised, with its public key, and not opened', () => {
    const locked = makeKey(dir, 'locked', { passphrase: 'correct horse' });
    const k = readOpenSshPrivateKey(readFileSync(locked.path, 'utf8'));
    expect(k.encrypted).toBe(true);
    expect(k).toMatchObject({ cipher: 'aes256-ctr' });
    expect(fingerprint(k.publicKey)).toBe(sshFingerprint(locked.path));
  });
});
