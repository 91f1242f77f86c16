/**
 * Key profiles and defaults on disk: one JSON file in the XDG config folder (GEO_CONFIG_DIR
 * overrides), file mode 0600, folder 0700. Writes go through conf (atomic, mode 0600); reads parse
 * the file directly, because conf pulls in ajv and costs ~100 ms of start-up on every command that
 * only needs to look up a profile or a default (issue 7 budgets; measured in bench/).
 */
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Conf from 'conf';
import { ConfigError } from '../errors.js';
import { importEsm } from '../lazy/esm.js';

export interface Profile {
  name: string;
  key: string;
  baseUrl: string;
}

export const DEFAULT_KEYS = ['depth', 'format', 'confirm_threshold', 'accessible'] as const;
export type DefaultKey = (typeof DEFAULT_KEYS)[number];

interface Stored {
  active?: string;
  profiles: Record<string, { key: string; baseUrl: string }>;
  defaults: Partial<Record<DefaultKey, string>>;
}

export class ConfigStore {
  private conf: Conf<Stored> | undefined;
  private cached: Stored | undefined;
  constructor(readonly dir: string) {}

  get path(): string {
    return join(this.dir, 'config.json');
  }

  /** The folder is created (0700) as before; a missing file reads as empty defaults. */
  private read(): Stored {
    if (this.cached) return this.cached;
    try {
      this.ensureDir();
      let text: string;
      try {
        text = readFileSync(this.path, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        text = '{}';
      }
      const parsed = JSON.parse(text) as Partial<Stored> | null;
      const obj = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : {};
      this.cached = { profiles: {}, defaults: {}, ...obj };
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

  private ensureDir(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
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
    const p = this.read().profiles ?? {};
    return Object.entries(p).map(([name, v]) => ({ name, key: v.key, baseUrl: v.baseUrl }));
  }

  profile(name: string): Profile | undefined {
    return this.profiles().find((p) => p.name === name);
  }

  activeName(): string | undefined {
    return this.read().active;
  }

  async saveProfile(profile: Profile): Promise<void> {
    await this.write((conf) => {
      conf.set('profiles', { ...conf.get('profiles'), [profile.name]: { key: profile.key, baseUrl: profile.baseUrl } });
      if (!conf.get('active')) conf.set('active', profile.name);
    });
  }

  async removeProfile(name: string): Promise<boolean> {
    if (!(name in (this.read().profiles ?? {}))) return false;
    await this.write((conf) => {
      const all = { ...conf.get('profiles') };
      delete all[name];
      conf.set('profiles', all);
      if (conf.get('active') === name) conf.delete('active');
    });
    return true;
  }

  async setActive(name: string): Promise<void> {
    if (!this.profile(name)) throw new ConfigError(`no profile named "${name}"`, 'see `geo keys list`');
    await this.write((conf) => conf.set('active', name));
  }

  getDefault(key: DefaultKey): string | undefined {
    return this.read().defaults?.[key];
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
}
