/**
 * The look-ups a person repeats, as whole processes, on three stores holding the same answers
 * (store-data.mjs body(i)): the local SQLite file, the team's PostgreSQL directly, and the same
 * server through PgBouncer in transaction pooling. Interleaved in one run (lib.mjs
 * interleavedTimes: each round runs every command once, the order rotated each round), with
 * `node -e 0` and `geo --version` in every round as the floors. Ratios are of medians: the team
 * store directly against the local file (goal <= 1.4), through PgBouncer against it (goal <= 1.2).
 * NODE_EXTRA_CA_CERTS unset (benchEnv). The store is picked with --store on the command line, so
 * every command runs with the same environment.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GEO_BIN, benchEnv, interleavedTimes, median, row } from './lib.mjs';

export const DIRECT_GOAL = 1.4;
export const POOLED_GOAL = 1.2;

/**
 * rows for printRows: each look-up's medians on the three stores, and the two ratios beside their
 * goals. `local`: the local store's data folder; `direct`, `pooled`: the team store's URLs
 * (pooled undefined where PgBouncer could not start).
 */
export function compareLookups({ runs, local, direct, pooled, aid, city }) {
  const env = benchEnv({ GEO_DATA_DIR: local, GEO_STATE_DIR: mkdtempSync(join(tmpdir(), 'geo-bench-state-')), GEO_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'geo-bench-config-')), NO_COLOR: '1' });
  delete env.GEO_STORE_URL;
  const looks = [
    ['geo history --limit 20', ['history', '--limit', '20']],
    [`geo history --search ${city} --limit 20`, ['history', '--search', city, '--limit', '20']],
    ['geo history show <analysis id>', ['history', 'show', aid]],
  ];
  const stores = [['local file', []], ['team, direct', ['--store', direct]], ...(pooled ? [['team, through PgBouncer', ['--store', pooled]]] : [])];
  const node = process.execPath;
  const cmds = [[node, '-e', '0'], [node, GEO_BIN, '--version'], ...looks.flatMap(([, args]) => stores.map(([, s]) => [node, GEO_BIN, ...args, ...s]))];
  const times = interleavedTimes(cmds, { runs, env }).map(median);
  const rows = [row(`node -e 0 (median of ${runs} interleaved rounds)`, times[0], 'ms', '', undefined), row('geo --version', times[1], 'ms', '', undefined)];
  looks.forEach(([label], i) => {
    const m = stores.map((_, j) => times[2 + i * stores.length + j]);
    stores.forEach(([name], j) => rows.push(row(`${label}: ${name}`, m[j], 'ms', '', undefined)));
    rows.push(row(`${label}: team direct / local`, m[1] / m[0], 'x', `<= ${DIRECT_GOAL}`, DIRECT_GOAL));
    if (pooled) rows.push(row(`${label}: PgBouncer / local`, m[2] / m[0], 'x', `<= ${POOLED_GOAL}`, POOLED_GOAL));
  });
  return rows;
}
