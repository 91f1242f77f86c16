/**
 * The team store's entry points, loaded only when a postgres:// URL is used (store/index.ts):
 * open (the schema version checked first; through the store's keeper when one runs, keeper.ts), migrate (an admin's `geo store migrate`), push.
 */
import { StoreError } from '../../errors.js';
import type { StoreApi } from '../api.js';
import type { Store } from '../sqlite/store.js';
import { endPool, openPool, pgError } from './driver.js';
import { type PgOptions, PgEngine } from './engine.js';
import { checkVersion, migrate } from './migrate.js';
import { type PushReport, pushLocal } from './push.js';
import { keeperPlan, keptAt } from './keeper-start.js';

export type { PushReport };

export async function openTeamStore(url: string, opts: PgOptions & { env?: Readonly<Record<string, string | undefined>>; execPath?: string }): Promise<PgEngine> {
  const plan = opts.env && opts.execPath ? keeperPlan(opts.env, url, opts.execPath) : undefined;
  const kept = keptAt(plan);
  if (kept) {
    const pool = openPool(url, 4, kept);
    try {
      await checkVersion(pool, url);
      return new PgEngine(pool, url, opts, kept);
    } catch (err) {
      await endPool(pool);
      // The server's own answers (a refused login, no schema) came through the keeper: they stand.
      // A socket nobody answers on (a keeper gone) or that drops is a keeper to replace.
      if (err instanceof StoreError || (err as { severity?: string }).severity) throw pgError(err, url);
    }
  }
  const pool = openPool(url, 4, undefined, opts.env);
  try {
    await checkVersion(pool, url);
  } catch (err) {
    await endPool(pool);
    throw pgError(err, url);
  }
  plan?.start();
  return new PgEngine(pool, url, opts);
}

export async function migrateTeamStore(url: string, env?: Readonly<Record<string, string | undefined>>): Promise<{ from: number; to: number }> {
  const pool = openPool(url, 1, undefined, env);
  try {
    return await migrate(pool, url);
  } catch (err) {
    throw pgError(err, url);
  } finally {
    await endPool(pool);
  }
}

export async function pushToTeam(local: Store, team: StoreApi): Promise<PushReport> {
  if (!(team instanceof PgEngine)) throw new StoreError('geo store push copies the local store into a team store: give one with --store URL or GEO_STORE_URL', 'other');
  return pushLocal(local.rows(), team);
}
