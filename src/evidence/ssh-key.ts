/**
 * Ed25519 public keys as OpenSSH writes them: the wire blob (RFC 8709 section 4: string
 * "ssh-ed25519", string key[32]), the one-line form of `id_ed25519.pub` and `allowed_signers`
 * (`ssh-ed25519 AAAA… comment`), and the fingerprint exactly as `ssh-keygen -lf` prints it
 * (`SHA256:` + the unpadded base64 of the blob's SHA-256). Only Ed25519: the one key type geo
 * makes and signs with; another type is named, not half-supported.
 */
import { type KeyObject, createHash, createPublicKey } from 'node:crypto';
import { SshFormatError, SshReader, sshString } from './ssh-wire.js';

export const ED25519 = 'ssh-ed25519';

export interface SshPublicKey {
  /** The 32 raw bytes of the Ed25519 public key. */
  key: Buffer;
  /** The comment of its one-line form (`alice@laptop`), when it had one: never part of its identity. */
  comment?: string;
}

export function publicKeyBlob(k: SshPublicKey): Buffer {
  return Buffer.concat([sshString(ED25519), sshString(k.key)]);
}

export function parsePublicKeyBlob(blob: Buffer, what = 'the public key'): SshPublicKey {
  const r = new SshReader(blob, what);
  const type = r.text();
  if (type !== ED25519) throw new SshFormatError(`${what} is a ${type} key: geo signs and verifies ssh-ed25519 keys only`);
  const key = r.string();
  if (key.length !== 32) throw new SshFormatError(`${what} has a ${key.length}-byte Ed25519 key (32 expected)`);
  r.end();
  return { key: Buffer.from(key) };
}

/** `ssh-ed25519 AAAA… comment` (the comment left out when there is none). */
export function publicKeyLine(k: SshPublicKey): string {
  const base = `${ED25519} ${publicKeyBlob(k).toString('base64')}`;
  return k.comment ? `${base} ${k.comment}` : base;
}

/**
 * One line of an `.pub` file: type, base64 blob, optional comment. The type word must agree with
 * the blob's own (OpenSSH refuses a mismatch too).
 */
export function parsePublicKeyLine(line: string, what = 'the public key'): SshPublicKey {
  const m = /^\s*(\S+)\s+([A-Za-z0-9+/]+={0,2})(?:\s+(.*?))?\s*$/.exec(line);
  if (!m) throw new SshFormatError(`${what} is not an OpenSSH public key line (ssh-ed25519 AAAA… comment)`);
  if (m[1] !== ED25519) throw new SshFormatError(`${what} is a ${m[1]} key: geo signs and verifies ssh-ed25519 keys only`);
  const k = parsePublicKeyBlob(Buffer.from(m[2]!, 'base64'), what);
  return m[3] ? { ...k, comment: m[3] } : k;
}

/** `SHA256:…` as `ssh-keygen -lf` prints it: unpadded standard base64. */
export function fingerprint(k: SshPublicKey): string {
  return `SHA256:${createHash('sha256').update(publicKeyBlob(k)).digest('base64').replace(/=+$/, '')}`;
}

export const sameKey = (a: SshPublicKey, b: SshPublicKey): boolean => a.key.equals(b.key);

/** The key as node:crypto takes it for crypto.verify (a JWK is the one raw-key import Node 20 has). */
export function nodePublicKey(k: SshPublicKey): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: k.key.toString('base64url') }, format: 'jwk' });
}
