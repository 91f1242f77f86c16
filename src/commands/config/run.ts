/**
 * Defaults on disk. Values are validated here, before they are stored, so every reader can trust
 * them (a bad depth would otherwise surface later as a confusing 422).
 */
import type { Ctx } from '../../context.js';
import { DEFAULT_KEYS, type DefaultKey } from '../../config/profiles.js';
import { UsageError } from '../../errors.js';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { readTsaCa } from '../../evidence/custody-stamps.js';
import { TimestampError } from '../../evidence/tsa-errors.js';
import { parseTsaList } from '../../evidence/tsa-url.js';
import { saveStoreUrl } from '../../config/store-url.js';
import { checkStoreUrl, maskStoreUrl } from '../../store/index.js';

interface Spec {
  builtin: string;
  /** Returns the normalised value, or throws a UsageError with a hint. */
  check(v: string): string;
}

const SPECS: Record<DefaultKey, Spec> = {
  depth: {
    builtin: '1',
    check: (v) => {
      if (!/^[123]$/.test(v.trim())) throw new UsageError(`depth must be 1, 2 or 3, got "${v}"`, 'geo config set depth 2');
      return v.trim();
    },
  },
  format: {
    builtin: 'table',
    check: (v) => {
      const f = v.trim().toLowerCase();
      if (!['table', 'json', 'ndjson'].includes(f)) throw new UsageError(`format must be table, json or ndjson, got "${v}"`, 'geo config set format json');
      return f;
    },
  },
  confirm_threshold: {
    builtin: '20',
    check: (v) => {
      if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(Number(v.trim()))) {
        throw new UsageError(`confirm_threshold must be a whole number of credits (0 or more), got "${v}"`, 'geo config set confirm_threshold 20');
      }
      return String(Number(v.trim()));
    },
  },
  accessible: {
    builtin: 'false',
    check: (v) => {
      const b = v.trim().toLowerCase();
      if (!['true', 'false'].includes(b)) throw new UsageError(`accessible must be true or false, got "${v}"`, 'geo config set accessible true');
      return b;
    },
  },
  // A list: unset, no TSA is ever contacted. Each URL is checked as --tsa checks it.
  tsa: {
    builtin: '',
    check: (v) => parseTsaList(v).join(','),
  },
  // A file: the CA certificates TSAs are trusted under, at stamp time and when verifying.
  tsa_ca: {
    builtin: '',
    check: (v) => {
      const file = resolve(v.trim());
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (err) {
        throw new UsageError(`cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`, 'geo config set tsa-ca /path/to/tsa-ca.pem');
      }
      try {
        readTsaCa(text, file);
      } catch (err) {
        if (err instanceof TimestampError) throw new UsageError(err.message, "the TSA's CA certificate(s), PEM");
        throw err;
      }
      return file;
    },
  },
  // Issue 32: a team's PostgreSQL store (its password goes to the OS keyring: runSet), or local.
  store: {
    builtin: 'local',
    check: (v) => (v.trim().toLowerCase() === 'local' ? 'local' : checkStoreUrl(v)),
  },
};

/** Accepts confirm-threshold too: flags use dashes, the stored key uses an underscore. */
export function parseKey(input: string): DefaultKey {
  const k = input.trim().toLowerCase().replace(/-/g, '_');
  if ((DEFAULT_KEYS as readonly string[]).includes(k)) return k as DefaultKey;
  throw new UsageError(`unknown config key "${input}"`, `keys: ${DEFAULT_KEYS.join(', ')}`);
}

export interface Entry {
  key: DefaultKey;
  value: string;
  source: 'config' | 'default';
}

export function runGet(ctx: Ctx, key: string): Entry {
  const k = parseKey(key);
  const stored = ctx.config.getDefault(k);
  // A store URL kept in the file (no keyring answered) holds its password: shown masked.
  return stored === undefined ? { key: k, value: SPECS[k].builtin, source: 'default' } : { key: k, value: k === 'store' ? maskStoreUrl(stored) : stored, source: 'config' };
}

export async function runSet(ctx: Ctx, key: string, value: string): Promise<Entry> {
  const k = parseKey(key);
  const v = SPECS[k].check(value);
  if (k === 'store' && v !== 'local') {
    const saved = await saveStoreUrl(ctx.vault, ctx.config, v);
    if (saved.notice) ctx.io.stderr.write(`${saved.notice}\n`);
    return { key: k, value: saved.value, source: 'config' };
  }
  await ctx.config.setDefault(k, v);
  return { key: k, value: v, source: 'config' };
}

export async function runUnset(ctx: Ctx, key: string): Promise<Entry> {
  const k = parseKey(key);
  await ctx.config.setDefault(k, undefined);
  return { key: k, value: SPECS[k].builtin, source: 'default' };
}

export function runList(ctx: Ctx): Entry[] {
  return DEFAULT_KEYS.map((k) => runGet(ctx, k));
}
