/**
 * SSH signatures (OpenSSH PROTOCOL.sshsig), the format `ssh-keygen -Y sign/verify` and git use, so
 * anyone can check what geo signed with ssh-keygen alone. The blob:
 *   byte[6] "SSHSIG", uint32 version 1, string publickey, string namespace, string reserved,
 *   string hash_algorithm, string signature
 * armored as "-----BEGIN SSH SIGNATURE-----", base64 at 70 columns. What the key signs is not the
 * message but (PROTOCOL.sshsig "Signed Data"):
 *   byte[6] "SSHSIG", string namespace, string reserved, string hash_algorithm, string H(message)
 * The namespace binds a signature to its use: a `geo-custody` signature cannot pass for a git
 * commit's or a file's (`-n file`), nor the other way round. Ed25519 only (ssh-key.ts).
 *
 * Ours rather than sshpk's: sshpk 1.18 reads and writes SSH keys but has no SSHSIG (its
 * asks for it, open since 2022), brings nine dependencies (its own Ed25519 in tweetnacl among them),
 * and its one gain, opening passphrase-protected keys (bcrypt-pbkdf), is what ssh-agent does here
 * without geo seeing the key. node:crypto does Ed25519; the formats are a few lengths and strings.
 */
import { createHash, verify as edVerify } from 'node:crypto';
import { type AllowedSigners, allows } from './allowed-signers.js';
import { ED25519, type SshPublicKey, fingerprint, nodePublicKey, parsePublicKeyBlob, publicKeyBlob, sameKey } from './ssh-key.js';
import { SshFormatError, SshReader, armor, sshString, u32, unarmor } from './ssh-wire.js';

/** The namespace of every signature geo makes over a custody head. */
export const CUSTODY_NAMESPACE = 'geo-custody';

const MAGIC = Buffer.from('SSHSIG');
const VERSION = 1;
const LABEL = 'SSH SIGNATURE';
type HashAlgorithm = 'sha256' | 'sha512';

/**
 * Something that signs with one Ed25519 key without showing it: a key read from a file or the OS
 * keyring (config/signing-keys.ts), or ssh-agent (config/ssh-agent.ts). `sign` returns the raw
 * 64-byte Ed25519 signature of exactly `data`.
 */
export interface SshSigner {
  publicKey: SshPublicKey;
  sign(data: Buffer): Promise<Buffer>;
}

export interface Sshsig {
  publicKey: SshPublicKey;
  namespace: string;
  hashAlgorithm: HashAlgorithm;
  /** The raw 64-byte Ed25519 signature. */
  signature: Buffer;
}

function signedData(namespace: string, hash: HashAlgorithm, message: Uint8Array): Buffer {
  const digest = createHash(hash).update(message).digest();
  // The reserved string is empty in what is signed, whatever the blob carries (sshsig.c does the same).
  return Buffer.concat([MAGIC, sshString(namespace), sshString(''), sshString(hash), sshString(digest)]);
}

/** The armored SSHSIG of `message` (sha512, as ssh-keygen makes them). The signer's answer is checked before it is returned. */
export async function signSshsig(message: Uint8Array, signer: SshSigner, namespace: string = CUSTODY_NAMESPACE): Promise<string> {
  if (namespace === '') throw new SshFormatError('an SSH signature needs a namespace');
  const data = signedData(namespace, 'sha512', message);
  const signature = await signer.sign(data);
  // A wrong answer (an agent that signed with another key, a damaged key file) fails here, not at the verifier.
  if (signature.length !== 64 || !edVerify(null, data, nodePublicKey(signer.publicKey), signature)) {
    throw new SshFormatError(`the signature made with key ${fingerprint(signer.publicKey)} does not verify under that key`);
  }
  const sigBlob = Buffer.concat([sshString(ED25519), sshString(signature)]);
  const blob = Buffer.concat([MAGIC, u32(VERSION), sshString(publicKeyBlob(signer.publicKey)), sshString(namespace), sshString(''), sshString('sha512'), sshString(sigBlob)]);
  return armor(LABEL, blob);
}

/** The fields of an armored SSHSIG; SshFormatError when it is not one geo can check. */
export function readSshsig(armored: string): Sshsig {
  const r = new SshReader(unarmor(LABEL, armored), 'the SSH signature');
  if (!r.bytes(6).equals(MAGIC)) throw new SshFormatError('not an SSH signature (no SSHSIG preamble)');
  const version = r.u32();
  if (version !== VERSION) throw new SshFormatError(`SSH signature version ${version} (geo reads version ${VERSION})`);
  const publicKey = parsePublicKeyBlob(r.string(), 'the signing key');
  const namespace = r.text();
  r.string(); // reserved: ignored, as PROTOCOL.sshsig says
  const hash = r.text();
  if (hash !== 'sha256' && hash !== 'sha512') throw new SshFormatError(`the SSH signature uses hash "${hash}" (sha256 or sha512 expected)`);
  const sig = new SshReader(r.string(), 'the signature field');
  const alg = sig.text();
  if (alg !== ED25519) throw new SshFormatError(`the signature is ${alg} (ssh-ed25519 expected)`);
  const signature = Buffer.from(sig.string());
  sig.end();
  r.end();
  if (signature.length !== 64) throw new SshFormatError(`the Ed25519 signature is ${signature.length} bytes (64 expected)`);
  return { publicKey, namespace, hashAlgorithm: hash, signature };
}

export type SshsigVerdict =
  | { ok: true; fingerprint: string; publicKey: SshPublicKey; principals: string[] }
  | { ok: false; problem: string; fingerprint?: string };

/**
 * Is `armored` a valid signature of `message` in `namespace` by the key it names? Says who signed,
 * not whether you trust them: see verifySshsig.
 */
export function checkSshsig(message: Uint8Array, armored: string, namespace: string = CUSTODY_NAMESPACE): SshsigVerdict {
  let sig: Sshsig;
  try {
    sig = readSshsig(armored);
  } catch (err) {
    if (err instanceof SshFormatError) return { ok: false, problem: err.message };
    throw err;
  }
  const fp = fingerprint(sig.publicKey);
  if (sig.namespace !== namespace) return { ok: false, fingerprint: fp, problem: `the signature is for namespace "${sig.namespace}", not "${namespace}"` };
  if (!edVerify(null, signedData(namespace, sig.hashAlgorithm, message), nodePublicKey(sig.publicKey), sig.signature)) {
    return { ok: false, fingerprint: fp, problem: `the signature by ${fp} does not match these bytes (they changed, or it was made over other bytes)` };
  }
  return { ok: true, fingerprint: fp, publicKey: sig.publicKey, principals: [] };
}

/** Keys you trust: a list of public keys, or an allowed_signers file (allowed-signers.ts). */
export type TrustedKeys = readonly SshPublicKey[] | AllowedSigners;

/**
 * `ssh-keygen -Y verify`: a valid signature (checkSshsig) by a key you trust. With an
 * allowed_signers file, the key's line must allow `namespace` and the time `at` (valid-after,
 * valid-before), and, when `principal` is given, list it (`-I`); `principals` are the line's names.
 */
export function verifySshsig(
  message: Uint8Array,
  armored: string,
  trusted: TrustedKeys,
  namespace: string = CUSTODY_NAMESPACE,
  opts: { principal?: string; at?: Date } = {},
): SshsigVerdict {
  const v = checkSshsig(message, armored, namespace);
  if (!v.ok) return v;
  if (Array.isArray(trusted)) {
    const keys = trusted as readonly SshPublicKey[];
    return keys.some((k) => sameKey(k, v.publicKey)) ? v : { ok: false, fingerprint: v.fingerprint, problem: `key ${v.fingerprint} is not among the trusted keys` };
  }
  const found = allows(trusted as AllowedSigners, v.publicKey, namespace, opts);
  if ('problem' in found) return { ok: false, fingerprint: v.fingerprint, problem: found.problem };
  return { ...v, principals: found.principals };
}
