/**
 * Key profiles and defaults on disk: one JSON file in the XDG config folder (GEO_CONFIG_DIR
 * overrides), file mode 0600, folder 0700. Writes go through conf (atomic, mode 0600); reads parse
 * the file directly, because conf pulls in ajv and costs ~100 ms of start-up on every command that
 * only needs to look up a profile or a default (start-up budgets; measured in bench/).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Conf from 'conf';
import { ConfigError } from '../errors.js';
import { importEsm } from '../lazy/esm.js';
import { ensureOwnDir } from '../files/safe.js';
import { type DefaultKey, type Stored, type StoredProfile, type StoredSigning, checkShape } from './shape.js';

export { DEFAULT_KEYS, type DefaultKey } from './shape.js';

/** Where a profile's key lives: the OS keyring, or this 0600 file. */
export type KeyStorage = 'keyring' | 'file';

export interface Profile {
  name: string;
  baseUrl: string;
  storage: KeyStorage;
  /** The key itself: only for storage 'file'. */
  key?: string;
  /** The keyring entry's account name: only for storage 'keyring'. */
  keyring?: string;
  /** The masked key (never the key): shown by `geo keys list` without a keyring call. */
  masked?: string;
}

/** What saveProfile writes: the key into the file, or a reference to its keyring entry. */
export type NewProfile = { name: string; baseUrl: string } & ({ key: string } | { keyring: string; masked: string });

const toProfile = (name: string, v: StoredProfile): Profile => ({
  name,
  baseUrl: v.baseUrl,
  storage: v.keyring !== undefined ? 'keyring' : 'file',
  ...(v.key !== undefined ? { key: v.key } : {}),
  ...(v.keyring !== undefined ? { keyring: v.keyring } : {}),
  ...(v.masked !== undefined ? { masked: v.masked } : {}),
});

export class ConfigStore {
  private conf: Conf<Stored> | undefined;
  private cached: Stored | undefined;
  constructor(readonly dir: string) {}

  get path(): string {
    return join(this.dir, 'config.json');
  }

  /**
   * A missing file (or folder) reads as empty defaults; reading creates nothing, so a read-only
   * config folder works for every command that only reads (a key from GEO_API_KEY, say).
   */
  private read(): Stored {
    if (this.cached) return this.cached;
    try {
      let text: string;
      try {
        text = readFileSync(this.path, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        text = '{}';
      }
      this.cached = checkShape(JSON.parse(text) as unknown, this.path);
      return this.cached;
    } catch (err) {
      throw this.configError(err);
    }
  }

  /** conf is imported only here, for a write (`geo keys add/use/remove`, `geo config set/unset`). */
  private async open(): Promise<Conf<Stored>> {
    if (this.conf) return this.conf;
    try {
      this.ensureDir();
      const { default: ConfClass } = await importEsm<typeof import('conf')>('conf');
      this.conf = new ConfClass<Stored>({
        cwd: this.dir,
        configName: 'config',
        projectName: 'geo',
        projectSuffix: '',
        configFileMode: 0o600,
        accessPropertiesByDotNotation: false,
        clearInvalidConfig: false,
        defaults: { profiles: {}, defaults: {} },
      });
      return this.conf;
    } catch (err) {
      throw this.configError(err);
    }
  }

  /** Applies a change through conf and drops the read cache, so later reads see it. */
  private async write(change: (conf: Conf<Stored>) => void): Promise<void> {
    const conf = await this.open();
    this.cached = undefined;
    change(conf);
  }

  /** Created 0700 when geo creates it; an existing folder is never chmod-ed (files/safe.ts). */
  private ensureDir(): void {
    ensureOwnDir(this.dir);
  }

  private configError(err: unknown): ConfigError {
    if (err instanceof ConfigError) return err;
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EACCES' || e.code === 'EPERM') {
      return new ConfigError(`cannot use the config folder ${this.dir} (${e.code})`, 'fix its permissions, or point GEO_CONFIG_DIR at a writable folder');
    }
    if (err instanceof SyntaxError) {
      return new ConfigError(`the config file ${this.dir}/config.json is not valid JSON`, 'repair or delete it, then add your key again with `geo keys add`');
    }
    return new ConfigError(`cannot read the config in ${this.dir}: ${e.message}`, 'check GEO_CONFIG_DIR');
  }

  profiles(): Profile[] {
    return Object.entries(this.read().profiles).map(([name, v]) => toProfile(name, v));
  }

  profile(name: string): Profile | undefined {
    return this.profiles().find((p) => p.name === name);
  }

  activeName(): string | undefined {
    return this.read().active;
  }

  /** Replaces the whole entry: a key moved into the keyring leaves nothing of itself in the file. */
  async saveProfile(profile: NewProfile): Promise<void> {
    const { name, ...entry } = profile;
    await this.write((conf) => {
      conf.set('profiles', { ...conf.get('profiles'), [name]: entry });
      if (!conf.get('active')) conf.set('active', name);
    });
  }

  /** The removed profile (its keyring entry is the caller's to delete), or undefined if there was none. */
  async removeProfile(name: string): Promise<Profile | undefined> {
    const removed = this.profile(name);
    if (!removed) return undefined;
    await this.write((conf) => {
      const all = { ...conf.get('profiles') };
      delete all[name];
      conf.set('profiles', all);
      if (conf.get('active') === name) conf.delete('active');
    });
    return removed;
  }

  async setActive(name: string): Promise<void> {
    if (!this.profile(name)) throw new ConfigError(`no profile named "${name}"`, 'see `geo keys list`');
    await this.write((conf) => conf.set('active', name));
  }

  getDefault(key: DefaultKey): string | undefined {
    return this.read().defaults[key];
  }

  /** A default read without creating the folder or failing (a decision made before any command reads the config). */
  peekDefault(key: DefaultKey): string | undefined {
    try {
      const v = (JSON.parse(readFileSync(this.path, 'utf8')) as Partial<Stored> | null)?.defaults?.[key];
      return typeof v === 'string' ? v : undefined;
    } catch {
      return undefined;
    }
  }

  async setDefault(key: DefaultKey, value: string | undefined): Promise<void> {
    await this.write((conf) => {
      const d = { ...conf.get('defaults') };
      if (value === undefined) delete d[key];
      else d[key] = value;
      conf.set('defaults', d);
    });
  }

  defaults(): Partial<Record<DefaultKey, string>> {
    return { ...this.read().defaults };
  }

  /** Signing keys: references and public keys only (config/signing-store.ts). */
  signing(): StoredSigning {
    const s = this.read().signing;
    return { ...s, keys: { ...s?.keys } };
  }

  async saveSigning(signing: StoredSigning): Promise<void> {
    await this.write((conf) => conf.set('signing', signing));
  }
}
