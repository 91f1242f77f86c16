/**
 * Which key, base URL and profile a command uses. DESIGN.md: flag > env > profile > default.
 * There is no key flag on purpose: keys never travel in argv (they would show in `ps`).
 */
import type { Env } from '../output/io.js';
import { ConfigError } from '../errors.js';
import type { ConfigStore, Profile } from './store.js';

/** The hosted service (DESIGN.md "Public facts"). */
export const DEFAULT_BASE_URL = 'https://oceanir.ai';

export type Source = 'flag' | 'env' | 'profile' | 'default' | 'sandbox';

export interface Resolved {
  key?: { value: string; source: Source };
  baseUrl: { value: string; source: Source };
  profile?: { name: string; source: Source };
}

export interface ResolveInput {
  profile?: string;
  baseUrl?: string;
}

export function resolveCredentials(flags: ResolveInput, env: Env, store: ConfigStore): Resolved {
  const chosen = flags.profile ? { name: flags.profile, source: 'flag' as const } : env.GEO_PROFILE ? { name: env.GEO_PROFILE, source: 'env' as const } : undefined;
  let profile: Profile | undefined;
  if (chosen) {
    profile = store.profile(chosen.name);
    if (!profile) throw new ConfigError(`no profile named "${chosen.name}" (from ${chosen.source === 'flag' ? '--profile' : 'GEO_PROFILE'})`, 'see `geo keys list`, or add it with `geo keys add ' + chosen.name + '`');
  } else {
    const active = store.activeName();
    profile = active ? store.profile(active) : undefined;
  }
  const profileRef = profile ? { name: profile.name, source: chosen?.source ?? ('profile' as const) } : undefined;

  const key = env.GEO_API_KEY ? { value: env.GEO_API_KEY, source: 'env' as const } : profile ? { value: profile.key, source: 'profile' as const } : undefined;
  const baseUrl = flags.baseUrl
    ? { value: flags.baseUrl, source: 'flag' as const }
    : env.GEO_BASE_URL
      ? { value: env.GEO_BASE_URL, source: 'env' as const }
      : profile
        ? { value: profile.baseUrl, source: 'profile' as const }
        : { value: DEFAULT_BASE_URL, source: 'default' as const };
  return { ...(key ? { key } : {}), baseUrl, ...(profileRef ? { profile: profileRef } : {}) };
}

/** "orca_live_abcdef…1234" -> "orca_live_…1234": prefix and last 4, never the whole key. */
export function maskKey(key: string): string {
  const m = /^([a-z]+_[a-z]+_)/i.exec(key);
  const prefix = m ? m[1]! : key.slice(0, 4);
  return key.length <= prefix.length + 4 ? `${prefix}…` : `${prefix}…${key.slice(-4)}`;
}
