/** `geo keys list | use | remove`: profiles on disk. Keys leave this file masked only. */
import { forgetKeyringKey } from '../../config/key-storage.js';
import { maskKey } from '../../config/resolve.js';
import type { KeyStorage, Profile } from '../../config/profiles.js';
import type { Ctx } from '../../context.js';
import { ConfigError, DeclinedError, UsageError } from '../../errors.js';

export interface ProfileRow {
  name: string;
  key: string; // masked
  baseUrl: string;
  active: boolean;
  /** Where the key is kept: the OS keyring or the 0600 config file. */
  storage: KeyStorage;
}

/** The masked key of a profile, without a keyring call (a keyring profile keeps its mask in the file). */
export const maskedKeyOf = (p: Profile): string => (p.storage === 'keyring' ? (p.masked ?? '(in the OS keyring)') : maskKey(p.key ?? ''));

export function runList(ctx: Ctx): ProfileRow[] {
  const active = ctx.config.activeName();
  return ctx.config
    .profiles()
    .map((p) => ({ name: p.name, key: maskedKeyOf(p), baseUrl: p.baseUrl, active: p.name === active, storage: p.storage }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export function mustExist(ctx: Ctx, name: string): Profile {
  const p = ctx.config.profile(name);
  if (!p) {
    const names = ctx.config.profiles().map((q) => q.name).sort();
    throw new ConfigError(`no profile named "${name}"`, names.length ? `profiles: ${names.join(', ')}` : 'add one with `geo keys add`');
  }
  return p;
}

export async function runUse(ctx: Ctx, name: string): Promise<ProfileRow> {
  mustExist(ctx, name);
  await ctx.config.setActive(name);
  return runList(ctx).find((p) => p.name === name)!;
}

export interface RemoveResult {
  name: string;
  removed: boolean;
  /** The active profile after the removal (none when the active one was removed). */
  active?: string;
  /** Where the key was kept. */
  storage: KeyStorage;
  /** Why its keyring entry is still there, when it could not be deleted. */
  warning?: string;
}

export async function runRemove(ctx: Ctx, name: string): Promise<RemoveResult> {
  const profile = mustExist(ctx, name);
  if (!ctx.globals.yes) {
    // Deleting a key cannot be undone, so scripts must say so explicitly.
    if (!ctx.interactive) throw new UsageError(`removing profile "${name}" needs confirmation`, 'pass --yes in scripts');
    if (!(await ctx.prompt.confirm(`Remove profile "${name}" and its key?`, false))) throw new DeclinedError(`you said no: profile "${name}" is kept`, `geo keys remove ${name} --yes removes it without asking`);
  }
  const removed = await ctx.config.removeProfile(name);
  const warning = removed?.storage === 'keyring' ? await forgetKeyringKey(ctx.vault, removed.keyring!) : undefined;
  const active = ctx.config.activeName();
  return { name, removed: removed !== undefined, ...(active ? { active } : {}), storage: profile.storage, ...(warning ? { warning } : {}) };
}
