/**
 * OpenSSH private key files (`-----BEGIN OPENSSH PRIVATE KEY-----`, OpenSSH PROTOCOL.key), Ed25519
 * only: what `ssh-keygen -t ed25519` writes and what `geo keys signing create` keeps (in the OS
 * keyring or a 0600 file), so a key geo made also works with ssh-keygen, and the analyst's own
 * key works with geo.
 *   "openssh-key-v1\0", string ciphername, string kdfname, string kdfoptions, uint32 N (1),
 *   string publickey, string private section:
 *     uint32 check, uint32 check, string "ssh-ed25519", string pub[32], string seed||pub [64],
 *     string comment, padding 1, 2, 3… to a multiple of 8
 * A passphrase-protected key (ciphername other than "none") is not opened here: geo never asks for
 * a passphrase; such a key signs through ssh-agent (ssh-agent.ts), and its public half, which the
 * file keeps in clear, says which agent key to use.
 */
import { type KeyObject, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { ED25519, type SshPublicKey, parsePublicKeyBlob, publicKeyBlob } from '../evidence/ssh-key.js';
import type { SshSigner } from '../evidence/sshsig.js';
import { SshFormatError, SshReader, armor, sshString, u32, unarmor } from '../evidence/ssh-wire.js';

const MAGIC = Buffer.from('openssh-key-v1\0', 'latin1');
const LABEL = 'OPENSSH PRIVATE KEY';

export type OpenSshKey =
  | { encrypted: false; publicKey: SshPublicKey; privateKey: KeyObject }
  | { encrypted: true; publicKey: SshPublicKey; cipher: string };

export const isOpenSshPrivateKey = (text: string): boolean => text.includes(`-----BEGIN ${LABEL}-----`);

/** The key in `text`; SshFormatError (never quoting key bytes) when it is not an Ed25519 OpenSSH key. */
export function readOpenSshPrivateKey(text: string): OpenSshKey {
  const bytes = unarmor(LABEL, text);
  try {
    const r = new SshReader(bytes, 'the private key file');
    if (!r.bytes(MAGIC.length).equals(MAGIC)) throw new SshFormatError('not an OpenSSH private key (no openssh-key-v1 preamble)');
    const cipher = r.text();
    r.text(); // kdfname
    r.string(); // kdfoptions
    const n = r.u32();
    if (n !== 1) throw new SshFormatError(`the file holds ${n} keys (one expected)`);
    const publicKey = parsePublicKeyBlob(r.string(), 'the key in the file');
    const secret = r.string();
    r.end();
    if (cipher !== 'none') return { encrypted: true, publicKey, cipher };

    const p = new SshReader(secret, 'the private part of the key file');
    if (p.u32() !== p.u32()) throw new SshFormatError('the private part of the key file is damaged (check numbers differ)');
    if (p.text() !== ED25519) throw new SshFormatError('the private part is not an ssh-ed25519 key');
    const pub = p.string();
    const both = p.string();
    const comment = p.string().toString('utf8'); // a label: a stray byte in it must not make the key unusable
    const pad = p.rest();
    if (!pad.every((b, i) => b === i + 1)) throw new SshFormatError('the private part of the key file is damaged (bad padding)');
    if (!pub.equals(publicKey.key) || both.length !== 64 || !both.subarray(32).equals(pub)) throw new SshFormatError('the private part does not belong to the public key of the file');
    const privateKey = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: both.subarray(0, 32).toString('base64url'), x: pub.toString('base64url') }, format: 'jwk' });
    // The seed must give the public key the file claims: another pairing would sign as someone else.
    const derived = Buffer.from(String(createPublicKey(privateKey).export({ format: 'jwk' }).x), 'base64url');
    if (!derived.equals(pub)) throw new SshFormatError('the private part does not belong to the public key of the file');
    return { encrypted: false, publicKey: comment ? { ...publicKey, comment } : publicKey, privateKey };
  } finally {
    bytes.fill(0);
  }
}

/** A new Ed25519 key (node:crypto, the OS's randomness). */
export function generateEd25519(): KeyObject {
  return generateKeyPairSync('ed25519').privateKey;
}

export function publicKeyOf(privateKey: KeyObject, comment?: string): SshPublicKey {
  const key = Buffer.from(String(createPublicKey(privateKey).export({ format: 'jwk' }).x), 'base64url');
  return comment ? { key, comment } : { key };
}

/** The key as ssh-keygen writes it, unencrypted (it is kept in the OS keyring or a 0600 file). */
export function writeOpenSshPrivateKey(privateKey: KeyObject, comment: string): string {
  const pub = publicKeyOf(privateKey);
  const seed = Buffer.from(String(privateKey.export({ format: 'jwk' }).d), 'base64url');
  const check = randomBytes(4);
  const body = Buffer.concat([check, check, sshString(ED25519), sshString(pub.key), sshString(Buffer.concat([seed, pub.key])), sshString(comment)]);
  const pad = Buffer.from(Array.from({ length: (8 - (body.length % 8)) % 8 }, (_, i) => i + 1));
  const secret = Buffer.concat([body, pad]);
  const blob = Buffer.concat([MAGIC, sshString('none'), sshString('none'), sshString(''), u32(1), sshString(publicKeyBlob(pub)), sshString(secret)]);
  const text = armor(LABEL, blob);
  for (const b of [seed, body, secret, blob]) b.fill(0);
  return text;
}

/** Signs in this process with a key geo holds (read from a file or the OS keyring). */
export function keySigner(privateKey: KeyObject, publicKey: SshPublicKey): SshSigner {
  return { publicKey, sign: async (data) => sign(null, data, privateKey) };
}
