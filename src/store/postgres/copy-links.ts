/** The team store's copy links (schema.ts migration 6; store/copy-links.ts says what they are). */
import type { Pool } from 'pg';
import type { CopyLink, CopyLinksApi } from '../copy-links.js';
import type { Seen } from './seen.js';

type Row = Omit<CopyLink, 'reused'> & { reused: number };
type Guard = <T>(fn: () => Promise<T>) => Promise<T>;
const COLUMNS = 'result, of_result, distance, reused, linked_at';
// bigint columns come back as numbers (driver.ts).
const asLink = (r: Row): CopyLink => ({ ...r, reused: r.reused === 1 });

export const LINK = `INSERT INTO copy_links (${COLUMNS}) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (result) DO NOTHING`;

/** `seen`: the links a page's query read already (seen.ts), so history's marks cost no round trip. */
export function pgCopyLinks(pool: Pool, guard: Guard, now: () => number, seen: Seen): CopyLinksApi {
  const ofServer = (ids: readonly number[]) => guard(async () => {
    const rows = ids.length ? (await pool.query<Row>(`SELECT ${COLUMNS} FROM copy_links WHERE result = ANY($1::bigint[])`, [ids])).rows : [];
    return new Map(rows.map((r) => [r.result, asLink(r)]));
  });
  return {
    link: (l) => guard(async () => {
      await pool.query(LINK, [l.result, l.of_result, l.distance, l.reused ? 1 : 0, new Date(now()).toISOString()]);
      seen.forgetCopy(l.result);
    }),
    of: (ids) => {
      const known = seen.copiesOf(ids);
      return known ? Promise.resolve(known) : ofServer(ids);
    },
    copiesOf: (id) => guard(async () => (await pool.query<Row>(`SELECT ${COLUMNS} FROM copy_links WHERE of_result = $1 ORDER BY result`, [id])).rows.map(asLink)),
    reuseOf: (sha256, ofResult, account) => guard(async () => {
      const r = await pool.query<{ id: number }>(
        'SELECT r.id FROM results r JOIN copy_links l ON l.result = r.id WHERE r.sha256 = $1 AND l.of_result = $2 AND l.reused = 1 AND r.account = $3 AND r.listed = 1 ORDER BY r.id DESC LIMIT 1',
        [sha256, ofResult, account],
      );
      return r.rows[0]?.id;
    }),
  };
}
