/**
 * Which key signs, and how. A signing key is named by a reference, the same in
 * `geo keys signing use REF` and in the config's signing.use:
 *   NAME                  a key geo made (signing-store.ts): signs in geo, read from the keyring or its 0600 file
 *   /path/to/id_ed25519   the analyst's own OpenSSH key: unencrypted, geo signs with it; passphrase-
 *                         protected (or a .pub file), ssh-agent signs with the matching key
 *   agent:SHA256:…        a key held by ssh-agent (SSH_AUTH_SOCK), named by its fingerprint
 * The principal (who signs, as allowed_signers lines name them) is one per config: signing.principal,
 * else USER@host. Describing a key geo keeps reads the config only (never the keyring); a key file
 * of yours is read whole (its public half is inside). A private key never leaves this process, and
 * an agent's never enters it.
 */
import { hostname, userInfo } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { type Stats, closeSync, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import { ConfigError, KeyringError, UsageError } from '../errors.js';
import type { Env } from './env.js';
import { principalProblem } from '../evidence/allowed-signers.js';
import { type SshPublicKey, fingerprint, parsePublicKeyLine, sameKey } from '../evidence/ssh-key.js';
import type { SshSigner } from '../evidence/sshsig.js';
import { SshFormatError } from '../evidence/ssh-wire.js';
import { type OpenSshKey, isOpenSshPrivateKey, keySigner, readOpenSshPrivateKey } from './openssh-private-key.js';
import { SIGNING_NAME, type SigningDeps, checkPrivateFileMode, readGeoPrivateKey } from './signing-store.js';
import { agentKeys, agentSigner, agentSocket } from './ssh-agent.js';
import { shellQuote } from '../files/shell.js';

export interface SigningKeyInfo {
  /** The reference as the config keeps it: NAME, an absolute path, or agent:SHA256:…. */
  ref: string;
  /** keyring / file: a key geo made, kept there; path: a key file of yours; agent: a key in ssh-agent. */
  source: 'keyring' | 'file' | 'path' | 'agent';
  publicKey: SshPublicKey;
  fingerprint: string;
  /** Who holds the private key when it signs: geo (this process) or ssh-agent. */
  signsIn: 'geo' | 'ssh-agent';
  /** The private key's file, for `file` and `path`. */
  path?: string;
}

export interface SigningKey extends SigningKeyInfo {
  principal: string;
  signer: SshSigner;
}

const NO_KEY_HINT = 'make one with `geo keys signing create`, or choose yours: geo keys signing use ~/.ssh/id_ed25519 (or agent:SHA256:…)';
const FINGERPRINT = /^SHA256:[A-Za-z0-9+/]{43}$/;

/** USER@host, made fit for an allowed_signers line. */
export function defaultPrincipal(env: Env): string {
  let user = env.USER || env.LOGNAME || '';
  try {
    user ||= userInfo().username;
  } catch {
    user ||= 'analyst';
  }
  return `${user}@${hostname()}`.replace(/[^\x21-\x7e]|[,"*?!#]/g, '_');
}

export function signingPrincipal(deps: SigningDeps): string {
  return deps.config.signing().principal ?? defaultPrincipal(deps.vault.env);
}

export function checkPrincipal(p: string): string {
  const problem = principalProblem(p);
  if (problem) throw new UsageError(`the principal "${p}" ${problem}`, 'use an email address or user@host');
  return p;
}

/** A reference as given (`use`'s argument) to its stored form; names must exist, paths are made absolute. */
export function normalizeRef(deps: SigningDeps, raw: string): string {
  if (raw.startsWith('agent:')) {
    const fp = raw.slice('agent:'.length);
    if (!FINGERPRINT.test(fp)) throw new UsageError(`"${raw}" does not name an agent key`, 'give its fingerprint as ssh-add -l prints it: agent:SHA256:…');
    return raw;
  }
  if (SIGNING_NAME.test(raw) && !raw.includes('/')) {
    if (deps.config.signing().keys[raw]) return raw;
    throw new ConfigError(`no signing key named "${raw}"`, `for a key file give its path (./${raw}); geo's keys: geo keys signing list`);
  }
  const home = deps.vault.env.HOME;
  const expanded = raw === '~' || raw.startsWith('~/') ? `${home ?? '~'}${raw.slice(1)}` : raw;
  return isAbsolute(expanded) ? expanded : resolve(expanded);
}

type KeyFile = { kind: 'private'; key: OpenSshKey } | { kind: 'public'; publicKey: SshPublicKey };

/** A key file of the analyst: an OpenSSH private key, or a .pub line (the agent signs). */
function readKeyFile(path: string): KeyFile {
  let text: string;
  let st: Stats;
  try {
    const fd = openSync(path, 'r');
    try {
      st = fstatSync(fd);
      text = readFileSync(fd, 'utf8').slice(0, 64 * 1024);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw new ConfigError(`cannot read the key file ${path} (${(err as NodeJS.ErrnoException).code})`, NO_KEY_HINT);
  }
  try {
    if (isOpenSshPrivateKey(text)) {
      // Refused as ssh refuses it ("UNPROTECTED PRIVATE KEY FILE"), passphrase or not, before it is chosen.
      checkPrivateFileMode(st, path);
      return { kind: 'private', key: readOpenSshPrivateKey(text) };
    }
    if (/^\s*ssh-\S+\s/.test(text)) return { kind: 'public', publicKey: parsePublicKeyLine(text.split('\n')[0]!, `the key in ${path}`) };
  } catch (err) {
    if (err instanceof SshFormatError) throw new ConfigError(`${path}: ${err.message}`, 'geo signs with Ed25519 keys: ssh-keygen -t ed25519');
    throw err;
  }
  throw new ConfigError(`${path} is not an OpenSSH key file`, 'give an OpenSSH Ed25519 private key (ssh-keygen -t ed25519), or its .pub with the key in ssh-agent');
}

/** The key in ssh-agent with this fingerprint, or a KeyringError saying how to add it (`keyFile`: the file chosen, named in each hint). */
async function inAgent(env: Env, fp: string, what: string, addHint: string, keyFile?: string): Promise<SshSigner> {
  const sock = agentSocket(env, keyFile);
  const held = (await agentKeys(sock, undefined, keyFile)).find((k) => k.fingerprint === fp);
  if (!held) throw new KeyringError(`${what}, and ssh-agent does not hold key ${fp}`, addHint);
  return agentSigner(sock, held.publicKey);
}

/** The stored reference (or `raw`, as `use` would store it), or the one chosen: signing.use. */
function chosenRef(deps: SigningDeps, raw?: string): string {
  if (raw !== undefined) return normalizeRef(deps, raw);
  const use = deps.config.signing().use;
  if (!use) throw new ConfigError('no signing key is chosen', NO_KEY_HINT);
  return use;
}

type Found = { info: SigningKeyInfo & { principal: string }; signer: () => Promise<SshSigner> };

/** The key REF names (default: the chosen one): its public facts now, its signer on demand. */
async function find(deps: SigningDeps, raw?: string): Promise<Found> {
  const ref = chosenRef(deps, raw);
  const principal = signingPrincipal(deps);
  const env = deps.vault.env;
  if (ref.startsWith('agent:')) {
    const fp = ref.slice('agent:'.length);
    // Only the agent knows the key behind a fingerprint: describing it asks the agent too.
    const signer = await inAgent(env, fp, `the signing key is ${ref}`, 'add it: ssh-add ~/.ssh/id_ed25519 (ssh-add -l lists what the agent holds)');
    return { info: { ref, source: 'agent', publicKey: signer.publicKey, fingerprint: fp, signsIn: 'ssh-agent', principal }, signer: async () => signer };
  }
  if (!ref.startsWith('/')) {
    const entry = deps.config.signing().keys[ref];
    if (!entry) throw new ConfigError(`the chosen signing key "${ref}" is not in the config any more`, NO_KEY_HINT);
    const publicKey = parsePublicKeyLine(entry.publicKey, `signing key "${ref}"`);
    const where = entry.keyring !== undefined ? { source: 'keyring' as const } : { source: 'file' as const, path: entry.file! };
    return {
      info: { ref, ...where, publicKey, fingerprint: fingerprint(publicKey), signsIn: 'geo', principal },
      signer: async () => keySigner(await readGeoPrivateKey(deps, ref, entry, publicKey), publicKey),
    };
  }
  const file = readKeyFile(ref);
  const publicKey = file.kind === 'private' ? file.key.publicKey : file.publicKey;
  const fp = fingerprint(publicKey);
  const base = { ref, source: 'path' as const, path: ref, publicKey, fingerprint: fp, principal };
  if (file.kind === 'private' && !file.key.encrypted) {
    const key = file.key.privateKey;
    return {
      info: { ...base, signsIn: 'geo' },
      signer: async () => {
        checkPrivateFileMode(statSync(ref), ref); // the check ssh makes before it uses a key file
        return keySigner(key, publicKey);
      },
    };
  }
  const what = file.kind === 'private' ? `${ref} is passphrase-protected (geo never asks for a passphrase)` : `${ref} is a public key`;
  const keyFile = file.kind === 'private' ? ref : ref.replace(/\.pub$/, '');
  const add = `add the key to ssh-agent: \`ssh-add ${shellQuote(keyFile)}\``;
  return {
    info: { ...base, signsIn: 'ssh-agent' },
    signer: async () => {
      const signer = await inAgent(env, fp, what, add, keyFile);
      if (!sameKey(signer.publicKey, publicKey)) throw new KeyringError(`ssh-agent holds another key under ${fp}`);
      return signer;
    },
  };
}

/**
 * The key REF names (default: the chosen one) and a signer for it, ready: a key geo keeps is read
 * from the keyring or its file now; an agent key is looked up in the agent now.
 */
export async function openSigningKey(deps: SigningDeps, raw?: string): Promise<SigningKey> {
  const found = await find(deps, raw);
  return { ...found.info, signer: await found.signer() };
}

/** Public facts only (for `show` and `use`): nothing is signed, no keyring read, no agent asked unless REF is agent:…. */
export async function describeSigningKey(deps: SigningDeps, raw?: string): Promise<SigningKeyInfo & { principal: string }> {
  return (await find(deps, raw)).info;
}
