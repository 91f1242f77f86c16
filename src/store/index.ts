/**
 * The store (DESIGN.md "Layers": src/store/), the ONE owner of state, and the one place that knows
 * which engine answers: openStore() gives a StoreApi (api.ts) over the local SQLite file (sqlite/,
 * the default) or a team's PostgreSQL server (postgres/, loaded with its driver only for a
 * postgres:// URL). Callers import from here only, never from an engine's folder.
 *
 * Phase 1: the synchronous Store (sqlite/store.ts) is still exported for the callers
 * not yet moved to StoreApi; they use the local file whatever store is chosen.
 */
import { join } from 'node:path';
import type { StoreApi } from './api.js';
import type { ProcessProbe } from './sqlite/claims.js';
import { SqliteEngine } from './sqlite/engine.js';
import { type LegacyFolders, Store } from './sqlite/store.js';
import type { Env } from '../config/env.js';

export * from './sqlite/store.js';
export type * from './api.js';
export { checkStoreUrl, isTeamUrl, maskStoreUrl, splitPassword, withPassword } from '../config/team-store-url.js';
export { parsePeriod } from './budget-period.js';
export { analyst } from './analyst.js';

/** Which store a run uses: the local file in a data folder, or a team's server by its URL. */
export type StoreChoice = { kind: 'local'; dataDir: string; legacy?: LegacyFolders } | { kind: 'team'; url: string };

export interface OpenStoreOptions {
  probe: ProcessProbe;
  now: () => number;
  warn?: (line: string) => void;
  /** The run's environment: a team store's login reads PGPASSWORD, PGPASSFILE and HOME from it (postgres/password.ts). */
  env?: Readonly<Env>;
}

export async function openStore(choice: StoreChoice, o: OpenStoreOptions): Promise<StoreApi> {
  if (choice.kind === 'team') {
    const { openTeamStore } = await import('./postgres/index.js');
    return openTeamStore(choice.url, o);
  }
  return new SqliteEngine(Store.open(choice.dataDir, { probe: o.probe, now: o.now, ...(choice.legacy ? { legacy: choice.legacy } : {}), ...(o.warn ? { warn: o.warn } : {}) }), o.now);
}

/** The local file under the async interface, for a caller that already holds the synchronous Store. */
export function asStoreApi(store: Store, now: () => number): StoreApi {
  return new SqliteEngine(store, now);
}

/** `geo store migrate`: the team store's schema brought to this geo's (an admin role's job). */
export async function migrateStore(url: string, env?: Readonly<Env>): Promise<{ from: number; to: number }> {
  const { migrateTeamStore } = await import('./postgres/index.js');
  return migrateTeamStore(url, env);
}

/** `geo store push`: the local file's rows into the team store (postgres/push.ts). */
export async function pushStore(local: Store, team: StoreApi): Promise<import('./postgres/push.js').PushReport> {
  const { pushToTeam } = await import('./postgres/index.js');
  return pushToTeam(local, team);
}

export function legacyFolders(dataDir: string, stateDir: string): LegacyFolders {
  return { resultsDir: join(dataDir, 'results'), journalsDir: join(stateDir, 'journals') };
}
