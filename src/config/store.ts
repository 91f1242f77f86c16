/**
 * Key profiles and defaults on disk, through conf: one JSON file in the XDG config folder
 * (GEO_CONFIG_DIR overrides), file mode 0600, folder 0700.
 */
import { chmodSync, mkdirSync } from 'node:fs';
import Conf from 'conf';
import { ConfigError } from '../errors.js';

export interface Profile {
  name: string;
  key: string;
  baseUrl: string;
}

export const DEFAULT_KEYS = ['depth', 'format', 'confirm_threshold'] as const;
export type DefaultKey = (typeof DEFAULT_KEYS)[number];

interface Stored {
  active?: string;
  profiles: Record<string, { key: string; baseUrl: string }>;
  defaults: Partial<Record<DefaultKey, string>>;
}

export class ConfigStore {
  private conf: Conf<Stored> | undefined;
  constructor(readonly dir: string) {}

  private open(): Conf<Stored> {
    if (this.conf) return this.conf;
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      chmodSync(this.dir, 0o700);
      this.conf = new Conf<Stored>({
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
      const e = err as NodeJS.ErrnoException;
      if (e.code === 'EACCES' || e.code === 'EPERM') {
        throw new ConfigError(`cannot use the config folder ${this.dir} (${e.code})`, 'fix its permissions, or point GEO_CONFIG_DIR at a writable folder');
      }
      if (err instanceof SyntaxError) {
        throw new ConfigError(`the config file ${this.dir}/config.json is not valid JSON`, 'repair or delete it, then add your key again with `geo keys add`');
      }
      throw new ConfigError(`cannot read the config in ${this.dir}: ${e.message}`, 'check GEO_CONFIG_DIR');
    }
  }

  get path(): string {
    return this.open().path;
  }

  profiles(): Profile[] {
    const p = this.open().get('profiles') ?? {};
    return Object.entries(p).map(([name, v]) => ({ name, key: v.key, baseUrl: v.baseUrl }));
  }

  profile(name: string): Profile | undefined {
    return this.profiles().find((p) => p.name === name);
  }

  activeName(): string | undefined {
    return this.open().get('active');
  }

  saveProfile(profile: Profile): void {
    const conf = this.open();
    conf.set('profiles', { ...conf.get('profiles'), [profile.name]: { key: profile.key, baseUrl: profile.baseUrl } });
    if (!conf.get('active')) conf.set('active', profile.name);
  }

  removeProfile(name: string): boolean {
    const conf = this.open();
    const all = { ...conf.get('profiles') };
    if (!(name in all)) return false;
    delete all[name];
    conf.set('profiles', all);
    if (conf.get('active') === name) conf.delete('active');
    return true;
  }

  setActive(name: string): void {
    if (!this.profile(name)) throw new ConfigError(`no profile named "${name}"`, 'see `geo keys list`');
    this.open().set('active', name);
  }

  getDefault(key: DefaultKey): string | undefined {
    return this.open().get('defaults')?.[key];
  }

  setDefault(key: DefaultKey, value: string | undefined): void {
    const conf = this.open();
    const d = { ...conf.get('defaults') };
    if (value === undefined) delete d[key];
    else d[key] = value;
    conf.set('defaults', d);
  }

  defaults(): Partial<Record<DefaultKey, string>> {
    return { ...this.open().get('defaults') };
  }
}
