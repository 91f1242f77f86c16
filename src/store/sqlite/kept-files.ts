/** The local file's kept files (schema.ts migration 7; store/kept-rows.ts says what they are). */
import { sha256Hex } from '../../evidence/custody.js';
import type { KeptFile } from '../kept-rows.js';
import type { Sql } from './sqlite.js';

export function keepFile(sql: Sql, bytes: Uint8Array, mediaType: string, at: string): { sha256: string; size: number } {
  const sha256 = sha256Hex(bytes);
  sql.run('INSERT INTO kept_files (sha256, size, media_type, kept_at, bytes) VALUES (?, ?, ?, ?, ?) ON CONFLICT(sha256) DO NOTHING', sha256, bytes.length, mediaType, at, Buffer.from(bytes));
  return { sha256, size: bytes.length };
}

export function keptFile(sql: Sql, sha256: string): KeptFile | undefined {
  const row = sql.one<Omit<KeptFile, 'bytes'> & { bytes: Uint8Array | ArrayBuffer }>('SELECT sha256, size, media_type, kept_at, bytes FROM kept_files WHERE sha256 = ?', sha256);
  // libsql hands a BLOB back as an ArrayBuffer here (as results.ts's raw): a Buffer, as KeptFile promises.
  return row && { ...row, bytes: Buffer.from(row.bytes instanceof ArrayBuffer ? new Uint8Array(row.bytes) : row.bytes) };
}
