/**
 * `geo store status` on a team store in two round trips: what the store holds, with its schema
 * version, in one statement (the command's version check rides with it: version-gate.ts), then a
 * trivial one, timed, on the connection that is open by then.
 */
import type { Pool } from 'pg';
import type { StoreStatus } from '../api.js';
import { VERSION_SQL } from './migrate.js';
import { LISTED_TOTAL } from './results.js';
import { PG_SCHEMA_VERSION } from './schema.js';

/** The listed results as results.ts listedCount reads them. */
const STATUS_SQL = `SELECT (${VERSION_SQL}) AS schema, ${LISTED_TOTAL} AS results,
  (SELECT count(*) FROM claims WHERE state = 'open') AS open_claims, (SELECT count(*) FROM cases) AS cases, (SELECT count(*) FROM custody) AS custody`;

interface Counts {
  schema: number;
  results: string | null;
  open_claims: number;
  cases: number;
  custody: number;
}

export async function teamStatus(q: <T>(fn: (p: Pool) => Promise<T>) => Promise<T>, where: string): Promise<StoreStatus> {
  const c = await q(async (p) => (await p.query<Counts>(STATUS_SQL)).rows[0]!);
  const t0 = performance.now();
  await q((p) => p.query('SELECT 1'));
  const rttMs = performance.now() - t0;
  return {
    kind: 'team', where, schema: Number(c.schema), knows: PG_SCHEMA_VERSION, rttMs,
    counts: { results: Number(c.results ?? 0), openClaims: Number(c.open_claims), cases: Number(c.cases), custodyEntries: Number(c.custody) },
  };
}
