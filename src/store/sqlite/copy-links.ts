/** The local file's copy links (schema.ts migration 9; store/copy-links.ts says what they are). */
import type { CopyLink, CopyLinksApi } from '../copy-links.js';
import type { Sql } from './sqlite.js';

type Row = Omit<CopyLink, 'reused'> & { reused: number };
const COLUMNS = 'result, of_result, distance, reused, linked_at';
const asLink = (r: Row): CopyLink => ({ ...r, reused: r.reused === 1 });
const marks = (n: number) => Array(n).fill('?').join(', ');

export function sqliteCopyLinks(sql: Sql, guard: <T>(fn: () => T) => T, now: () => number): CopyLinksApi {
  return {
    link: async (l) => {
      guard(() => sql.run(`INSERT INTO copy_links (${COLUMNS}) VALUES (?, ?, ?, ?, ?) ON CONFLICT(result) DO NOTHING`, l.result, l.of_result, l.distance, l.reused ? 1 : 0, new Date(now()).toISOString()));
    },
    of: async (ids) => {
      const out = new Map<number, CopyLink>();
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        for (const r of guard(() => sql.all<Row>(`SELECT ${COLUMNS} FROM copy_links WHERE result IN (${marks(chunk.length)})`, ...chunk))) out.set(r.result, asLink(r));
      }
      return out;
    },
    copiesOf: async (id) => guard(() => sql.all<Row>(`SELECT ${COLUMNS} FROM copy_links WHERE of_result = ? ORDER BY result`, id)).map(asLink),
    reuseOf: async (sha256, ofResult, account) => guard(() => sql.one<{ id: number }>(
      'SELECT r.id FROM results r JOIN copy_links l ON l.result = r.id WHERE r.sha256 = ? AND l.of_result = ? AND l.reused = 1 AND r.account = ? AND r.listed = 1 ORDER BY r.id DESC LIMIT 1',
      sha256, ofResult, account,
    ))?.id,
  };
}

/** Every link, for `geo store push` (sqlite/rows.ts). */
export function allCopyLinks(sql: Sql): CopyLink[] {
  return sql.all<Row>(`SELECT ${COLUMNS} FROM copy_links ORDER BY result`).map(asLink);
}
