/**
 * geo doctor's check of a team store, when one is chosen (--store URL, GEO_STORE_URL,
 * `geo config set store`). Offline by default, as every check: it says which store is configured
 * (password masked) and names `geo store status`, which connects. With --online (or --auth) it
 * connects too: reachable, its schema version against this geo's, one round trip, what it holds.
 */
import { chooseStore } from '../../config/store-url.js';
import { StoreError } from '../../errors.js';
import { maskStoreUrl } from '../../config/team-store-url.js';
import type { Check } from './check-types.js';

const FROM = { flag: '--store', env: 'GEO_STORE_URL', config: 'geo config set store', default: 'the default' } as const;

export const teamStoreCheck: Check = async (ctx) => {
  let choice;
  try {
    choice = chooseStore(ctx.globals.store, ctx.env, ctx.config);
  } catch (err) {
    return { name: 'team store', status: 'fail', detail: err instanceof Error ? err.message : String(err), hint: 'geo config set store postgres://USER@HOST/DB?sslmode=verify-full (or local)' };
  }
  if (choice.kind === 'local') return [];
  if (!ctx.online) {
    return { name: 'team store', status: 'ok', detail: `${maskStoreUrl(choice.url)} (from ${FROM[choice.source]}): not contacted (geo doctor stays offline; geo store status checks the connection)` };
  }
  try {
    const st = await (await ctx.storeApi()).status();
    return { name: 'team store', status: 'ok', detail: `${st.where}: schema ${st.schema}, round trip ${st.rttMs.toFixed(1)} ms, ${st.counts.results} results, ${st.counts.openClaims} open claims, ${st.counts.cases} cases` };
  } catch (err) {
    const e = err instanceof StoreError ? err : new StoreError(String(err), 'other');
    return { name: 'team store', status: 'fail', detail: e.message, ...(e.hint ? { hint: e.hint } : {}) };
  }
};
