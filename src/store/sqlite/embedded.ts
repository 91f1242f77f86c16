/**
 * What originals said about themselves before geo stripped them (sqlite/schema.ts migration 4,
 * table `embedded`): one row per original's sha256, written the first time geo reads it for an
 * upload. The same bytes always say the same, so a second reading changes nothing (INSERT OR
 * IGNORE); the first keeps when it was read.
 */
import type { EmbeddedProvenance } from '../../image/embedded.js';
import type { Sql } from './sqlite.js';
import type { StoredEmbedded } from '../result-rows.js';

export function saveEmbedded(sql: Sql, sha256: string, e: EmbeddedProvenance, readAt: string): void {
  sql.run('INSERT INTO embedded (sha256, read_at, metadata, c2pa) VALUES (?, ?, ?, ?) ON CONFLICT(sha256) DO NOTHING', sha256, readAt, JSON.stringify(e.metadata), JSON.stringify(e.c2pa));
}

export function getEmbedded(sql: Sql, sha256: string): StoredEmbedded | undefined {
  const r = sql.one<{ sha256: string; read_at: string; metadata: string; c2pa: string }>('SELECT sha256, read_at, metadata, c2pa FROM embedded WHERE sha256 = ?', sha256);
  return r ? { sha256: r.sha256, read_at: r.read_at, metadata: JSON.parse(r.metadata) as StoredEmbedded['metadata'], c2pa: JSON.parse(r.c2pa) as StoredEmbedded['c2pa'] } : undefined;
}
