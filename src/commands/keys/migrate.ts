/**
 * `geo keys migrate [name...]`: keys kept in the config file (written before geo used the OS
 * keyring, or where none answered) move into the keyring. Each key is stored, read back and
 * compared, and only then removed from the file (the profile is rewritten whole: nothing of the key
 * stays in it); a key that cannot be moved stays where it was, and the command says which.
 */
import { keyringAccount, keyringPolicy, storeAndReadBack } from '../../config/key-storage.js';
import { checkKeyText } from '../../config/key-text.js';
import { maskKey } from '../../config/resolve.js';
import type { Profile } from '../../config/profiles.js';
import type { Ctx } from '../../context.js';
import { KeyringError } from '../../errors.js';
import { mustExist } from './manage.js';

export interface MigrateResult {
  /** Profiles whose key moved from the file into the OS keyring, in order. */
  moved: string[];
  /** Profiles whose key was in the keyring already. */
  already: string[];
}

export async function runMigrate(ctx: Ctx, names: readonly string[]): Promise<MigrateResult> {
  const profiles: Profile[] = names.length ? names.map((n) => mustExist(ctx, n)) : ctx.config.profiles();
  const toMove = profiles.filter((p) => p.storage === 'file');
  const already = profiles.filter((p) => p.storage === 'keyring').map((p) => p.name);
  if (toMove.length === 0) return { moved: [], already };
  const policy = keyringPolicy(ctx.env);
  if (policy.use === 'never') throw new KeyringError('CI is set, and geo never touches the OS keyring under CI: nothing was moved', 'run geo keys migrate outside CI');
  const moved: string[] = [];
  for (const p of toMove) {
    const account = keyringAccount(p.name, ctx.vault.configDir);
    // The file's keys were checked when it was read (config/shape.ts): this only trims them.
    const checked = checkKeyText(p.key ?? '');
    const key = 'key' in checked ? checked.key : '';
    const why = await storeAndReadBack(ctx.vault, account, key);
    if (why !== undefined) {
      const done = moved.length ? `moved ${moved.join(', ')}; ` : '';
      throw new KeyringError(`${done}the key of profile "${p.name}" could not go into the OS keyring (${why}): it stays in ${ctx.config.path}`, 'unlock or start the OS keyring (on Linux a Secret Service such as gnome-keyring), then run geo keys migrate again');
    }
    await ctx.config.saveProfile({ name: p.name, baseUrl: p.baseUrl, keyring: account, masked: maskKey(key) });
    moved.push(p.name);
  }
  return { moved, already };
}
