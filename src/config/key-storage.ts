/**
 * Where keys are kept: the OS keyring by default, the 0600 config file when no keyring
 * answers (said once, by the command that stored it), with --insecure-storage (on purpose), or when
 * CI is set (geo never touches a keyring there). GEO_KEYRING=required refuses the file: no keyring,
 * nothing stored and nothing sent (KeyringError, exit 3). The config file never holds a key that is
 * in the keyring: a keyring profile keeps the entry's account name and the masked key only.
 */
import { resolve } from 'node:path';
import { ConfigError, KeyringError, UsageError } from '../errors.js';
import { type Env, isCI } from '../output/io.js';
import { KEYRING_SERVICE, type KeyringDeps, KeyringUnavailable, keyringCall } from './keyring.js';
import { checkKeyText } from './key-text.js';
import type { Profile } from './profiles.js';

export interface Vault extends KeyringDeps {
  /** The config folder: part of each entry's account name, so two config folders never share one. */
  configDir: string;
}

type Policy = { use: 'auto' | 'required' } | { use: 'never'; required: boolean };

/** GEO_KEYRING (unset, auto or required) and CI, which wins: under CI the keyring is never touched. */
export function keyringPolicy(env: Env): Policy {
  const v = (env.GEO_KEYRING ?? '').trim().toLowerCase();
  if (v !== '' && v !== 'auto' && v !== 'required') throw new UsageError(`GEO_KEYRING must be "required" or "auto" (or unset), not "${env.GEO_KEYRING}"`, 'GEO_KEYRING=required refuses to keep keys anywhere but the OS keyring');
  if (isCI(env)) return { use: 'never', required: v === 'required' };
  return { use: v === 'required' ? 'required' : 'auto' };
}

/** The keyring entry of profile `name`: service "geo-cli", account "NAME (config folder)". */
export function keyringAccount(name: string, configDir: string): string {
  return `${name} (${resolve(configDir)})`;
}

const CI_REFUSES = 'CI is set, and geo never touches the OS keyring under CI';
const requiredFailed = (why: string) => new KeyringError(`GEO_KEYRING=required, and ${why}: nothing was stored or sent`, 'unlock or start the OS keyring (on Linux a Secret Service such as gnome-keyring), or unset GEO_KEYRING to allow the 0600 file');

/**
 * Before anything is sent on a key's behalf (`keys add` checks the key with the service first):
 * under GEO_KEYRING=required, make sure a keyring answers, so a refusal comes before any request.
 */
export async function preflight(v: Vault, insecure: boolean): Promise<void> {
  const p = keyringPolicy(v.env);
  const required = p.use === 'required' || (p.use === 'never' && p.required);
  if (required && insecure) throw new UsageError('--insecure-storage asks for the file, and GEO_KEYRING=required refuses it', 'drop one of the two');
  if (!required) return;
  if (p.use === 'never') throw requiredFailed(CI_REFUSES);
  try {
    const [r] = await keyringCall(v, [{ op: 'probe', account: keyringAccount('probe', v.configDir) }]);
    if (r && !r.ok) throw new KeyringUnavailable(r.error);
  } catch (err) {
    if (err instanceof KeyringUnavailable) throw requiredFailed(`no OS keyring answered (${err.why})`);
    throw err;
  }
}

export type Placed = { storage: 'keyring'; keyring: string } | { storage: 'file'; notice?: string };

/**
 * Puts the key of profile `name` in the keyring and reads it back; where that fails, decides for
 * the file (with the one notice to print) or refuses (GEO_KEYRING=required).
 */
export async function placeKey(v: Vault, name: string, key: string, opts: { insecure: boolean; file: string }): Promise<Placed> {
  const p = keyringPolicy(v.env);
  if (opts.insecure) return { storage: 'file' };
  if (p.use === 'never') {
    if (p.required) throw requiredFailed(CI_REFUSES);
    return { storage: 'file', notice: `notice: CI is set, so geo does not use the OS keyring: the key is stored in the 0600 file ${opts.file}` };
  }
  const account = keyringAccount(name, v.configDir);
  const why = await storeAndReadBack(v, account, key);
  if (why === undefined) return { storage: 'keyring', keyring: account };
  if (p.use === 'required') throw requiredFailed(`the OS keyring could not store it (${why})`);
  return { storage: 'file', notice: `notice: no OS keyring answered (${why}), so the key is stored in the 0600 file ${opts.file} — --insecure-storage chooses the file on purpose; GEO_KEYRING=required refuses it` };
}

/** Stores, then reads back and compares; undefined when the keyring now holds exactly `key`, else why not. */
export async function storeAndReadBack(v: Vault, account: string, key: string): Promise<string | undefined> {
  try {
    const [set, get] = await keyringCall(v, [{ op: 'set', account, secret: key }, { op: 'get', account }]);
    if (!set?.ok) return set?.error ?? 'no answer';
    if (!get?.ok) return `reading it back failed: ${get?.error ?? 'no answer'}`;
    return get.value === key ? undefined : 'reading it back gave another value';
  } catch (err) {
    if (err instanceof KeyringUnavailable) return err.why;
    throw err;
  }
}

/** The key of a keyring profile, checked like every key that enters geo. */
export async function readKeyringKey(v: Vault, profile: Profile): Promise<string> {
  const what = `the key of profile "${profile.name}" is in the OS keyring`;
  const hint = 'unlock the OS keyring, or give the key in GEO_API_KEY (with GEO_BASE_URL for its service)';
  if (keyringPolicy(v.env).use === 'never') throw new KeyringError(`${what}, and ${CI_REFUSES}: nothing was sent`, 'give the key in GEO_API_KEY (with GEO_BASE_URL for its service)');
  let r;
  try {
    [r] = await keyringCall(v, [{ op: 'get', account: profile.keyring! }]);
  } catch (err) {
    if (err instanceof KeyringUnavailable) throw new KeyringError(`${what}, which cannot be read (${err.why}): nothing was sent`, hint);
    throw err;
  }
  if (!r?.ok) throw new KeyringError(`${what}, which refused to give it (${r?.error ?? 'no answer'}): nothing was sent`, hint);
  if (typeof r.value !== 'string') throw new KeyringError(`${what}, but the keyring has no entry for it (${KEYRING_SERVICE} / ${profile.keyring}): nothing was sent`, `add the key again: geo keys add ${profile.name} --yes`);
  const checked = checkKeyText(r.value);
  // The keyring answered: what it holds is a bad key, as in the config file (README "Keys are
  // data": exit 2), not a keyring that cannot be read (exit 3).
  if ('problem' in checked) throw new ConfigError(`${what}, and it ${checked.problem}: nothing was sent`, `add the key again: geo keys add ${profile.name} --yes`);
  return checked.key;
}

/** Deletes a keyring profile's entry; a line to show when it could not be (the profile goes all the same). */
export async function forgetKeyringKey(v: Vault, account: string): Promise<string | undefined> {
  const left = `its key stays in the OS keyring as ${KEYRING_SERVICE} / ${account}; delete it there`;
  if (keyringPolicy(v.env).use === 'never') return `warning: ${CI_REFUSES}: ${left}`;
  try {
    const [r] = await keyringCall(v, [{ op: 'delete', account }]);
    return r?.ok ? undefined : `warning: the OS keyring refused (${r?.error ?? 'no answer'}): ${left}`;
  } catch (err) {
    if (err instanceof KeyringUnavailable) return `warning: no OS keyring answered (${err.why}): ${left}`;
    throw err;
  }
}
