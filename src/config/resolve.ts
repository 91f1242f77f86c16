/**
 * Which key, base URL and profile a command uses. DESIGN.md: flag > env > profile > default, with
 * one rule above it: a key and its base URL come from the same place, so a key is sent
 * only to the service it belongs to.
 *
 * - `--profile NAME` (a flag) uses that profile's key, at that profile's origin.
 * - Else GEO_API_KEY, with --base-url or GEO_BASE_URL, else the default service; never with a
 *   profile's host (an exported key went wherever the active profile pointed).
 * - Else the profile of GEO_PROFILE, or the active one, at its own origin.
 * - A profile's key with a --base-url or GEO_BASE_URL of another origin is refused before
 *   anything is sent (UsageError, exit 2): a stale `export GEO_BASE_URL`, an .envrc or a pasted
 *   flag shipped the stored key to another host. The same origin with another path is fine.
 *
 * There is no key flag on purpose: keys never travel in argv (they would show in `ps`).
 */
import { createHash } from 'node:crypto';
import { normalizeBaseUrl } from '../api/client-util.js';
import type { Env } from '../output/io.js';
import { ConfigError, UsageError } from '../errors.js';
import { checkKeyText } from './key-text.js';
import type { ConfigStore, KeyStorage, Profile } from './profiles.js';

/** The hosted service (DESIGN.md "Public facts"). */
export const DEFAULT_BASE_URL = 'https://oceanir.ai';

export type Source = 'flag' | 'env' | 'profile' | 'default' | 'sandbox';

export interface ResolvedKey {
  source: Source;
  /** Where the key is kept: a profile's keyring entry or the 0600 file, the environment, the sandbox. */
  storage: KeyStorage | 'env' | 'sandbox';
  /** Safe to show (maskKey). */
  masked: string;
  /** The key; absent while it is in the keyring (Ctx.key() reads it when a request needs it). */
  value?: string;
  /** The profile whose keyring entry holds it. */
  profile?: Profile;
}

export interface Resolved {
  key?: ResolvedKey;
  baseUrl: { value: string; source: Source };
  profile?: { name: string; source: Source };
}

export interface ResolveInput {
  profile?: string;
  baseUrl?: string;
}

const originOf = (url: string) => new URL(normalizeBaseUrl(url)).origin;

function envKey(raw: string): ResolvedKey {
  const checked = checkKeyText(raw);
  if ('problem' in checked) throw new UsageError(`the key in GEO_API_KEY ${checked.problem}: nothing was sent`, 'set GEO_API_KEY to exactly one key, e.g. GEO_API_KEY="$(cat keyfile)"');
  return { source: 'env', storage: 'env', masked: maskKey(checked.key), value: checked.key };
}

function profileKey(p: Profile): ResolvedKey {
  if (p.storage === 'keyring') return { source: 'profile', storage: 'keyring', masked: p.masked ?? '(in the OS keyring)', profile: p };
  // The file's keys were checked when it was read (shape.ts); this trims the same way.
  const checked = checkKeyText(p.key ?? '');
  if ('problem' in checked) throw new ConfigError(`the key of profile "${p.name}" ${checked.problem}`, `add it again: geo keys add ${p.name} --yes`);
  return { source: 'profile', storage: 'file', masked: maskKey(checked.key), value: checked.key };
}

export function resolveCredentials(flags: ResolveInput, env: Env, store: ConfigStore): Resolved {
  // Read (and shape-checked) even when GEO_API_KEY makes it unneeded: a broken config is said at once.
  const active = store.activeName();
  const chosen = flags.profile ? { name: flags.profile, source: 'flag' as const } : env.GEO_PROFILE ? { name: env.GEO_PROFILE, source: 'env' as const } : undefined;
  let profile: Profile | undefined;
  if (chosen) {
    profile = store.profile(chosen.name);
    if (!profile) throw new ConfigError(`no profile named "${chosen.name}" (from ${chosen.source === 'flag' ? '--profile' : 'GEO_PROFILE'})`, 'see `geo keys list`, or add it with `geo keys add ' + chosen.name + '`');
  }
  const explicit = flags.baseUrl ? { value: flags.baseUrl, source: 'flag' as const } : env.GEO_BASE_URL ? { value: env.GEO_BASE_URL, source: 'env' as const } : undefined;

  // GEO_API_KEY: with the flag/env base URL or the default service, never a profile's host.
  if (env.GEO_API_KEY && chosen?.source !== 'flag') {
    return { key: envKey(env.GEO_API_KEY), baseUrl: explicit ?? { value: DEFAULT_BASE_URL, source: 'default' } };
  }
  profile ??= active ? store.profile(active) : undefined;
  if (!profile) return { baseUrl: explicit ?? { value: DEFAULT_BASE_URL, source: 'default' } };

  const key = profileKey(profile);
  const profileRef = { name: profile.name, source: chosen?.source ?? ('profile' as const) };
  if (!explicit) return { key, baseUrl: { value: profile.baseUrl, source: 'profile' }, profile: profileRef };
  const own = originOf(profile.baseUrl);
  const asked = originOf(explicit.value);
  if (asked !== own) {
    const from = explicit.source === 'flag' ? '--base-url' : 'GEO_BASE_URL';
    throw new UsageError(
      `profile "${profile.name}" holds a key for ${own}, not for ${asked} (from ${from}): the key goes only to its own service, so nothing was sent`,
      `for ${asked}, add a profile (geo keys add NAME --base-url ${asked}) or give that service's key in GEO_API_KEY; else drop ${from}`,
    );
  }
  return { key, baseUrl: explicit, profile: profileRef };
}

/**
 * "orca_live_abcdef…1234" -> "orca_live_…1234": prefix and last 4, never the whole key. A key too
 * short for that (its last 4 would be most of it, as the sandbox's orca_sandbox_pro) shows a
 * fingerprint instead, "orca_sandbox_…#1f0c" (4 hex of its sha256), so two keys never look the same
 * (the sandbox keys all masked to "orca_sandbox_…").
 */
export function maskKey(key: string): string {
  const m = /^([a-z]+_[a-z]+_)/i.exec(key);
  const prefix = m ? m[1]! : key.slice(0, 4);
  if (key.length > prefix.length + 8) return `${prefix}…${key.slice(-4)}`;
  return `${prefix}…#${createHash('sha256').update(key).digest('hex').slice(0, 4)}`;
}
