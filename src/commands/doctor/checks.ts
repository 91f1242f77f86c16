/**
 * `geo doctor`'s checks: each one an independent function from what it may look at to
 * one or more results {name, status, detail, hint}. To add a check, write a function and add it
 * to CHECKS (local-checks.ts holds the store, the OS keyring and ffmpeg): nothing else changes.
 * Checks run offline; only the service and team-store checks may go out, and only when asked (--online, --auth).
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Ctx } from '../../context.js';
import { cacheDir, configDir, dataDir, stateDir } from '../../config/paths.js';
import { type Check, type CheckResult, folderCheck } from './check-types.js';
import { serviceCheck } from './service.js';
import { ffmpegCheck, keyringCheck, storeCheck } from './local-checks.js';
import { teamStoreCheck } from './team-store.js';

export type { Check, CheckResult, DoctorCtx, Status } from './check-types.js';

/** package.json "engines" (README "Quick start"). */
const NODE_MIN = [20, 18, 1] as const;

export const nodeCheck: Check = async (ctx) => {
  const v = ctx.node ?? 'unknown';
  const [a = 0, b = 0, c = 0] = v.split('.').map(Number);
  const ok = a > NODE_MIN[0] || (a === NODE_MIN[0] && (b > NODE_MIN[1] || (b === NODE_MIN[1] && c >= NODE_MIN[2])));
  return ok
    ? { name: 'node', status: 'ok', detail: `v${v} (geo needs ${NODE_MIN.join('.')} or newer; tested on 20 and 24)` }
    : { name: 'node', status: 'fail', detail: `v${v}: geo needs Node ${NODE_MIN.join('.')} or newer`, hint: 'install Node 20.18+ or 24 (nodejs.org, or your package manager)' };
};

/** The four folders geo owns; the config one holds keys, so any access by others fails it. */
export const foldersCheck: Check = async (ctx) => [
  folderCheck('config folder', configDir(ctx.env), 'keys', 'fail'),
  folderCheck('state folder', stateDir(ctx.env), 'journals', 'warn'),
  folderCheck('data folder', dataDir(ctx.env), 'results (where each photo was located)', 'warn'),
  folderCheck('cache folder', cacheDir(ctx.env), 'the code cache', 'warn'),
];

export const configFileCheck: Check = async (ctx) => {
  const path = ctx.config.path;
  let mode: number;
  try {
    mode = statSync(path).mode & 0o777;
  } catch {
    return { name: 'config file', status: 'ok', detail: `${path}: none yet (defaults; geo keys add writes it, 0600)` };
  }
  try {
    JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    return { name: 'config file', status: 'fail', detail: `${path}: unreadable (${err instanceof SyntaxError ? 'not JSON' : (err as NodeJS.ErrnoException).code ?? 'error'})`, hint: `fix or move it aside: mv ${path} ${path}.bak` };
  }
  if (mode & 0o077) return { name: 'config file', status: 'fail', detail: `${path}: mode ${mode.toString(8)}, others can read the keys in it`, hint: `chmod 600 ${path}` };
  return { name: 'config file', status: 'ok', detail: `${path} (0${mode.toString(8)})` };
};

/** Where the key comes from now, masked, and where it is kept (the OS keyring, the 0600 file, the environment). */
export const keysCheck: Check = async (ctx) => {
  const profiles = ctx.config.profiles();
  const inKeyring = profiles.filter((p) => p.storage === 'keyring').length;
  const where = `${profiles.length} profile${profiles.length === 1 ? '' : 's'} in ${ctx.config.path}, ${inKeyring} with the key in the OS keyring`;
  const r = ctx.resolved();
  if (!r.key) return { name: 'key', status: 'warn', detail: `no key configured (${where})`, hint: 'geo keys add (or GEO_API_KEY; any command runs keyless with --sandbox)' };
  const from = r.key.source === 'profile' && r.profile ? `profile "${r.profile.name}"` : r.key.source === 'env' ? 'GEO_API_KEY' : r.key.source;
  const kept = r.key.storage === 'keyring' ? 'kept in the OS keyring' : r.key.storage === 'file' ? 'kept in the config file (0600)' : r.key.storage === 'env' ? 'from the environment' : 'the sandbox\'s';
  return { name: 'key', status: 'ok', detail: `${r.key.masked} from ${from}, ${kept} (${where})` };
};

/** The version of an installed package, found from its entry point (some export no package.json). */
function installedVersion(pkg: string): string {
  const require = createRequire(import.meta.url);
  for (let dir = dirname(require.resolve(pkg)); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      const meta = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (meta.name === pkg) return meta.version ?? '?';
    } catch {
      // not this folder
    }
  }
  return '?';
}

/** Optional parts installed beside geo: each missing one names what stops working. */
export const optionalPartsCheck: Check = async () => {
  const part = async (name: string, pkg: string, what: string, load = false): Promise<CheckResult> => {
    try {
      const version = installedVersion(pkg);
      // sharp is native code: installed is not enough, its libvips binary must load on this machine.
      if (load) await import(pkg);
      return { name, status: 'ok', detail: `${pkg} ${version}` };
    } catch (err) {
      const why = (err as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' ? 'is not installed' : `does not load (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`;
      return { name, status: 'warn', detail: `${pkg} ${why}: ${what}`, hint: 'reinstall geo (npm install -g geo-cli) to get it back' };
    }
  };
  return [
    await part('sharp', 'sharp', 'no conversion of WebP/AVIF/TIFF/GIF, no --downscale, full-size images in reports', true),
    await part('jq', 'jq-wasm', '--jq does not work'),
    await part('leaflet', 'leaflet', 'HTML reports have no map'),
    await part('borders', '@rapideditor/country-coder', 'no offline country names'),
    await part('C2PA', '@contentauth/c2pa-wasm', 'content credentials (C2PA) are found but not checked'),
  ];
};

export const CHECKS: readonly Check[] = [nodeCheck, foldersCheck, configFileCheck, keysCheck, keyringCheck, storeCheck, teamStoreCheck, optionalPartsCheck, ffmpegCheck, serviceCheck];

export async function runDoctor(ctx: Ctx, opts: { online: boolean; auth: boolean }): Promise<CheckResult[]> {
  const dctx = { ...ctx, online: opts.online || opts.auth, auth: opts.auth };
  const results: CheckResult[] = [];
  for (const check of CHECKS) {
    try {
      const r = await check(dctx);
      results.push(...(Array.isArray(r) ? r : [r]));
    } catch (err) {
      // One broken check must not hide the others.
      results.push({ name: check.name.replace(/Check$/, ''), status: 'fail', detail: `the check itself failed: ${err instanceof Error ? err.message : String(err)}`, hint: 'rerun with --debug' });
    }
  }
  return results;
}
