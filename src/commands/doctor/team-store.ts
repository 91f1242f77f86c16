/**
 * geo doctor's check of a team store, when one is chosen (--store URL, GEO_STORE_URL,
 * `geo config set store`): reachable, its schema version against this geo's, one round trip and
 * what it holds. Its URL is shown with the password masked (the store's own `where`).
 */
import { chooseStore } from '../../config/store-url.js';
import { StoreError } from '../../errors.js';
import type { Check } from './check-types.js';

export const teamStoreCheck: Check = async (ctx) => {
  let choice;
  try {
    choice = chooseStore(ctx.globals.store, ctx.env, ctx.config);
  } catch (err) {
    return { name: 'team store', status: 'fail', detail: err instanceof Error ? err.message : String(err), hint: 'geo config set store postgres://USER@HOST/DB?sslmode=verify-full (or local)' };
  }
  if (choice.kind === 'local') return [];
  try {
    const st = await (await ctx.storeApi()).status();
    return { name: 'team store', status: 'ok', detail: `${st.where}: schema ${st.schema}, round trip ${st.rttMs.toFixed(1)} ms, ${st.counts.results} results, ${st.counts.openClaims} open claims, ${st.counts.cases} cases` };
  } catch (err) {
    const e = err instanceof StoreError ? err : new StoreError(String(err), 'other');
    return { name: 'team store', status: 'fail', detail: e.message, ...(e.hint ? { hint: e.hint } : {}) };
  }
};
