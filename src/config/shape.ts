/**
 * The config file's shape, checked when it is read: a file edited by hand (or by another program)
 * gives one line naming the file and the field, exit 2 (ConfigError), instead of a crash later
 * (`{"profiles":"x"}` was exit 1 with no message; a number as a key, "key.slice is not a function").
 * A key stored in the file is checked like every key that enters geo (key-text.ts).
 */
import { ConfigError } from '../errors.js';
import { checkKeyText } from './key-text.js';

export const DEFAULT_KEYS = ['depth', 'format', 'confirm_threshold', 'accessible', 'tsa', 'tsa_ca', 'store'] as const;
export type DefaultKey = (typeof DEFAULT_KEYS)[number];

/** A profile as stored: the key itself (`key`, the 0600 file) or where the OS keyring holds it. */
export interface StoredProfile {
  baseUrl: string;
  /** The key, when it is kept in this file (--insecure-storage, no keyring, or written before geo used the keyring). */
  key?: string;
  /** The keyring entry's account name (service "geo-cli"), when the key is in the OS keyring. */
  keyring?: string;
  /** The masked key (maskKey) of a keyring entry, so `geo keys list` needs no keyring call. */
  masked?: string;
}

/**
 * A signing key geo made (`geo keys signing create`): its public key, and where the private key is:
 * an OS keyring entry or a 0600 file of its own. Never the private key itself (config/signing-store.ts).
 */
export interface StoredSigningKey {
  /** The OpenSSH one-line public key (`ssh-ed25519 AAAA… comment`). */
  publicKey: string;
  keyring?: string;
  file?: string;
}

/** Signing keys: which key signs by default, as whom, and the keys geo made. */
export interface StoredSigning {
  /** A geo key's name, the absolute path of a key file, or `agent:SHA256:…` (config/signing-keys.ts). */
  use?: string;
  /** The principal named in allowed_signers lines (default: user@host). */
  principal?: string;
  keys: Record<string, StoredSigningKey>;
}

export interface Stored {
  active?: string;
  profiles: Record<string, StoredProfile>;
  defaults: Partial<Record<DefaultKey, string>>;
  signing?: StoredSigning;
}

const TOP = ['active', 'profiles', 'defaults', 'signing', '__internal__'];
const PROFILE = ['baseUrl', 'key', 'keyring', 'masked'];
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);

/** The parsed file as geo's config, or a ConfigError naming `file` and the first wrong field. */
export function checkShape(parsed: unknown, file: string): Stored {
  const wrong = (field: string, what: string) =>
    new ConfigError(`the config file ${file} has the wrong shape: ${field} ${what}`, 'repair that field, or delete the file and add your keys again with `geo keys add`');
  if (!isObject(parsed)) throw wrong('the whole file', `must be a JSON object, not ${kind(parsed)}`);
  for (const k of Object.keys(parsed)) if (!TOP.includes(k)) throw wrong(`"${k}"`, `is not a config field (fields: active, profiles, defaults, signing)`);
  if (parsed.active !== undefined && typeof parsed.active !== 'string') throw wrong('"active"', `must be a profile name (a string), not ${kind(parsed.active)}`);
  const profiles = parsed.profiles ?? {};
  if (!isObject(profiles)) throw wrong('"profiles"', `must be an object of profiles, not ${kind(profiles)}`);
  for (const [name, p] of Object.entries(profiles)) {
    const at = `profiles.${name}`;
    if (!isObject(p)) throw wrong(at, `must be an object with baseUrl and key, not ${kind(p)}`);
    for (const k of Object.keys(p)) if (!PROFILE.includes(k)) throw wrong(`${at}.${k}`, 'is not a profile field (fields: baseUrl, key, keyring, masked)');
    for (const k of PROFILE) if (p[k] !== undefined && typeof p[k] !== 'string') throw wrong(`${at}.${k}`, `must be a string, not ${kind(p[k])}`);
    if (typeof p.baseUrl !== 'string') throw wrong(`${at}.baseUrl`, 'is missing');
    if ((p.key === undefined) === (p.keyring === undefined)) throw wrong(at, p.key === undefined ? 'has no key (neither key nor keyring)' : 'has both key and keyring');
    if (typeof p.key === 'string') {
      const checked = checkKeyText(p.key);
      if ('problem' in checked) throw wrong(`${at}.key`, `${checked.problem}: not a usable key (nothing was sent)`);
    }
  }
  const defaults = parsed.defaults ?? {};
  if (!isObject(defaults)) throw wrong('"defaults"', `must be an object, not ${kind(defaults)}`);
  for (const [k, v] of Object.entries(defaults)) {
    if (!(DEFAULT_KEYS as readonly string[]).includes(k)) throw wrong(`defaults.${k}`, `is not a setting (settings: ${DEFAULT_KEYS.join(', ')})`);
    if (typeof v !== 'string') throw wrong(`defaults.${k}`, `must be a string (as \`geo config set\` writes it), not ${kind(v)}`);
  }
  const signing = parsed.signing === undefined ? undefined : checkSigning(parsed.signing, wrong);
  return {
    ...(parsed.active !== undefined ? { active: parsed.active as string } : {}),
    profiles: profiles as Record<string, StoredProfile>,
    defaults: defaults as Stored['defaults'],
    ...(signing ? { signing } : {}),
  };
}

function checkSigning(v: unknown, wrong: (field: string, what: string) => ConfigError): StoredSigning {
  if (!isObject(v)) throw wrong('"signing"', `must be an object, not ${kind(v)}`);
  for (const k of Object.keys(v)) if (!['use', 'principal', 'keys'].includes(k)) throw wrong(`signing.${k}`, 'is not a signing field (fields: use, principal, keys)');
  for (const k of ['use', 'principal']) if (v[k] !== undefined && typeof v[k] !== 'string') throw wrong(`signing.${k}`, `must be a string, not ${kind(v[k])}`);
  const keys = v.keys ?? {};
  if (!isObject(keys)) throw wrong('signing.keys', `must be an object, not ${kind(keys)}`);
  for (const [name, k] of Object.entries(keys)) {
    const at = `signing.keys.${name}`;
    if (!isObject(k)) throw wrong(at, `must be an object, not ${kind(k)}`);
    for (const f of Object.keys(k)) if (!['publicKey', 'keyring', 'file'].includes(f)) throw wrong(`${at}.${f}`, 'is not a signing key field (fields: publicKey, keyring, file)');
    for (const f of ['publicKey', 'keyring', 'file']) if (k[f] !== undefined && typeof k[f] !== 'string') throw wrong(`${at}.${f}`, `must be a string, not ${kind(k[f])}`);
    if (typeof k.publicKey !== 'string') throw wrong(`${at}.publicKey`, 'is missing');
    if ((k.keyring === undefined) === (k.file === undefined)) throw wrong(at, 'must name exactly one place for its private key (keyring or file)');
  }
  return { ...(v.use !== undefined ? { use: v.use as string } : {}), ...(v.principal !== undefined ? { principal: v.principal as string } : {}), keys: keys as StoredSigning['keys'] };
}
