/**
 * XDG base directories for geo (GEO_CONFIG_DIR overrides the config folder). The cache folder
 * (GEO_CACHE_DIR, $XDG_CACHE_HOME/geo) follows the same rule in bin/load-cli.js, which runs before
 * any of src/ is loaded.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Env } from '../output/io.js';

function xdg(env: Env, variable: string, fallback: string[]): string {
  const v = env[variable];
  return v && v.startsWith('/') ? v : join(env.HOME || homedir(), ...fallback);
}

export function configDir(env: Env): string {
  return env.GEO_CONFIG_DIR || join(xdg(env, 'XDG_CONFIG_HOME', ['.config']), 'geo');
}

/** Batch journals live in the state folder. */
export function stateDir(env: Env): string {
  return env.GEO_STATE_DIR || join(xdg(env, 'XDG_STATE_HOME', ['.local', 'state']), 'geo');
}

/** Provenance records of results live in the data folder. */
export function dataDir(env: Env): string {
  return env.GEO_DATA_DIR || join(xdg(env, 'XDG_DATA_HOME', ['.local', 'share']), 'geo');
}

/** The code cache (bin/load-cli.js keeps the same rule, since it runs before src/ is loaded). */
export function cacheDir(env: Env): string {
  return env.GEO_CACHE_DIR || join(xdg(env, 'XDG_CACHE_HOME', ['.cache']), 'geo');
}
