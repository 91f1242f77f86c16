/**
 * The team store's entry points, loaded only when a postgres:// URL is used (store/index.ts):
 * open (the schema version checked with the first query), migrate (an admin's `geo store migrate`), push.
 */
import { StoreError } from '../../errors.js';
import type { StoreApi } from '../api.js';
import type { Store } from '../sqlite/store.js';
import { endPool, openPool, pgError } from './driver.js';
import { type PgOptions, PgEngine } from './engine.js';
import { migrate, versionGate } from './migrate.js';
import { type PushReport, pushLocal } from './push.js';
import type { Env } from '../../config/env.js';

export type { PushReport };

/**
 * Nothing is sent here: the pool connects on the command's first query, which carries the schema
 * version check (version-gate.ts), so a command that never touches the store never connects.
 * `env` holds PGPASSWORD, PGPASSFILE and HOME for the login (driver.ts clientFor).
 */
export async function openTeamStore(url: string, opts: PgOptions & { env?: Readonly<Env> }): Promise<PgEngine> {
  return new PgEngine(openPool(url, 4, versionGate(url), opts.env), url, opts);
}

export async function migrateTeamStore(url: string, env?: Readonly<Env>): Promise<{ from: number; to: number }> {
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
