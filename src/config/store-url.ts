/**
 * Which store a run uses: `--store URL|local` > GEO_STORE_URL > `geo config set store
 * URL` > the local SQLite file. The URL's password is a secret like an API key: `geo config set
 * store` keeps it in the OS keyring (service geo-cli, account "store (<config folder>)") and the
 * config file only the URL without it; where no keyring answers it stays in the 0600 config file,
 * said once (as keys are: key-storage.ts). It is read back only when a team store is opened, and
 * handed to the store alone: never printed (maskStoreUrl), never on a child process's command line.
 */
import type { Env } from './env.js';
import { checkStoreUrl, isTeamUrl, maskStoreUrl, splitPassword, withPassword } from './team-store-url.js';
import { keyringAccount, keyringPolicy, placeKey, type Vault } from './key-storage.js';
import { keyringCall } from './keyring.js';
import type { ConfigStore } from './profiles.js';

export type StoreSource = 'flag' | 'env' | 'config' | 'default';
export type ChosenStore = { kind: 'local'; source: StoreSource } | { kind: 'team'; url: string; source: StoreSource };

/** The choice by precedence, the URL as given (a config URL without its keyring password yet). */
export function chooseStore(flag: string | undefined, env: Env, config: ConfigStore): ChosenStore {
  const pick = (v: string, source: StoreSource): ChosenStore => (v.trim().toLowerCase() === 'local' ? { kind: 'local', source } : { kind: 'team', url: checkStoreUrl(v), source });
  if (flag !== undefined && flag !== '') return pick(flag, 'flag');
  if (env.GEO_STORE_URL) return pick(env.GEO_STORE_URL, 'env');
  const saved = config.peekDefault('store');
  if (saved) return pick(saved, 'config');
  return { kind: 'local', source: 'default' };
}

/**
 * A password in `--store URL` is on the command line, where every user of the machine can read it
 * (ps, /proc/PID/cmdline) while geo runs: it still works, and this line says so once (the
 * password itself is never printed). Undefined for a flag without one.
 */
export function argvPasswordWarning(flag: string | undefined): string | undefined {
  if (flag === undefined || !isTeamUrl(flag)) return undefined;
  let has: boolean;
  try {
    const u = new URL(flag.trim());
    has = u.password !== '' || [...u.searchParams.keys()].some((k) => k.toLowerCase() === 'password');
  } catch {
    return undefined;
  }
  return has ? "warning: the store URL's password is on the command line (--store), where any user of this machine can read it; put the URL in GEO_STORE_URL, or save it with geo config set store (the password then goes to the OS keyring)" : undefined;
}

/** Not a profile name (profiles take no colon): the store's password never shares an entry with a key. */
const ACCOUNT = 'store:password';

/** The config's URL with its password from the keyring, when it was kept there (else as it is). */
export async function withKeyringPassword(v: Vault, url: string): Promise<string> {
  const { password } = splitPassword(url);
  if (password !== undefined || keyringPolicy(v.env).use === 'never') return url;
  try {
    const [r] = await keyringCall(v, [{ op: 'get', account: keyringAccount(ACCOUNT, v.configDir) }]);
    return r?.ok && typeof r.value === 'string' ? withPassword(url, r.value) : url;
  } catch {
    // No keyring: the server may take ~/.pgpass or PGPASSWORD instead.
    return url;
  }
}

/** `geo config set store URL`: the password into the keyring, the rest into the config; what to say. */
export async function saveStoreUrl(v: Vault, config: ConfigStore, url: string): Promise<{ value: string; notice?: string }> {
  const checked = checkStoreUrl(url);
  const { url: bare, password } = splitPassword(checked);
  if (password === undefined) {
    await config.setDefault('store', bare);
    return { value: bare };
  }
  const placed = await placeKey(v, ACCOUNT, password, { insecure: false, file: config.path });
  await config.setDefault('store', placed.storage === 'keyring' ? bare : checked);
  return { value: maskStoreUrl(checked), ...(placed.storage === 'file' && placed.notice ? { notice: placed.notice.replace('the key is', 'the store\'s password is') } : {}) };
}
