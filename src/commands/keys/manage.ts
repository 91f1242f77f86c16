/** `geo keys list | use | remove`: profiles on disk. Keys leave this file masked only. */
import { maskKey } from '../../config/resolve.js';
import type { Ctx } from '../../context.js';
import { ConfigError, DeclinedError, UsageError } from '../../errors.js';

export interface ProfileRow {
  name: string;
  key: string; // masked
  baseUrl: string;
  active: boolean;
}

export function runList(ctx: Ctx): ProfileRow[] {
  const active = ctx.config.activeName();
  return ctx.config
    .profiles()
    .map((p) => ({ name: p.name, key: maskKey(p.key), baseUrl: p.baseUrl, active: p.name === active }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

function mustExist(ctx: Ctx, name: string): void {
  if (!ctx.config.profile(name)) {
    const names = ctx.config.profiles().map((p) => p.name).sort();
    throw new ConfigError(`no profile named "${name}"`, names.length ? `profiles: ${names.join(', ')}` : 'add one with `geo keys add`');
  }
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
}

export async function runRemove(ctx: Ctx, name: string): Promise<RemoveResult> {
  mustExist(ctx, name);
  if (!ctx.globals.yes) {
    // Deleting a key cannot be undone, so scripts must say so explicitly.
    if (!ctx.interactive) throw new UsageError(`removing profile "${name}" needs confirmation`, 'pass --yes in scripts');
    if (!(await ctx.prompt.confirm(`Remove profile "${name}" and its key?`, false))) throw new DeclinedError(`you said no: profile "${name}" is kept`, `geo keys remove ${name} --yes removes it without asking`);
  }
  const removed = await ctx.config.removeProfile(name);
  const active = ctx.config.activeName();
  return { name, removed, ...(active ? { active } : {}) };
}
