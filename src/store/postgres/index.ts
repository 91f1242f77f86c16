/**
 * The team store's entry points, loaded only when a postgres:// URL is used (store/index.ts):
 * open (the schema version checked first), migrate (an admin's `geo store migrate`), push.
 */
import { StoreError } from '../../errors.js';
import type { StoreApi } from '../api.js';
import type { Store } from '../sqlite/store.js';
import { endPool, openPool, pgError } from './driver.js';
import { type PgOptions, PgEngine } from './engine.js';
import { checkVersion, migrate } from './migrate.js';
import { type PushReport, pushLocal } from './push.js';

export type { PushReport };

export async function openTeamStore(url: string, opts: PgOptions): Promise<PgEngine> {
  const pool = openPool(url);
  try {
    await checkVersion(pool, url);
  } catch (err) {
    await endPool(pool);
    throw pgError(err, url);
  }
  return new PgEngine(pool, url, opts);
}

export async function migrateTeamStore(url: string): Promise<{ from: number; to: number }> {
  const pool = openPool(url, 1);
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
