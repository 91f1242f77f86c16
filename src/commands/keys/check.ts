/** `geo keys show` (where each setting comes from now) and `geo keys test` (a free credits call). */
import type { ResolvedKey, Source } from '../../config/resolve.js';
import type { Ctx } from '../../context.js';
import { MissingKeyError } from '../../errors.js';

/** Where a key is kept, in words: `keys show` and `keys test` say it. */
export type StorageName = ResolvedKey['storage'];

export interface ShowResult {
  key: { value: string; source: Source; storage: StorageName } | null; // value masked
  baseUrl: { value: string; source: Source };
  profile: { name: string; source: Source } | null;
}

/** Needs no keyring call: a keyring profile keeps its masked key in the config file. */
export function runShow(ctx: Ctx): ShowResult {
  const r = ctx.resolved();
  return {
    key: r.key ? { value: r.key.masked, source: r.key.source, storage: r.key.storage } : null,
    baseUrl: r.baseUrl,
    profile: r.profile ?? null,
  };
}

export interface TestResult {
  ok: true;
  key: string; // masked
  keySource: Source;
  storage: StorageName;
  baseUrl: string;
  profile?: string;
  /** undefined when the snapshot left the figure out (shown as "missing"). */
  balance: number | undefined;
  apiBalance: number | undefined;
  totalAvailable: number | undefined;
}

export async function runTest(ctx: Ctx): Promise<TestResult> {
  const r = ctx.resolved();
  if (!r.key) throw new MissingKeyError();
  const res = await ctx.client().credits();
  // A snapshot off the contract still proves the key works; missing figures show as such.
  const d: Partial<typeof res.data.data> = res.data.data ?? {};
  return {
    ok: true,
    key: r.key.masked,
    keySource: r.key.source,
    storage: r.key.storage,
    baseUrl: r.baseUrl.value,
    ...(r.profile ? { profile: r.profile.name } : {}),
    balance: d.balance,
    apiBalance: d.api_balance,
    totalAvailable: d.total_available,
  };
}
