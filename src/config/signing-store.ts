/**
 * Signing keys geo makes (`geo keys signing create`): an Ed25519 key in OpenSSH's own
 * format, kept where API keys are kept (key-storage.ts): the OS keyring (service "geo-cli", account
 * "signing:NAME (config folder)"), else a 0600 file of its own, <config folder>/signing/NAME, which
 * ssh-keygen can use as it is. The config file holds the public key and that reference, never the
 * private key; the private key is read only to sign, and never printed, logged or sent.
 */
import { constants, type Stats, fstatSync, openSync, closeSync, readFileSync, writeFileSync } from 'node:fs';
import { platform } from 'node:os';
import { join } from 'node:path';
import type { KeyObject } from 'node:crypto';
import { ConfigError, KeyringError, UsageError } from '../errors.js';
import { ensureOwnDir } from '../files/safe.js';
import { type SshPublicKey, fingerprint, publicKeyLine, sameKey } from '../evidence/ssh-key.js';
import { SshFormatError } from '../evidence/ssh-wire.js';
import { type Placed, type Vault, keyringPolicy, placeKey, preflight } from './key-storage.js';
import { KEYRING_SERVICE, KeyringUnavailable, keyringCall } from './keyring.js';
import { generateEd25519, publicKeyOf, readOpenSshPrivateKey, writeOpenSshPrivateKey } from './openssh-private-key.js';
import type { ConfigStore } from './profiles.js';
import type { StoredSigningKey } from './shape.js';

export const SIGNING_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** What signing needs from the context: the config, the keyring's access and the environment. */
export interface SigningDeps {
  config: ConfigStore;
  vault: Vault;
}

export const signingKeyFile = (configDir: string, name: string): string => join(configDir, 'signing', name);

export interface Created {
  name: string;
  publicKey: SshPublicKey;
  fingerprint: string;
  storage: Placed['storage'];
  /** Where the private key is: the keyring entry, or the file. */
  place: string;
  notice?: string;
}

/**
 * Makes key NAME, stores its private half (keyring, or the 0600 file) and records it in the config.
 * A name in use is refused: replacing a signing key would orphan what it signed.
 */
export async function createSigningKey(deps: SigningDeps, name: string, opts: { insecure: boolean; comment: string }): Promise<Created> {
  if (!SIGNING_NAME.test(name)) throw new UsageError(`"${name}" is not a usable signing key name`, 'use letters, digits, dot, dash and underscore (up to 64)');
  const signing = deps.config.signing();
  if (signing.keys[name]) throw new UsageError(`a signing key named "${name}" exists already`, 'pick another name (--name): a signing key is never replaced, so what it signed stays checkable');
  await preflight(deps.vault, opts.insecure);
  const file = signingKeyFile(deps.config.dir, name);
  const privateKey = generateEd25519();
  const publicKey = publicKeyOf(privateKey, opts.comment);
  let text = writeOpenSshPrivateKey(privateKey, opts.comment);
  const placed = await placeKey(deps.vault, `signing:${name}`, text, { insecure: opts.insecure, file });
  let entry: StoredSigningKey;
  if (placed.storage === 'keyring') entry = { publicKey: publicKeyLine(publicKey), keyring: placed.keyring };
  else {
    writeNewPrivateFile(file, text);
    entry = { publicKey: publicKeyLine(publicKey), file };
  }
  text = '';
  const now = deps.config.signing();
  await deps.config.saveSigning({ ...now, keys: { ...now.keys, [name]: entry }, ...(now.use ? {} : { use: name }) });
  return { name, publicKey, fingerprint: fingerprint(publicKey), storage: placed.storage, place: placed.storage === 'keyring' ? `${KEYRING_SERVICE} / ${placed.keyring}` : file, ...(placed.storage === 'file' && placed.notice ? { notice: placed.notice } : {}) };
}

/** 0600, created here and now: never through a link, never over an existing file. */
function writeNewPrivateFile(file: string, text: string): void {
  ensureOwnDir(join(file, '..'));
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ConfigError(`cannot create the signing key file ${file} (${code})`, code === 'EEXIST' ? 'a file of that name is there already: move it away, or pick another --name' : 'check the permissions of the config folder');
  }
  try {
    writeFileSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

/** ssh refuses a private key others can read ("UNPROTECTED PRIVATE KEY FILE"); so does geo. Windows has ACLs, not these bits. */
export function checkPrivateFileMode(st: Stats, file: string): void {
  if (platform() !== 'win32' && (st.mode & 0o077) !== 0) throw new ConfigError(`the private key ${file} can be read by others (mode ${(st.mode & 0o777).toString(8)})`, `chmod 600 ${file}`);
}

/** Reads a private key file without following a link at its last step. */
export function readPrivateFile(file: string, what: string): string {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (err) {
    throw new ConfigError(`${what} cannot be read from ${file} (${(err as NodeJS.ErrnoException).code})`, 'is the file there and yours?');
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > 64 * 1024) throw new ConfigError(`${file} is not a private key file`, 'give an OpenSSH private key (ssh-keygen -t ed25519)');
    checkPrivateFileMode(st, file);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** The private key of geo key NAME, checked against the public key the config recorded. */
export async function readGeoPrivateKey(deps: SigningDeps, name: string, entry: StoredSigningKey, expected: SshPublicKey): Promise<KeyObject> {
  const text = entry.keyring !== undefined ? await readKeyringText(deps.vault, name, entry.keyring) : readPrivateFile(entry.file!, `signing key "${name}"`);
  let key;
  try {
    key = readOpenSshPrivateKey(text);
  } catch (err) {
    if (err instanceof SshFormatError) throw new ConfigError(`signing key "${name}" is damaged (${err.message})`, 'make a new one: geo keys signing create --name NEW');
    throw err;
  }
  if (key.encrypted || !sameKey(key.publicKey, expected)) throw new ConfigError(`signing key "${name}" is not the key the config names (${fingerprint(expected)})`, 'make a new one: geo keys signing create --name NEW');
  return key.privateKey;
}

async function readKeyringText(v: Vault, name: string, account: string): Promise<string> {
  const what = `signing key "${name}" is in the OS keyring`;
  const hint = 'unlock the OS keyring (on Linux a Secret Service such as gnome-keyring)';
  if (keyringPolicy(v.env).use === 'never') throw new KeyringError(`${what}, and CI is set (geo never touches the OS keyring under CI): nothing was signed`, 'sign outside CI, or use a key file or ssh-agent: geo keys signing use PATH');
  let r;
  try {
    [r] = await keyringCall(v, [{ op: 'get', account }]);
  } catch (err) {
    if (err instanceof KeyringUnavailable) throw new KeyringError(`${what}, which cannot be read (${err.why}): nothing was signed`, hint);
    throw err;
  }
  if (!r?.ok) throw new KeyringError(`${what}, which refused to give it (${r?.error ?? 'no answer'}): nothing was signed`, hint);
  if (typeof r.value !== 'string') throw new KeyringError(`${what}, but the keyring has no entry for it (${KEYRING_SERVICE} / ${account}): nothing was signed`, 'make a new one: geo keys signing create --name NEW');
  return r.value;
}
